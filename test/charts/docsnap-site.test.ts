import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { makeWorkDir } from '../../tools/local/processes.ts';
import {
  chartDir,
  chartHelm,
  type HelmTools,
  type K8sObject,
  locateHelm,
  repoRoot,
} from '../harness/helm.ts';
import { digest, everything, link } from './values.ts';

// Helm is built from the Go module proxy on first use (tools/helm/build.sh, a few minutes once).
const tools = await locateHelm();
const missing = 'missing' in tools ? tools.missing : undefined;
if (missing) console.warn(`[charts] the docsnap-site chart tests are skipped: ${missing}`);

const work = makeWorkDir('chart');
afterAll(() => rmSync(work, { recursive: true, force: true }));
const { valuesFile, runHelm, render } = chartHelm((tools as HelmTools).helm, work, chartDir, 'site', 'docs');

/** helm template with bad values: must fail; resolves to its message. */
async function refusal(values: object): Promise<string> {
  const result = await runHelm(['template', 'site', chartDir, '--values', valuesFile(values)]);
  expect(result.code, `helm template accepted ${JSON.stringify(values)}`).not.toBe(0);
  return result.stderr;
}

function find(objects: K8sObject[], kind: string): K8sObject {
  const found = objects.find((o) => o.kind === kind);
  if (!found) throw new Error(`no ${kind} among ${objects.map((o) => o.kind).join(', ')}`);
  return found;
}

// biome-ignore lint/suspicious/noExplicitAny: rendered manifests are checked field by field
const container = (deployment: K8sObject): any => deployment.spec.template.spec.containers[0];

describe.skipIf(missing !== undefined)(`the docsnap-site chart${missing ? ' (helm missing)' : ''}`, () => {
  it('passes helm lint --strict, with the default values and with every feature on', async () => {
    const plain = await runHelm(['lint', '--strict', chartDir]);
    expect(plain.code, plain.stdout + plain.stderr).toBe(0);
    const full = await runHelm(['lint', '--strict', chartDir, '--values', valuesFile(everything)]);
    expect(full.code, full.stdout + full.stderr).toBe(0);
  });

  it("takes its appVersion, the default image tag, from package.json's version", () => {
    const chart = parse(readFileSync(join(chartDir, 'Chart.yaml'), 'utf8'));
    const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
    expect(chart).toMatchObject({ apiVersion: 'v2', type: 'application', appVersion: pkg.version });
  });

  it('renders a restricted, probed, drained Deployment reading its values from a mounted Secret', async () => {
    const objects = await render({
      staticExport: { enabled: true, bundleUrl: link(1), version: digest('a') },
    });
    expect(objects.map((o) => o.kind).sort()).toEqual([
      'Deployment',
      'PodDisruptionBudget',
      'Secret',
      'Service',
      'ServiceAccount',
    ]);
    for (const o of objects) {
      expect(o.metadata.namespace).toBe('docs');
      expect(o.metadata.labels).toMatchObject({
        'helm.sh/chart': 'docsnap-site-0.1.0',
        'app.kubernetes.io/name': 'docsnap-site',
        'app.kubernetes.io/instance': 'site',
        'app.kubernetes.io/version': '0.1.0',
        'app.kubernetes.io/managed-by': 'Helm',
      });
    }

    const secret = find(objects, 'Secret');
    expect(secret.metadata.name).toBe('site-docsnap-site-values');
    expect(parse(secret.stringData['values.yaml'])).toEqual({
      staticExport: { enabled: true, bundleUrl: link(1), version: digest('a') },
    });

    const deployment = find(objects, 'Deployment');
    expect(deployment.spec.replicas).toBe(2);
    expect(deployment.spec.strategy).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { maxUnavailable: 0, maxSurge: 1 },
    });
    const pod = deployment.spec.template.spec;
    expect(pod.automountServiceAccountToken).toBe(false);
    expect(pod.serviceAccountName).toBe('site-docsnap-site');
    expect(pod.terminationGracePeriodSeconds).toBe(45);
    // The restricted Pod Security Standard, field by field.
    expect(pod.securityContext).toMatchObject({
      runAsNonRoot: true,
      runAsUser: 65532,
      seccompProfile: { type: 'RuntimeDefault' },
    });
    const c = container(deployment);
    expect(c.securityContext).toMatchObject({
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
      readOnlyRootFilesystem: true,
      runAsNonRoot: true,
      runAsUser: 65532,
    });
    expect(c.image).toBe('docsnap:0.1.0');
    expect(c.args).toEqual([
      'serve',
      '--values=/etc/docsnap/values/values.yaml',
      '--listen=0.0.0.0:8080',
      '--admin-listen=0.0.0.0:9090',
      '--cache-dir=/var/cache/docsnap',
      '--deployment=cloud',
      '--workers=1',
    ]);
    // The link never travels in the pod template: only in the mounted file.
    expect(JSON.stringify(deployment)).not.toContain('s3.example.com');
    expect(c.startupProbe).toMatchObject({ httpGet: { path: '/healthz', port: 'admin' } });
    expect(c.startupProbe.periodSeconds * c.startupProbe.failureThreshold).toBeGreaterThanOrEqual(300);
    expect(c.livenessProbe).toMatchObject({ httpGet: { path: '/healthz', port: 'admin' } });
    expect(c.readinessProbe).toMatchObject({ httpGet: { path: '/readyz', port: 'admin' } });
    expect(c.lifecycle).toEqual({ preStop: { sleep: { seconds: 10 } } });
    expect(c.resources.limits.memory).toBeDefined();
    // The values Secret is mounted as a directory (kubelet's symlink swap reaches it), never subPath.
    expect(c.volumeMounts).toContainEqual({
      name: 'values',
      mountPath: '/etc/docsnap/values',
      readOnly: true,
    });
    expect(c.volumeMounts.every((m: { subPath?: string }) => m.subPath === undefined)).toBe(true);
    expect(c.volumeMounts).toContainEqual({ name: 'tmp', mountPath: '/tmp' });
    expect(pod.volumes).toEqual([
      {
        name: 'values',
        secret: {
          secretName: 'site-docsnap-site-values',
          items: [{ key: 'values.yaml', path: 'values.yaml' }],
        },
      },
      { name: 'cache', emptyDir: {} },
      { name: 'tmp', emptyDir: {} },
    ]);

    expect(find(objects, 'Service').spec.ports).toEqual([
      { name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' },
      { name: 'admin', port: 9090, targetPort: 'admin', protocol: 'TCP' },
    ]);
    expect(find(objects, 'ServiceAccount').automountServiceAccountToken).toBe(false);
    expect(find(objects, 'PodDisruptionBudget').spec).toMatchObject({ maxUnavailable: 1 });
  });

  it('leaves the pod template as it is for a new link, and changes it for a new version', async () => {
    const template = async (bundleUrl: string, version: string) => {
      const objects = await render({ staticExport: { enabled: true, bundleUrl, version } });
      return { pod: find(objects, 'Deployment').spec.template, secret: find(objects, 'Secret') };
    };
    const first = await template(link(1), digest('a'));
    const refreshed = await template(link(2), digest('a'));
    const published = await template(link(3), digest('c'));

    // A link refresh: only the mounted Secret changes, so no rollout (the server rereads the file).
    expect(refreshed.pod).toEqual(first.pod);
    expect(refreshed.secret.stringData).not.toEqual(first.secret.stringData);
    // A new version: the pod template changes, so the Deployment rolls out.
    expect(published.pod).not.toEqual(first.pod);
    expect(published.pod.metadata.annotations).toEqual({ 'docsnap.dev/static-export-version': digest('c') });
  });

  it('mounts the existingSecret key and renders no values Secret of its own', async () => {
    const objects = await render({
      staticExport: {
        enabled: true,
        version: digest('a'),
        existingSecret: { name: 'docs-values', key: 'site.yaml' },
      },
    });
    expect(objects.filter((o) => o.kind === 'Secret')).toEqual([]);
    const deployment = find(objects, 'Deployment');
    expect(deployment.spec.template.spec.volumes[0]).toEqual({
      name: 'values',
      secret: { secretName: 'docs-values', items: [{ key: 'site.yaml', path: 'values.yaml' }] },
    });
    // The server hot-swaps versions from the Secret: nothing in the pod template follows them.
    expect(deployment.spec.template.metadata.annotations).toBeUndefined();
    // The key defaults to values.yaml, the operator's Secret target default.
    const byDefault = await render({
      staticExport: { enabled: true, existingSecret: { name: 'docs-values' } },
    });
    expect(find(byDefault, 'Deployment').spec.template.spec.volumes[0].secret.items).toEqual([
      { key: 'values.yaml', path: 'values.yaml' },
    ]);
  });

  it('watches the values Secret through the API when asked, with a Role for that Secret only', async () => {
    const objects = await render({
      staticExport: { enabled: true, existingSecret: { name: 'docs-values', key: 'site.yaml' } },
      server: { watchValuesSecret: true },
    });
    const deployment = find(objects, 'Deployment');
    expect(deployment.spec.template.spec.automountServiceAccountToken).toBe(true);
    expect(deployment.spec.template.spec.containers[0].args).toContain(
      '--values-secret=docs/docs-values:site.yaml',
    );
    expect(find(objects, 'Role').rules).toEqual([
      {
        apiGroups: [''],
        resources: ['secrets'],
        resourceNames: ['docs-values'],
        verbs: ['get', 'list', 'watch'],
      },
    ]);
    expect(find(objects, 'RoleBinding').subjects[0].kind).toBe('ServiceAccount');
    // Off by default: no token, no Role.
    const byDefault = await render({
      staticExport: { enabled: true, existingSecret: { name: 'docs-values' } },
    });
    expect(byDefault.filter((o) => o.kind === 'Role')).toEqual([]);
    expect(find(byDefault, 'Deployment').spec.template.spec.automountServiceAccountToken).toBe(false);
  });

  it('renders every optional feature as asked', async () => {
    const objects = await render(everything);
    expect(objects.map((o) => o.kind).sort()).toEqual([
      'Deployment',
      'HTTPRoute',
      'HorizontalPodAutoscaler',
      'Ingress',
      'PodDisruptionBudget',
      'Role',
      'RoleBinding',
      'Service',
      'ServiceAccount',
    ]);
    const deployment = find(objects, 'Deployment');
    expect(deployment.spec.replicas).toBeUndefined(); // left to the HPA
    const pod = deployment.spec.template.spec;
    const c = container(deployment);
    expect(c.image).toBe(`registry.example.com/docsnap@${digest('b')}`);
    expect(c.imagePullPolicy).toBe('Always');
    expect(c.args).toEqual(
      expect.arrayContaining([
        '--deployment=air-gapped',
        '--workers=2',
        "--frame-ancestors='self' https://portal.example.com",
        '--example-flag=1',
      ]),
    );
    expect(c.env).toContainEqual({ name: 'NODE_OPTIONS', value: '--max-old-space-size=256' });
    expect(pod.imagePullSecrets).toEqual([{ name: 'registry' }]);
    expect(pod.volumes).toContainEqual({ name: 'cache', persistentVolumeClaim: { claimName: 'docs-cache' } });
    expect(pod.volumes).toContainEqual({ name: 'tmp', emptyDir: { sizeLimit: '512Mi' } });
    expect(pod.nodeSelector).toEqual(everything.nodeSelector);
    expect(pod.tolerations).toEqual(everything.tolerations);
    expect(pod.affinity).toEqual(everything.affinity);
    expect(pod.topologySpreadConstraints).toEqual([
      {
        ...everything.topologySpreadConstraints[0],
        labelSelector: {
          matchLabels: { 'app.kubernetes.io/name': 'docsnap-site', 'app.kubernetes.io/instance': 'site' },
        },
      },
    ]);
    expect(deployment.spec.template.metadata.annotations).toEqual({ 'prometheus.io/scrape': 'true' });
    expect(deployment.spec.template.metadata.labels).toMatchObject({ team: 'docs' });
    expect(deployment.spec.selector.matchLabels).toEqual({
      'app.kubernetes.io/name': 'docsnap-site',
      'app.kubernetes.io/instance': 'site',
    });

    expect(find(objects, 'Ingress')).toMatchObject({
      apiVersion: 'networking.k8s.io/v1',
      metadata: { annotations: everything.ingress.annotations },
      spec: {
        ingressClassName: 'nginx',
        tls: [{ secretName: 'docs-tls', hosts: ['docs.example.com'] }],
        rules: [
          {
            host: 'docs.example.com',
            http: {
              paths: [
                {
                  path: '/',
                  pathType: 'Prefix',
                  backend: { service: { name: 'site-docsnap-site', port: { name: 'http' } } },
                },
              ],
            },
          },
        ],
      },
    });
    expect(find(objects, 'HTTPRoute')).toMatchObject({
      apiVersion: 'gateway.networking.k8s.io/v1',
      spec: {
        parentRefs: everything.httpRoute.parentRefs,
        hostnames: ['docs.example.com'],
        rules: [
          {
            matches: [{ path: { type: 'PathPrefix', value: '/' } }],
            backendRefs: [{ name: 'site-docsnap-site', port: 80 }],
          },
        ],
      },
    });
    expect(find(objects, 'HorizontalPodAutoscaler')).toMatchObject({
      apiVersion: 'autoscaling/v2',
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'site-docsnap-site' },
        minReplicas: 2,
        maxReplicas: 6,
        metrics: [
          {
            type: 'Resource',
            resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } },
          },
          {
            type: 'Resource',
            resource: { name: 'memory', target: { type: 'Utilization', averageUtilization: 80 } },
          },
        ],
      },
    });
    const pdb = find(objects, 'PodDisruptionBudget');
    expect(pdb.spec).toEqual({
      selector: { matchLabels: deployment.spec.selector.matchLabels },
      minAvailable: 1, // minAvailable wins over the default maxUnavailable
    });
    expect(find(objects, 'ServiceAccount').metadata.annotations).toEqual({ 'example.com/owner': 'docs' });
    expect(find(objects, 'Service').metadata.annotations).toEqual({ 'example.com/lb': 'internal' });
  });

  it('leaves out the PDB and the preStop hook when turned off', async () => {
    const objects = await render({ podDisruptionBudget: { enabled: false }, preStopSleepSeconds: 0 });
    expect(objects.map((o) => o.kind)).not.toContain('PodDisruptionBudget');
    expect(container(find(objects, 'Deployment')).lifecycle).toBeUndefined();
  });

  it.each([
    ['staticExport.enabled: "yes"', { staticExport: { enabled: 'yes' } }, /staticExport\/enabled/],
    ['replicaCount: -1', { replicaCount: -1 }, /replicaCount/],
    ['an unknown key under staticExport', { staticExport: { enabeld: true } }, /enabeld/],
    ['an unknown top-level key', { replicas: 3 }, /replicas/],
    [
      'enabled without a bundleUrl or an existingSecret',
      { staticExport: { enabled: true } },
      /staticExport\/bundleUrl|staticExport\.bundleUrl/,
    ],
    ['a bundleUrl that is not http(s)', { staticExport: { bundleUrl: 'ftp://x/site.tar.gz' } }, /bundleUrl/],
    ['a version with spaces', { staticExport: { version: 'sha256: abc' } }, /staticExport\/version/],
    [
      'an existingSecret name that is no Secret name',
      { staticExport: { existingSecret: { name: 'Docs_Values' } } },
      /existingSecret\/name/,
    ],
    ['an unknown deployment kind', { server: { deployment: 'edge' } }, /server\/deployment/],
    ['zero serving processes', { server: { workers: 0 } }, /server\/workers/],
    ['a pull policy that is not one', { image: { pullPolicy: 'Sometimes' } }, /image\/pullPolicy/],
    ['an image digest that is not sha256', { image: { digest: 'latest' } }, /image\/digest/],
    ['service.port 0', { service: { port: 0 } }, /service\/port/],
    [
      'a PDB minAvailable that is no count or percentage',
      { podDisruptionBudget: { minAvailable: 'half' } },
      /minAvailable/,
    ],
    ['an unknown securityContext field', { securityContext: { readOnlyRootFS: true } }, /readOnlyRootFS/],
    ['a cache sizeLimit that is no quantity', { cache: { sizeLimit: 'big' } }, /cache\/sizeLimit/],
    ['a negative preStop sleep', { preStopSleepSeconds: -5 }, /preStopSleepSeconds/],
    [
      'autoscaling.minReplicas above maxReplicas',
      { autoscaling: { enabled: true, minReplicas: 5, maxReplicas: 3 } },
      /autoscaling\.minReplicas \(5\) is more than autoscaling\.maxReplicas \(3\)/,
    ],
    ['an HTTPRoute without parentRefs', { httpRoute: { enabled: true } }, /httpRoute\.parentRefs/],
  ])('refuses %s, naming the value', async (_, values, message) => {
    expect(await refusal(values)).toMatch(message);
  });
});
