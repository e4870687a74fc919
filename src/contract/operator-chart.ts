import { z } from 'zod';

/**
 * The values of charts/docsnap (the operator's chart). Its values.schema.json is generated from
 * this schema by `npm run manifests`, so `helm install` refuses a bad value naming it, and the
 * chart's README table is generated from the descriptions.
 */

const Quantity = z
  .union([
    z.string().regex(/^\d+(\.\d+)?(m|[KMGTPE]i?)?$/, 'a Kubernetes quantity such as 256Mi or 500m'),
    z.number(),
  ])
  .describe('A Kubernetes quantity.');
const ResourceList = z.object({ cpu: Quantity.optional(), memory: Quantity.optional() }).strict();
const Namespace = z.string().regex(/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/, 'a namespace name');
const Duration = z.string().regex(/^(\d+(ms|s|m|h))+$/, 'a duration such as 30s, 5m or 1h');
const Labels = z.record(z.string(), z.string());
// Kubernetes objects passed through as written: the API server checks them.
const Passthrough = z.record(z.string(), z.unknown());

export const OperatorChartValues = z
  .object({
    replicaCount: z
      .number()
      .int()
      .min(1)
      .max(10)
      .describe(
        'Operator replicas; one leads (leader election), the others stand by. 2 recommended, with the PDB.',
      ),
    image: z
      .object({
        repository: z.string().min(1).describe('The docsnap image (one image for every face).'),
        tag: z.string().describe("The image tag; empty: the chart's appVersion."),
        digest: z
          .string()
          .regex(/^(sha256:[a-f0-9]{64})?$/, 'sha256:<64 hex digits>')
          .describe('Pin the image by digest (repository@digest); wins over tag.'),
        pullPolicy: z.enum(['Always', 'IfNotPresent', 'Never']).describe('Image pull policy.'),
      })
      .strict(),
    imagePullSecrets: z
      .array(z.object({ name: z.string() }).strict())
      .describe('Secrets for pulling the image.'),
    nameOverride: z.string().describe('Replaces the chart name in object names.'),
    fullnameOverride: z.string().describe('Replaces <release>-<chart> in object names.'),
    crds: z
      .object({
        enabled: z.boolean().describe('Install the StaticExport CRD with the chart.'),
        keep: z
          .boolean()
          .describe('Keep the CRD (and so every StaticExport) when the release is uninstalled.'),
      })
      .strict(),
    watchNamespaces: z
      .array(Namespace)
      .max(100)
      .describe(
        'Namespaces the operator watches (--namespace), each with a Role and RoleBinding; empty: all namespaces, with a ClusterRole.',
      ),
    operator: z
      .object({
        concurrency: z.number().int().min(1).max(256).describe('Reconciles at once (--concurrency).'),
        pollInterval: z.number().int().min(200).describe('How often a running export is polled, in ms.'),
        expectedStaticExports: z
          .number()
          .int()
          .min(0)
          .describe(
            'StaticExports you expect to run: sizes the heap (NODE_OPTIONS --max-old-space-size, 96 MiB for the first 1,000, 32 MiB per further 1,000; docs/operator.md).',
          ),
        exportMemoryLimitMiB: z
          .number()
          .int()
          .min(128)
          .describe('Memory one embedded export may use (--export-memory-limit).'),
        exportTimeLimit: Duration.describe('Time one embedded export may take (--export-time-limit).'),
        logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace']).describe('Log level.'),
        extraArgs: z
          .array(z.string())
          .describe(
            'More arguments of docsnap operator, e.g. `--allow-source-path=/docs` for embedded exporters that export a directory mounted into the pod.',
          ),
      })
      .strict(),
    leaderElection: z
      .object({ enabled: z.boolean().describe('Leader election (off: one replica only).') })
      .strict(),
    extraEnv: z.array(Passthrough).describe('More environment variables of the container.'),
    serviceAccount: z
      .object({
        create: z.boolean().describe('Create the ServiceAccount.'),
        name: z.string().describe('Its name; empty: the release full name.'),
        annotations: Labels.describe('Annotations, e.g. for workload identity.'),
      })
      .strict(),
    metrics: z
      .object({
        service: z
          .object({
            enabled: z.boolean().describe('A Service in front of /metrics.'),
            port: z.number().int().min(1).max(65535).describe('Its port.'),
          })
          .strict(),
        serviceMonitor: z
          .object({
            enabled: z.boolean().describe('A Prometheus Operator ServiceMonitor (needs its CRD).'),
            interval: Duration.describe('Scrape interval.'),
            labels: Labels.describe("Labels your Prometheus's serviceMonitorSelector matches."),
          })
          .strict(),
      })
      .strict(),
    podDisruptionBudget: z
      .object({
        enabled: z.boolean().describe('A PodDisruptionBudget (with 2 or more replicas).'),
        maxUnavailable: z.number().int().min(1).describe('Replicas a voluntary disruption may take.'),
      })
      .strict(),
    resources: z
      .object({ requests: ResourceList.optional(), limits: ResourceList.optional() })
      .strict()
      .describe(
        'Container resources. The memory limit must cover the heap and, with the embedded exporter, its exports.',
      ),
    podSecurityContext: Passthrough.describe(
      'Pod securityContext (the restricted Pod Security Standard by default).',
    ),
    securityContext: Passthrough.describe('Container securityContext (restricted by default).'),
    podAnnotations: Labels.describe('Pod annotations.'),
    podLabels: Labels.describe('Pod labels.'),
    nodeSelector: Labels.describe('Node selector.'),
    tolerations: z.array(Passthrough).describe('Tolerations.'),
    affinity: Passthrough.describe('Affinity.'),
    priorityClassName: z.string().describe('Priority class.'),
    api: z
      .object({
        enabled: z.boolean().describe('Also run the Admin API server (docsnap api, docs/api.md).'),
        replicaCount: z
          .number()
          .int()
          .min(1)
          .max(10)
          .describe('API replicas: more than one only with S3 storage (the local store is one volume).'),
        config: z
          .object({
            existingSecret: z
              .string()
              .describe(
                'The Secret holding the API configuration file (docs/api.md); server.host 0.0.0.0 and port 8080.',
              ),
            key: z.string().min(1).describe('Its key.'),
          })
          .strict(),
        s3CredentialsSecret: z
          .string()
          .describe(
            'A Secret with AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, for S3 storage; empty: instance roles or none.',
          ),
        persistence: z
          .object({
            enabled: z.boolean().describe('A volume at /var/lib/docsnap, for storage.local.dir.'),
            size: Quantity.describe('Its size.'),
            storageClassName: z.string().describe('Its storage class; empty: the default.'),
            existingClaim: z.string().describe('Use this PersistentVolumeClaim instead.'),
          })
          .strict(),
        service: z
          .object({ port: z.number().int().min(1).max(65535).describe('The Service port.') })
          .strict(),
        ingress: z
          .object({
            enabled: z.boolean().describe('An Ingress in front of the API.'),
            className: z.string().describe('Its ingressClassName.'),
            host: z.string().describe('Its host.'),
            annotations: Labels.describe('Its annotations.'),
            tlsSecretName: z.string().describe('A TLS Secret for the host; empty: no TLS section.'),
          })
          .strict(),
        resources: z
          .object({ requests: ResourceList.optional(), limits: ResourceList.optional() })
          .strict()
          .describe('API container resources: exports run in child processes (exports.memoryLimitMiB each).'),
      })
      .strict(),
  })
  .strict()
  .refine((values) => !values.api.enabled || values.api.config.existingSecret !== '', {
    message:
      'api.config.existingSecret must name the Secret with the API configuration when api.enabled is true',
    path: ['api', 'config', 'existingSecret'],
  });
export type OperatorChartValues = z.infer<typeof OperatorChartValues>;

/** values.schema.json of charts/docsnap. */
export function operatorChartSchemaJson(): string {
  const schema = z.toJSONSchema(OperatorChartValues, { target: 'draft-7', io: 'input' });
  return `${JSON.stringify({ title: 'charts/docsnap values (generated from src/contract/operator-chart.ts)', ...schema }, null, 2)}\n`;
}
