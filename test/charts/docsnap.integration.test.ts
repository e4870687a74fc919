import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppsV1Api, CoreV1Api, type V1Pod } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import { createLogger } from '../../src/api/logging.ts';
import type { StaticExport } from '../../src/contract/static-export.ts';
import { type Manager, startManager } from '../../src/operator/manager.ts';
import { ensureNamespace, kubeConfigFor } from '../../tools/local/control-plane.ts';
import { makeWorkDir } from '../../tools/local/processes.ts';
import { LogCapture, startTestApi, type TestApi } from '../api/helpers.ts';
import { type HelmResult, type HelmTools, helm, locateHelm, repoRoot } from '../harness/helm.ts';
import { Cluster } from '../operator/helpers.ts';

/**
 * charts/docsnap installed into the test kube-apiserver by real helm: every object accepted, the
 * pods admitted under the restricted Pod Security profile, and the operator — run out of cluster
 * with a token of the ServiceAccount the chart made — brings a StaticExport to Ready with exactly
 * the rights the chart grants; a namespace-scoped install acts in its namespace only.
 */

const chart = join(repoRoot, 'charts/docsnap');
const connection = inject('kube');
const admin = kubeConfigFor(connection);
const core = admin.makeApiClient(CoreV1Api);
const apps = admin.makeApiClient(AppsV1Api);
const tools = await locateHelm();
const missing = 'missing' in tools ? tools.missing : undefined;

const suffix = randomBytes(3).toString('hex');
const system = `docsnap-system-${suffix}`;
const watched = new Cluster(connection, `docs-all-${suffix}`);
const scopedDocs = new Cluster(connection, `docs-scoped-${suffix}`);
const work = makeWorkDir('operator-chart-install');
let api: TestApi;
const managers: Manager[] = [];
let files = 0;

async function helmIn(args: string[], values: object = {}): Promise<HelmResult> {
  const file = join(work, `values-${++files}.json`);
  writeFileSync(file, JSON.stringify(values));
  return helm(
    (tools as HelmTools).helm,
    [...args, '--namespace', system, '--kubeconfig', connection.kubeconfigPath, '--values', file],
    work,
  );
}

/** A kubeconfig of the chart's ServiceAccount, from the TokenRequest API. */
async function chartIdentity(release: string) {
  const name = `${release}-docsnap`;
  const request = await core.createNamespacedServiceAccountToken({
    namespace: system,
    name,
    body: { spec: { audiences: [], expirationSeconds: 3600 } },
  });
  return kubeConfigFor(
    connection,
    request.status?.token as string,
    `system:serviceaccount:${system}:${name}`,
  );
}

/**
 * Whether a Pod of a Deployment's stored template passes admission (dry run): no controller-manager
 * runs to make one, and the namespace enforces the restricted Pod Security profile.
 */
async function admittedPodOf(deployment: string): Promise<boolean> {
  const template = (await apps.readNamespacedDeployment({ namespace: system, name: deployment })).spec
    ?.template;
  const pod: V1Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `${deployment}-check`, namespace: system, labels: template?.metadata?.labels },
    spec: template?.spec,
  };
  const admitted = await core.createNamespacedPod({ namespace: system, body: pod, dryRun: 'All' });
  return admitted.metadata?.name === `${deployment}-check`;
}

const isReady = (r: StaticExport) =>
  r.status?.phase === 'Ready' && r.status.observedGeneration === r.metadata.generation;

beforeAll(async () => {
  if (missing) return;
  await core.createNamespace({
    body: {
      metadata: {
        name: system,
        labels: {
          'pod-security.kubernetes.io/enforce': 'restricted',
          'pod-security.kubernetes.io/warn': 'restricted',
        },
      },
    },
  });
  await ensureNamespace(core, watched.namespace);
  await ensureNamespace(core, scopedDocs.namespace);
  api = await startTestApi('links: { lifetime: 1h }');
  for (const cluster of [watched, scopedDocs])
    await cluster.createSecret('admin-key', { key: api.keys.acme });
}, 300_000);

afterAll(async () => {
  await Promise.all(managers.map((m) => m.stop()));
  await api?.close();
  if (!missing)
    for (const release of ['op', 'scoped', 'withapi']) await helmIn(['uninstall', release]).catch(() => {});
  rmSync(work, { recursive: true, force: true });
});

const staticExport = (cluster: Cluster) =>
  cluster.create('docs', {
    domain: 'docs.acme.test',
    exporter: { api: { url: api.url, adminKeySecretRef: { name: 'admin-key', key: 'key' } } },
    targets: [{ secret: { name: 'docs-values' } }],
    pollInterval: '300ms',
  });

describe.skipIf(missing !== undefined)(
  `helm install of the docsnap operator chart${missing ? ' (helm missing)' : ''}`,
  () => {
    it('installs with its defaults: every object accepted, the CRD kept on uninstall, no PodSecurity warning', async () => {
      // The suite's other files applied the CRD with kubectl already: the chart takes it over.
      const result = await helmIn(['install', 'op', chart, '--take-ownership']);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).not.toMatch(/PodSecurity/);
      expect(result.stdout).toContain('STATUS: deployed');
      const deployment = await apps.readNamespacedDeployment({ namespace: system, name: 'op-docsnap' });
      expect(deployment.spec?.replicas).toBe(2);
      const crd = JSON.parse(
        (await watched.kubectl('get', 'crd', 'staticexports.docsnap.dev', '-o', 'json')).stdout,
      );
      expect(crd.metadata.annotations['helm.sh/resource-policy']).toBe('keep');
    });

    it("admits a Pod of the Deployment's template under the restricted profile", async () => {
      expect(await admittedPodOf('op-docsnap')).toBe(true);
    });

    it("runs the core flow with the chart's ServiceAccount: a StaticExport Ready, its Secret target written", {
      timeout: 60_000,
    }, async () => {
      const log = new LogCapture();
      const manager = await startManager({
        kubeConfig: await chartIdentity('op'),
        log: createLogger({ level: 'debug', destination: log }),
        namespaces: [watched.namespace],
        leaderElection: { namespace: system },
        listen: false,
      });
      managers.push(manager);
      await staticExport(watched);
      await watched.waitFor('docs', isReady);
      expect(
        parse((await watched.secretValue('docs-values', 'values.yaml')) ?? '').staticExport.enabled,
      ).toBe(true);
      expect(log.text).not.toMatch(/forbidden/i);
    });

    it('installed for one namespace, acts there and is refused elsewhere', { timeout: 60_000 }, async () => {
      const result = await helmIn(['install', 'scoped', chart], {
        crds: { enabled: false },
        watchNamespaces: [scopedDocs.namespace],
        replicaCount: 1,
      });
      expect(result.code, result.stderr).toBe(0);
      const identity = await chartIdentity('scoped');
      const manager = await startManager({
        kubeConfig: identity,
        log: createLogger({ level: 'warn' }),
        namespaces: [scopedDocs.namespace],
        leaderElection: { namespace: system, name: 'docsnap-scoped' },
        listen: false,
      });
      managers.push(manager);
      await staticExport(scopedDocs);
      await scopedDocs.waitFor('docs', isReady);
      await expect(
        identity.makeApiClient(CoreV1Api).listNamespacedSecret({ namespace: watched.namespace }),
      ).rejects.toMatchObject({ code: 403 });
    });

    it('installs the Admin API part: every object accepted, its pod admitted under the restricted profile', async () => {
      await core.createNamespacedSecret({
        namespace: system,
        body: {
          metadata: { name: 'api-config' },
          stringData: { 'config.yaml': 'server: { host: 0.0.0.0, port: 8080 }\n' },
        },
      });
      const result = await helmIn(['install', 'withapi', chart], {
        crds: { enabled: false },
        replicaCount: 1,
        api: {
          enabled: true,
          config: { existingSecret: 'api-config' },
          persistence: { enabled: true, size: '1Gi' },
          ingress: { enabled: true, host: 'api.docs.example.com' },
        },
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).not.toMatch(/PodSecurity/);
      await core.readNamespacedPersistentVolumeClaim({ namespace: system, name: 'withapi-docsnap-api' });
      expect(await admittedPodOf('withapi-docsnap-api')).toBe(true);
    });
  },
);
