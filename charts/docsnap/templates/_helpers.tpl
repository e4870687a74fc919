{{/* The chart name, or nameOverride. */}}
{{- define "docsnap.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
The full name of the release's objects: fullnameOverride, or <release>-<chart> (the release name
alone when it already contains the chart name). 63 characters at most (DNS label).
*/}}
{{- define "docsnap.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/* chart-version, for the helm.sh/chart label. */}}
{{- define "docsnap.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Labels of every object. */}}
{{- define "docsnap.labels" -}}
helm.sh/chart: {{ include "docsnap.chart" . }}
{{ include "docsnap.selectorLabels" . }}
app.kubernetes.io/version: {{ .Values.image.tag | default .Chart.AppVersion | trunc 63 | trimSuffix "-" | quote }}
app.kubernetes.io/part-of: docsnap
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{/* The pod selector: stable across upgrades (a Deployment's selector is immutable). */}}
{{- define "docsnap.selectorLabels" -}}
app.kubernetes.io/name: {{ include "docsnap.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/* The ServiceAccount the pods run as. */}}
{{- define "docsnap.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "docsnap.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* The container image: repository@digest, or repository:tag (the tag defaults to appVersion). */}}
{{- define "docsnap.image" -}}
{{- if .Values.image.digest }}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest }}
{{- else }}
{{- printf "%s:%s" .Values.image.repository (.Values.image.tag | default .Chart.AppVersion) }}
{{- end }}
{{- end }}

{{/*
NODE_OPTIONS of the operator (src/operator/defaults.ts, docs/operator.md): a 1 MiB semi-space and
an old space of 96 MiB for up to 1,000 StaticExports, 32 MiB more per further 1,000.
*/}}
{{- define "docsnap.nodeOptions" -}}
{{- $n := int .Values.operator.expectedStaticExports }}
{{- $extra := 0 }}
{{- if gt $n 1000 }}
{{- $extra = div (add (sub $n 1000) 999) 1000 }}
{{- end }}
{{- printf "--max-semi-space-size=1 --max-old-space-size=%d" (add 96 (mul 32 $extra)) }}
{{- end }}

{{/* The operator's pods, apart from the API server's. */}}
{{- define "docsnap.operatorSelectorLabels" -}}
{{ include "docsnap.selectorLabels" . }}
app.kubernetes.io/component: operator
{{- end }}
