import { z } from 'zod';
import { Domain, ExportWarnings, StartExportRequest } from './admin-api.ts';
import { PlaygroundOrigin } from './api-config.ts';
import { DURATION_PATTERN, parseDuration } from './duration.ts';

/** The StaticExport resource's API coordinates. */
export const STATIC_EXPORT = {
  group: 'docsnap.dev',
  version: 'v1alpha1',
  kind: 'StaticExport',
  plural: 'staticexports',
  singular: 'staticexport',
  shortNames: ['sx'],
} as const;
export const STATIC_EXPORT_API_VERSION = `${STATIC_EXPORT.group}/${STATIC_EXPORT.version}`;

/** Setting this annotation to a new value (a timestamp, by convention) asks for a new export. */
export const EXPORT_REQUESTED_ANNOTATION = 'docsnap.dev/export-requested-at';
/**
 * A Secret (or ConfigMap target) a StaticExport may use carries this label, its value the
 * StaticExport's name; the operator watches only Secrets with the label. One shared by several
 * StaticExports of its namespace lists them in SECRET_ACCESS_ANNOTATION ("docs,blog", or "*").
 */
export const SECRET_ACCESS_LABEL = 'docsnap.dev/static-export';
export const SECRET_ACCESS_ANNOTATION = 'docsnap.dev/static-exports';
/** Targets docsnap created carry this label; it never deletes or claims a target without it. */
export const MANAGED_BY_LABEL = { 'app.kubernetes.io/managed-by': 'docsnap' } as const;

/** A Kubernetes object name (DNS subdomain). */
const ObjectName = z
  .string()
  .min(1)
  .max(253)
  .regex(/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/, 'must be a lowercase DNS subdomain name');
/** A key of a Secret's or ConfigMap's data. */
const DataKey = z
  .string()
  .min(1)
  .max(253)
  .regex(/^[-._a-zA-Z0-9]+$/, 'may hold letters, digits, "-", "_" and "." only');
const Duration = z.string().regex(DURATION_PATTERN, 'must be a duration like 90s, 20m, 1h30m or 7d').max(32);

/**
 * A duration of at least `minimum` ("1s"), checked by the apiserver (a CEL rule: Go's duration()
 * has no days, and any amount of days is above every minimum here, unless it is all zeros) and by
 * the schema alike.
 */
function durationAtLeast(minimum: string) {
  const minimumMs = parseDuration(minimum) as number;
  const message = `must be at least ${minimum}`;
  return Duration.refine((text) => (parseDuration(text) ?? 0) >= minimumMs, message).meta({
    'x-kubernetes-validations': [
      {
        rule: `self.contains('d') ? !self.matches('^(0+(ms|s|m|h|d))+$') : duration(self) >= duration('${minimum}')`,
        message,
      },
    ],
  });
}

/** Exactly one of the listed optional fields must be set; written as a CEL rule for the CRD. */
function exactlyOneOf(fields: string[], what: string) {
  return {
    'x-kubernetes-validations': [
      {
        rule: `[${fields.map((f) => `has(self.${f})`).join(', ')}].filter(x, x).size() == 1`,
        message: `exactly one ${what} must be set: ${fields.join(' or ')}`,
      },
    ],
  };
}

export const SecretKeyRef = z
  .object({
    name: ObjectName.describe('Name of the Secret, in the StaticExport’s namespace.'),
    key: DataKey.describe('Key of the Secret’s data.'),
  })
  .describe('A key of a Secret in the same namespace.');

export const ApiExporter = z
  .object({
    url: z
      .string()
      .max(2048)
      .regex(/^https?:\/\/[^\s/?#]+[^\s?#]*$/, 'must be an http(s) URL without query or fragment')
      .describe('Base URL of the Admin API: the original product’s, or `docsnap api`.'),
    adminKeySecretRef: SecretKeyRef.describe('The Secret key holding the admin key (Bearer token).'),
  })
  .describe('Export through an Admin API over HTTP.');

/** A reference to a whole Secret whose keys are named by the field that holds it. */
const SecretRef = z.object({
  name: ObjectName.describe('Name of the Secret, in the StaticExport’s namespace.'),
});

export const GitSource = z
  .object({
    url: z
      .string()
      .max(2048)
      .regex(
        /^(https?|git):\/\/[^\s/?#@]+[^\s?#]*$/,
        'must be an http(s):// or git:// URL without credentials',
      )
      .describe('Repository URL. Credentials belong in credentialsSecretRef, never in the URL.'),
    ref: z
      .string()
      .min(1)
      .max(255)
      .regex(/^[^\s~^:?*[\\]+$/, 'must be a branch, tag or full ref name')
      .default('main')
      .describe('Branch or tag to follow. A new commit on it is new content and starts an export.'),
    credentialsSecretRef: SecretRef.optional().describe(
      'Secret with `username` and `password` (a token works as password) for HTTP basic auth.',
    ),
    pollInterval: Duration.optional().describe('How often the ref is checked for a new commit. Default 15s.'),
  })
  .describe('A git repository served over HTTP(S) or the git protocol.');

export const EmbeddedSource = z
  .object({
    git: GitSource.optional(),
    configMap: z
      .object({
        name: ObjectName.describe('ConfigMap in the StaticExport’s namespace.'),
        pollInterval: Duration.optional().describe(
          'How often the ConfigMap is checked for a change. Default 15s.',
        ),
      })
      .optional()
      .describe(
        'A ConfigMap whose keys are the repository’s files; "__" in a key stands for "/". A change to it is new content.',
      ),
    path: z
      .string()
      .min(1)
      .max(4096)
      .regex(/^\//, 'must be an absolute path')
      .optional()
      .describe('A directory mounted into the operator’s pod.'),
  })
  .meta(exactlyOneOf(['git', 'configMap', 'path'], 'source'))
  .describe('The docs repository (docs.json and MDX).');

export const S3Storage = z
  .object({
    bucket: z.string().min(3).max(63).describe('Bucket for bundles and job records.'),
    endpoint: z
      .string()
      .max(2048)
      .regex(/^https?:\/\/[^\s/?#@]+\/?$/, 'must be an http(s) origin like https://minio.example:9000')
      .optional()
      .describe('S3-compatible server; AWS S3 when absent.'),
    region: z.string().min(1).max(64).default('us-east-1'),
    forcePathStyle: z
      .boolean()
      .default(true)
      .describe('Path-style addressing, as most S3-compatible servers want.'),
    prefix: z
      .string()
      .max(512)
      .regex(/^[-._a-zA-Z0-9/]*$/, 'may hold letters, digits, "-", "_", "." and "/" only')
      .optional()
      .describe('Key prefix. Default: <namespace>/<name>.'),
    credentialsSecretRef: SecretRef.describe('Secret with `accessKeyId` and `secretAccessKey`.'),
  })
  .describe('An S3-compatible bucket; links to bundles are SigV4 presigned (7 days at most).');

export const EmbeddedExporter = z
  .object({
    source: EmbeddedSource,
    storage: z.object({ s3: S3Storage }).describe('Where bundles are stored and linked from.'),
    linkLifetime: durationAtLeast('30s')
      .optional()
      .describe('Lifetime of bundle links (30s to 7d). Default 24h.'),
    siteUrl: z
      .string()
      .max(2048)
      .regex(/^https?:\/\/[^\s/?#@]+[^\s?#]*$/, 'must be an http(s) URL')
      .optional()
      .describe('Public URL of the served bundle, for sitemap.xml and canonical links.'),
    siteScripts: z
      .boolean()
      .optional()
      .describe(
        "Include the repository's own .js files on every page. Off by default; a script that names another origin is left out (the bundle is air-gapped).",
      ),
    strict: z
      .boolean()
      .optional()
      .describe(
        'Fail the export on what the platform builds past with a warning (navigation entries naming missing pages, invalid frontmatter). Off by default: those are counted in status.warnings.',
      ),
    playgroundOrigins: z
      .array(PlaygroundOrigin)
      .max(32)
      .optional()
      .describe(
        'Origins the API playground on API pages may send requests to (the bundle is air-gapped: without them it has no playground).',
      ),
  })
  .describe('Run the export pipeline inside the operator, for clusters with no way out.');
export type EmbeddedExporter = z.infer<typeof EmbeddedExporter>;

export const Exporter = z
  .object({ api: ApiExporter.optional(), embedded: EmbeddedExporter.optional() })
  .meta(exactlyOneOf(['api', 'embedded'], 'exporter'))
  .describe('Where exports run.');
export type Exporter = z.infer<typeof Exporter>;

const TargetObject = z.object({
  name: ObjectName.describe('Object name, in the StaticExport’s namespace. Created when missing.'),
  key: DataKey.default('values.yaml').describe('Data key holding the Helm values YAML.'),
});

export const ArgoCDApplicationTarget = z
  .object({
    name: ObjectName.describe('Application name, in the StaticExport’s namespace. Must exist.'),
    source: z
      .object({
        index: z.number().int().min(0).max(99).optional().describe('Position in spec.sources.'),
        name: z.string().min(1).max(253).optional().describe('spec.sources[].name.'),
        chart: z.string().min(1).max(253).optional().describe('spec.sources[].chart.'),
        repoURL: z.string().min(1).max(2048).optional().describe('spec.sources[].repoURL.'),
      })
      .optional()
      .describe(
        'For multi-source Applications (spec.sources): which source gets the values; every given field must match exactly one source.',
      ),
  })
  .describe('An Argo CD Application: helm.valuesObject.staticExport of its source.');

export const FluxHelmReleaseTarget = z
  .object({
    name: ObjectName.describe('HelmRelease name, in the StaticExport’s namespace. Must exist.'),
  })
  .describe('A Flux HelmRelease: spec.values.staticExport.');

export const TARGET_KINDS = ['secret', 'configMap', 'argoCDApplication', 'fluxHelmRelease'] as const;

export const Target = z
  .object({
    secret: TargetObject.optional().describe('A Secret key holding Helm values (the default kind).'),
    configMap: TargetObject.optional().describe('A ConfigMap key holding Helm values.'),
    argoCDApplication: ArgoCDApplicationTarget.optional(),
    fluxHelmRelease: FluxHelmReleaseTarget.optional(),
  })
  .meta(exactlyOneOf([...TARGET_KINDS], 'target kind'))
  .describe(
    'Where the Helm values staticExport.{enabled,bundleUrl,version} are written; other values, comments and formatting are kept.',
  );
export type Target = z.infer<typeof Target>;

export const StaticExportSpec = z
  .object({
    domain: Domain,
    version: StartExportRequest.shape.version,
    paths: StartExportRequest.shape.paths,
    exporter: Exporter,
    bundle: z
      .object({
        renewBefore: durationAtLeast('1s')
          .optional()
          .describe(
            'How long before the link expires to fetch a fresh one. Default: a third of its lifetime.',
          ),
      })
      .optional()
      .describe('Bundle link renewal.'),
    reexport: z
      .object({
        interval: durationAtLeast('1s')
          .optional()
          .describe('Export again this long after the last export completed.'),
      })
      .optional()
      .describe('Scheduled re-exports, for new content.'),
    targets: z
      .array(Target)
      .min(1)
      .max(16)
      .describe('Where the bundle link is written. The link itself appears nowhere else.'),
    pollInterval: durationAtLeast('200ms')
      .optional()
      .describe('How often a running export is polled (at least 200ms). Default 5s.'),
    suspend: z
      .boolean()
      .optional()
      .describe('Stop exporting and refreshing; the targets keep what they hold.'),
  })
  .describe('What to export, how, and where to put the bundle link.');
export type StaticExportSpec = z.infer<typeof StaticExportSpec>;

export const PHASES = ['Pending', 'Exporting', 'Bundling', 'Ready', 'Failed', 'Suspended'] as const;
export type Phase = (typeof PHASES)[number];

const Timestamp = z.string().describe('RFC 3339 time.');

export const Condition = z
  .object({
    type: z.string().describe('Ready, Exporting or TargetsSynced.'),
    status: z.enum(['True', 'False', 'Unknown']),
    observedGeneration: z.number().int().optional(),
    lastTransitionTime: Timestamp,
    reason: z.string().describe('CamelCase reason.'),
    message: z.string(),
  })
  .describe('A metav1.Condition.');
export type Condition = z.infer<typeof Condition>;

export const TargetStatus = z.object({
  kind: z.enum(['Secret', 'ConfigMap', 'Application', 'HelmRelease']),
  name: z.string(),
  key: z.string().describe('The data key, or the field path of the values in the object.'),
  syncedAt: Timestamp.optional().describe('When the current link was last written.'),
  error: z.string().optional().describe('Why the last write failed.'),
});
export type TargetStatus = z.infer<typeof TargetStatus>;

export const StaticExportStatus = z
  .object({
    observedGeneration: z.number().int().optional(),
    phase: z.enum(PHASES).optional(),
    jobId: z.string().optional().describe('The export job of the current (or last) export.'),
    jobGeneration: z.number().int().optional().describe('The generation the job was started for.'),
    jobStatus: z
      .enum(['queued', 'running', 'completed', 'failed'])
      .optional()
      .describe('The job as last seen on the exporter; failed also when it could not be started.'),
    jobRevision: z
      .string()
      .optional()
      .describe(
        'The source revision (git commit, ConfigMap version) the job exports; embedded exporter only.',
      ),
    jobRequestedAt: z
      .string()
      .optional()
      .describe(`The ${EXPORT_REQUESTED_ANNOTATION} annotation the job was started for.`),
    progress: z.number().int().min(0).max(100).optional(),
    pageCount: z.number().int().min(0).optional(),
    warnings: ExportWarnings.optional().describe(
      'Warnings of the export whose bundle the targets link (missing pages, invalid frontmatter, broken links…), in all and per kind.',
    ),
    startedAt: Timestamp.optional(),
    completedAt: Timestamp.optional(),
    error: z.string().optional().describe('Why the last export failed.'),
    refreshError: z
      .string()
      .optional()
      .describe('Why the last link refresh failed; cleared by a refresh that works.'),
    failures: z.number().int().min(0).optional().describe('Failures in a row; reset by success.'),
    lastFailureAt: Timestamp.optional(),
    bundle: z
      .object({
        jobId: z.string().describe('The job whose archive the targets’ link points at.'),
        expiresAt: Timestamp,
        renewalTime: Timestamp.describe('When a fresh link will be fetched.'),
        sizeBytes: z.number().int().min(0),
        digest: z.string().describe('sha256 of the archive.'),
        version: z.string().describe('staticExport.version written to the targets.'),
        refreshedAt: Timestamp.optional().describe('When the link was last fetched or a fetch was tried.'),
        refreshFailures: z.number().int().min(0).optional().describe('Link refreshes failed in a row.'),
      })
      .optional(),
    targets: z.array(TargetStatus).optional(),
    conditions: z
      .array(Condition)
      .meta({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'] })
      .optional(),
  })
  .describe('Observed state. Never holds the bundle link.');
export type StaticExportStatus = z.infer<typeof StaticExportStatus>;

export interface StaticExport {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace: string;
    uid: string;
    generation: number;
    resourceVersion: string;
    annotations?: Record<string, string>;
    labels?: Record<string, string>;
  };
  spec: StaticExportSpec;
  status?: StaticExportStatus;
}
