/** Values the chart tests render and install. */

/** A sha256 digest of one repeated hex character, e.g. a version `sha256:aaaa…`. */
export const digest = (c: string) => `sha256:${c.repeat(64)}`;
/** A presigned-looking link; n tells links apart. */
export const link = (n: number) =>
  `https://s3.example.com/exports/site.tar.gz?X-Amz-Expires=3600&X-Amz-Signature=${String(n).repeat(8)}`;

/** Every optional feature on (existingSecret, ingress, HTTPRoute, HPA, PDB, PVC, scheduling). */
export const everything = {
  staticExport: {
    enabled: true,
    bundleUrl: link(1),
    version: digest('a'),
    existingSecret: { name: 'docs-values', key: 'site.yaml' },
  },
  image: { repository: 'registry.example.com/docsnap', digest: digest('b'), pullPolicy: 'Always' },
  imagePullSecrets: [{ name: 'registry' }],
  server: {
    deployment: 'air-gapped',
    frameAncestors: "'self' https://portal.example.com",
    workers: 2,
    watchValuesSecret: true,
    extraArgs: ['--example-flag=1'],
  },
  serviceAccount: { annotations: { 'example.com/owner': 'docs' } },
  podAnnotations: { 'prometheus.io/scrape': 'true' },
  podLabels: { team: 'docs' },
  service: { annotations: { 'example.com/lb': 'internal' } },
  ingress: {
    enabled: true,
    className: 'nginx',
    annotations: { 'nginx.ingress.kubernetes.io/proxy-body-size': '1m' },
    hosts: [{ host: 'docs.example.com', paths: [{ path: '/', pathType: 'Prefix' }] }],
    tls: [{ secretName: 'docs-tls', hosts: ['docs.example.com'] }],
  },
  httpRoute: {
    enabled: true,
    parentRefs: [{ name: 'public', namespace: 'gateways', sectionName: 'https' }],
    hostnames: ['docs.example.com'],
  },
  autoscaling: {
    enabled: true,
    minReplicas: 2,
    maxReplicas: 6,
    targetCPUUtilizationPercentage: 70,
    targetMemoryUtilizationPercentage: 80,
  },
  podDisruptionBudget: { enabled: true, minAvailable: 1 },
  cache: { existingClaim: 'docs-cache' },
  tmp: { sizeLimit: '512Mi' },
  extraEnv: [{ name: 'NODE_OPTIONS', value: '--max-old-space-size=256' }],
  nodeSelector: { 'kubernetes.io/os': 'linux' },
  tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'docs', effect: 'NoSchedule' }],
  affinity: {
    podAntiAffinity: {
      preferredDuringSchedulingIgnoredDuringExecution: [
        {
          weight: 100,
          podAffinityTerm: {
            topologyKey: 'kubernetes.io/hostname',
            labelSelector: { matchLabels: { 'app.kubernetes.io/name': 'docsnap-site' } },
          },
        },
      ],
    },
  },
  topologySpreadConstraints: [
    { maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'ScheduleAnyway' },
  ],
};
