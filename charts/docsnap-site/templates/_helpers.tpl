{{/* The chart name, or nameOverride. */}}
{{- define "docsnap-site.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
The full name of the release's objects: fullnameOverride, or <release>-<chart> (the release name
alone when it already contains the chart name). 63 characters at most (DNS label).
*/}}
{{- define "docsnap-site.fullname" -}}
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
{{- define "docsnap-site.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Labels of every object. */}}
{{- define "docsnap-site.labels" -}}
helm.sh/chart: {{ include "docsnap-site.chart" . }}
{{ include "docsnap-site.selectorLabels" . }}
app.kubernetes.io/version: {{ .Values.image.tag | default .Chart.AppVersion | trunc 63 | trimSuffix "-" | quote }}
app.kubernetes.io/component: site
app.kubernetes.io/part-of: docsnap
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{/* The pod selector: stable across upgrades (a Deployment's selector is immutable). */}}
{{- define "docsnap-site.selectorLabels" -}}
app.kubernetes.io/name: {{ include "docsnap-site.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/* The ServiceAccount the pods run as. */}}
{{- define "docsnap-site.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "docsnap-site.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* The container image: repository@digest, or repository:tag (the tag defaults to appVersion). */}}
{{- define "docsnap-site.image" -}}
{{- if .Values.image.digest }}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest }}
{{- else }}
{{- printf "%s:%s" .Values.image.repository (.Values.image.tag | default .Chart.AppVersion) }}
{{- end }}
{{- end }}

{{/*
The Secret the pods read the values file from: the operator-written existingSecret, or the one
this chart renders from staticExport.*.
*/}}
{{- define "docsnap-site.valuesSecretName" -}}
{{- if .Values.staticExport.existingSecret.name }}
{{- .Values.staticExport.existingSecret.name }}
{{- else }}
{{- printf "%s-values" (include "docsnap-site.fullname" .) | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}

{{- define "docsnap-site.valuesSecretKey" -}}
{{- if .Values.staticExport.existingSecret.name }}
{{- .Values.staticExport.existingSecret.key | default "values.yaml" }}
{{- else }}
{{- "values.yaml" }}
{{- end }}
{{- end }}
