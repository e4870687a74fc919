import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { LEADER_ELECTION_RULES, OPERATOR_RULES } from '../../src/operator/rbac.ts';
import { makeWorkDir } from '../../tools/local/processes.ts';
import { chartHelm, type HelmTools, type K8sObject, locateHelm, repoRoot } from '../harness/helm.ts';

/** charts/docsnap, the operator's chart, through real helm: lint, template, schema refusals. */

const chart = join(repoRoot, 'charts/docsnap');
const tools = await locateHelm();
const missing = 'missing' in tools ? tools.missing : undefined;
if (missing) console.warn(`[charts] the docsnap chart tests are skipped: ${missing}`);

const work = makeWorkDir('operator-chart');
afterAll(() => rmSync(work, { recursive: true, force: true }));
const { valuesFile, runHelm, render } = chartHelm((tools as HelmTools).helm, work, chart, 'op', 'ops');

const all = (objects: K8sObject[], kind: string) => objects.filter((o) => o.kind === kind);
function one(objects: K8sObject[], kind: string, name?: string): K8sObject {
  const found = objects.find((o) => o.kind === kind && (!name || o.metadata.name === name));
  if (!found) throw new Error(`no ${kind} ${name ?? ''} among ${objects.map((o) => o.kind).join(', ')}`);
  return found;
}
// biome-ignore lint/suspicious/noExplicitAny: rendered manifests are checked field by field
const container = (objects: K8sObject[]): any => one(objects, 'Deployment').spec.template.spec.containers[0];

/** The Admin API with every option. */
const withApi = {
  enabled: true,
  config: { existingSecret: 'api-config' },
  s3CredentialsSecret: 's3-credentials',
  persistence: { enabled: true, size: '5Gi' },
  ingress: { enabled: true, className: 'nginx', host: 'api.docs.example.com', tlsSecretName: 'api-tls' },
};

/** Every documented option at once. */
const everything = {
  replicaCount: 3,
  image: {
    repository: 'registry.example.com/docsnap',
    digest: `sha256:${'c'.repeat(64)}`,
    pullPolicy: 'Always',
  },
  imagePullSecrets: [{ name: 'registry' }],
  crds: { enabled: true, keep: false },
  watchNamespaces: ['docs-a', 'docs-b'],
  operator: {
    concurrency: 8,
    expectedStaticExports: 3500,
    logLevel: 'debug',
    extraArgs: ['--leader-election-id=docs'],
  },
  extraEnv: [{ name: 'EXTRA', value: '1' }],
  serviceAccount: { annotations: { 'example.com/role': 'docsnap' } },
  metrics: { serviceMonitor: { enabled: true, labels: { release: 'prometheus' } } },
  podDisruptionBudget: { maxUnavailable: 2 },
  nodeSelector: { 'kubernetes.io/os': 'linux' },
  tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'ops', effect: 'NoSchedule' }],
  affinity: { podAntiAffinity: {} },
  priorityClassName: 'system-cluster-critical',
  podAnnotations: { 'example.com/a': 'b' },
  podLabels: { team: 'platform' },
};

describe.skipIf(missing !== undefined)(
  `the docsnap operator chart${missing ? ' (helm missing)' : ''}`,
  () => {
    it('passes helm lint --strict with its defaults and with every option', async () => {
      for (const values of [{}, everything]) {
        const result = await runHelm(['lint', '--strict', chart, '--values', valuesFile(values)]);
        expect(result.code, result.stdout + result.stderr).toBe(0);
      }
    });

    it('renders the operator with leader election, probes, the heap it needs and a restricted pod', async () => {
      const objects = await render();
      expect(all(objects, 'Deployment')).toHaveLength(1);
      const deployment = one(objects, 'Deployment');
      expect(deployment.spec.replicas).toBe(2);
      const c = container(objects);
      expect(c.image).toBe('docsnap:0.1.0');
      expect(c.args).toEqual([
        'operator',
        '--listen=0.0.0.0:8080',
        '--concurrency=16',
        '--poll-interval=5000',
        '--export-memory-limit=2048',
        '--export-time-limit=30m',
        '--log-level=info',
      ]);
      expect(c.env).toContainEqual({
        name: 'NODE_OPTIONS',
        value: '--max-semi-space-size=1 --max-old-space-size=96',
      });
      expect(c.env).toContainEqual({
        name: 'POD_NAMESPACE',
        valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } },
      });
      expect(c.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'metrics' });
      expect(c.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'metrics' });
      expect(c.securityContext).toMatchObject({
        readOnlyRootFilesystem: true,
        allowPrivilegeEscalation: false,
      });
      expect(deployment.spec.template.spec.securityContext).toMatchObject({
        runAsNonRoot: true,
        runAsUser: 65532,
      });
      expect(one(objects, 'PodDisruptionBudget').spec.maxUnavailable).toBe(1);
      expect(one(objects, 'Service').spec.ports[0].port).toBe(8080);
    });

    it('installs the CRD of crds/ (kept on uninstall by default) and the RBAC of src/operator/rbac.ts', async () => {
      const objects = await render();
      const crd = one(objects, 'CustomResourceDefinition');
      const committed = parse(readFileSync(join(repoRoot, 'crds/staticexports.docsnap.dev.yaml'), 'utf8'));
      expect(crd.spec).toEqual(committed.spec);
      expect(crd.metadata.annotations?.['helm.sh/resource-policy']).toBe('keep');
      expect(one(objects, 'ClusterRole').rules).toEqual(OPERATOR_RULES);
      expect(one(objects, 'ClusterRoleBinding').subjects).toEqual([
        { kind: 'ServiceAccount', name: 'op-docsnap', namespace: 'ops' },
      ]);
      expect(one(objects, 'Role', 'op-docsnap-leader-election').rules).toEqual(LEADER_ELECTION_RULES);
      // crds.keep: false and crds.enabled: false.
      const notKept = one(await render({ crds: { keep: false } }), 'CustomResourceDefinition');
      expect(notKept.metadata.annotations?.['helm.sh/resource-policy']).toBeUndefined();
      expect(all(await render({ crds: { enabled: false } }), 'CustomResourceDefinition')).toEqual([]);
    });

    it('scopes itself to the namespaces named: a Role and RoleBinding in each, no ClusterRole, --namespace', async () => {
      const objects = await render(everything);
      expect(all(objects, 'ClusterRole')).toEqual([]);
      const roles = all(objects, 'Role').filter((r) => r.metadata.name === 'op-docsnap');
      expect(roles.map((r) => r.metadata.namespace)).toEqual(['docs-a', 'docs-b']);
      expect(roles[0]?.rules).toEqual(OPERATOR_RULES);
      expect(
        all(objects, 'RoleBinding')
          .map((b) => b.metadata.namespace)
          .sort(),
      ).toEqual(['docs-a', 'docs-b', 'ops']);
      const c = container(objects);
      expect(c.args).toContain('--namespace=docs-a,docs-b');
      expect(c.args).toContain('--leader-election-id=docs');
      // 3,500 StaticExports: 96 MiB + 3 × 32 MiB.
      expect(c.env).toContainEqual({
        name: 'NODE_OPTIONS',
        value: '--max-semi-space-size=1 --max-old-space-size=192',
      });
      expect(c.image).toBe(`registry.example.com/docsnap@sha256:${'c'.repeat(64)}`);
      expect(one(objects, 'ServiceMonitor').metadata.labels?.release).toBe('prometheus');
      expect(
        one(objects, 'CustomResourceDefinition').metadata.annotations?.['helm.sh/resource-policy'],
      ).toBeUndefined();
    });

    it('runs the Admin API when asked: its config from a Secret, S3 credentials, a volume, a Service and an Ingress', async () => {
      const objects = await render({ api: withApi });
      const api = objects.find(
        (o) => o.kind === 'Deployment' && o.metadata.name === 'op-docsnap-api',
      ) as K8sObject;
      const c = api.spec.template.spec.containers[0];
      expect(c.args).toEqual(['api', '--config=/etc/docsnap/api/config.yaml']);
      expect(c.envFrom).toEqual([{ secretRef: { name: 's3-credentials' } }]);
      expect(api.spec.strategy).toEqual({ type: 'Recreate' });
      expect(api.spec.template.spec.volumes).toContainEqual({
        name: 'config',
        secret: { secretName: 'api-config', items: [{ key: 'config.yaml', path: 'config.yaml' }] },
      });
      expect(api.spec.template.spec.automountServiceAccountToken).toBe(false);
      // The operator's selectors never take the API's pods.
      const operatorSelector = one(objects, 'Deployment', 'op-docsnap').spec.selector.matchLabels;
      const apiLabels = api.spec.template.metadata.labels;
      expect(Object.entries(operatorSelector).every(([k, v]) => apiLabels[k] === v)).toBe(false);
      expect(one(objects, 'PersistentVolumeClaim').metadata.annotations?.['helm.sh/resource-policy']).toBe(
        'keep',
      );
      expect(one(objects, 'Ingress').spec.rules[0].host).toBe('api.docs.example.com');
      expect(one(objects, 'Service', 'op-docsnap-api').spec.ports[0].port).toBe(8080);
      const refused = await runHelm([
        'template',
        'op',
        chart,
        '--values',
        valuesFile({ api: { enabled: true } }),
      ]);
      expect(refused.stderr).toMatch(/api\.config\.existingSecret must name the Secret/);
    });

    it.each([
      ['replicaCount 0', { replicaCount: 0 }, /replicaCount/],
      ['an unknown value', { operatr: {} }, /operatr/],
      ['a namespace that is no name', { watchNamespaces: ['Docs_A'] }, /watchNamespaces\/0/],
      ['a time limit that is no duration', { operator: { exportTimeLimit: 'soon' } }, /exportTimeLimit/],
      ['an image digest that is not sha256', { image: { digest: 'latest' } }, /image\/digest/],
    ])('refuses %s, naming the value', async (_, values, message) => {
      const result = await runHelm(['template', 'op', chart, '--values', valuesFile(values)]);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toMatch(message);
    });
  },
);
