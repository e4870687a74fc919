import { join } from 'node:path';
import type { CustomObjectsApi } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createLogger } from '../../src/api/logging.ts';
import {
  SECRET_ACCESS_LABEL,
  type StaticExport,
  type TargetStatus,
} from '../../src/contract/static-export.ts';
import { type RunningController, startController } from '../../src/operator/controller.ts';
import { ARGO_CD_APPLICATION, FLUX_HELM_RELEASE } from '../../src/operator/targets/gitops-targets.ts';
import { writeTarget } from '../../src/operator/targets/object-targets.ts';
import { download, LogCapture, startTestApi, type TestApi } from '../api/helpers.ts';
import { Cluster, REPO } from './helpers.ts';

// biome-ignore lint/suspicious/noExplicitAny: objects read back are asserted field by field
type Json = Record<string, any>;

const connection = inject('kube');
const cluster = new Cluster(connection, 'sx-gitops');
const FIXTURES = join(REPO, 'test/operator/fixtures');
let api: TestApi;
let operator: RunningController;
const operatorLog = new LogCapture();

const spec = (targets: unknown[], overrides: Record<string, unknown> = {}) => ({
  domain: 'docs.acme.test',
  version: 'v1',
  exporter: { api: { url: api.url, adminKeySecretRef: { name: 'admin-key', key: 'key' } } },
  targets,
  pollInterval: '300ms',
  ...overrides,
});

const isReady = (r: StaticExport) =>
  r.status?.phase === 'Ready' && r.status.observedGeneration === r.metadata.generation;
const targetsSynced = (r: StaticExport) => r.status?.conditions?.find((c) => c.type === 'TargetsSynced');
const isSynced = (r: StaticExport) => isReady(r) && targetsSynced(r)?.status === 'True';
const failedTargets = (r: StaticExport) => targetsSynced(r)?.status === 'False';
/** The bundle is made but a target did not take its link: not Ready, and the phase says so too. */
const targetRefused = (r: StaticExport) =>
  failedTargets(r) &&
  r.status?.phase === 'Failed' &&
  r.status.conditions?.find((c) => c.type === 'Ready')?.reason === 'TargetWriteFailed';

const coordinates = (which: typeof ARGO_CD_APPLICATION, name: string) => ({
  group: which.group,
  version: which.version,
  plural: which.plural,
  namespace: cluster.namespace,
  name,
});

async function createApplication(name: string, appSpec: Json): Promise<Json> {
  const { name: _, ...where } = coordinates(ARGO_CD_APPLICATION, name);
  return cluster.custom.createNamespacedCustomObject({
    ...where,
    body: { apiVersion: 'argoproj.io/v1alpha1', kind: 'Application', metadata: { name }, spec: appSpec },
  });
}

async function createHelmRelease(name: string, releaseSpec: Json): Promise<Json> {
  const { name: _, ...where } = coordinates(FLUX_HELM_RELEASE, name);
  return cluster.custom.createNamespacedCustomObject({
    ...where,
    body: {
      apiVersion: 'helm.toolkit.fluxcd.io/v2',
      kind: 'HelmRelease',
      metadata: { name },
      spec: releaseSpec,
    },
  });
}

const getApplication = (name: string): Promise<Json> =>
  cluster.custom.getNamespacedCustomObject(coordinates(ARGO_CD_APPLICATION, name));
const getHelmRelease = (name: string): Promise<Json> =>
  cluster.custom.getNamespacedCustomObject(coordinates(FLUX_HELM_RELEASE, name));

/** An object as read, less what every write changes by itself. */
function comparable(object: Json): Json {
  const copy = structuredClone(object);
  delete copy.metadata.resourceVersion;
  delete copy.metadata.generation;
  delete copy.metadata.managedFields;
  return copy;
}

/** Checks that the bundle link in `values` downloads, and appears nowhere in status, events or log. */
async function expectLinkOnlyInTarget(values: Json | undefined, name: string): Promise<void> {
  expect(values?.bundleUrl).toMatch(/^https?:\/\//);
  await download(values?.bundleUrl);
  const url = new URL(values?.bundleUrl);
  const secretPart = url.pathname + url.search;
  for (const text of [
    JSON.stringify(await cluster.get(name)),
    JSON.stringify(await cluster.events(name)),
    operatorLog.text,
  ]) {
    expect(text).not.toContain(secretPart);
    expect(text).not.toMatch(/signature=/i);
  }
}

const helmChart = (extra: Json = {}) => ({
  repoURL: 'https://charts.example.com',
  chart: 'docs-site',
  targetRevision: '1.2.0',
  ...extra,
});
const appSpec = (sources: Json) => ({
  project: 'default',
  destination: { server: 'https://kubernetes.default.svc', namespace: 'docs' },
  ...sources,
  syncPolicy: { automated: { prune: true, selfHeal: true }, syncOptions: ['CreateNamespace=true'] },
});

beforeAll(async () => {
  api = await startTestApi('links: { lifetime: 30s }\nexports: { concurrency: 4 }');
  await cluster.installCrd();
  await cluster.createSecret('admin-key', { key: api.keys.acme });
  operator = await startController({
    kubeConfig: cluster.kubeConfig,
    log: createLogger({ level: 'debug', destination: operatorLog }),
    namespaces: [cluster.namespace],
    settings: { failureBackoffMs: 1_000, maxFailureBackoffMs: 2_000, renewJitterMs: 1_000 },
  });
});

afterAll(async () => {
  await operator?.stop();
  await api?.close();
});

describe('GitOps targets against a real kube-apiserver', () => {
  it('reports an Argo CD API the cluster does not serve', async (context) => {
    // The CRDs are cluster-wide: a run against a server that already has them cannot check this.
    if (await cluster.crdExists('applications.argoproj.io')) context.skip();
    await cluster.create('no-api', spec([{ argoCDApplication: { name: 'site' } }]));
    const failed = await cluster.waitFor('no-api', targetRefused);
    expect(targetsSynced(failed)?.message).toBe(
      'the Argo CD Application API (argoproj.io/v1alpha1) is not served by this cluster',
    );
    await cluster.custom.deleteNamespacedCustomObject({
      group: 'docsnap.dev',
      version: 'v1alpha1',
      plural: 'staticexports',
      namespace: cluster.namespace,
      name: 'no-api',
    });
  });

  describe('with the Argo CD and Flux CRDs installed', () => {
    beforeAll(async () => {
      await cluster.applyCrd(join(FIXTURES, 'applications.argoproj.io.yaml'), 'applications.argoproj.io');
      await cluster.applyCrd(
        join(FIXTURES, 'helmreleases.helm.toolkit.fluxcd.io.yaml'),
        'helmreleases.helm.toolkit.fluxcd.io',
      );
    });

    it('writes a single-source Application: only spec.source.helm.valuesObject.staticExport changes', async () => {
      const before = await createApplication(
        'site',
        appSpec({
          source: helmChart({
            helm: {
              releaseName: 'docs',
              // Argo CD gives valuesObject precedence over this string: docsnap leaves it alone.
              values: 'staticExport:\n  enabled: false\nreplicas: 2\n',
              valuesObject: { replicas: 3, staticExport: { enabled: false, path: '/docs' } },
              parameters: [{ name: 'image.tag', value: '1.4' }],
            },
          }),
        }),
      );
      await cluster.create('app-single', spec([{ argoCDApplication: { name: 'site' } }]));
      const ready = await cluster.waitFor('app-single', isSynced);
      expect(ready.status?.targets).toEqual([
        {
          kind: 'Application',
          name: 'site',
          key: 'spec.source.helm.valuesObject',
          syncedAt: expect.any(String),
        } satisfies TargetStatus,
      ]);

      const after = await getApplication('site');
      const written = after.spec.source.helm.valuesObject.staticExport;
      expect(written).toEqual({ enabled: true, path: '/docs', bundleUrl: expect.any(String), version: 'v1' });
      const expected = comparable(before);
      expected.spec.source.helm.valuesObject.staticExport = written;
      expect(comparable(after)).toEqual(expected);
      await expectLinkOnlyInTarget(written, 'app-single');

      // Nothing new to write: the Application is left as it is.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect((await getApplication('site')).metadata.resourceVersion).toBe(after.metadata.resourceVersion);
    });

    it('writes the source a selector picks in a multi-source Application, by name and by chart', async () => {
      const before = await createApplication(
        'multi',
        appSpec({
          sources: [
            { repoURL: 'https://git.example.com/values.git', targetRevision: 'main', ref: 'values' },
            helmChart({
              name: 'docs',
              helm: { valueFiles: ['$values/docs/values.yaml'], valuesObject: { replicas: 2 } },
            }),
            helmChart({ name: 'search', chart: 'search', targetRevision: '0.3.0' }),
          ],
        }),
      );
      await cluster.create(
        'multi-name',
        spec([{ argoCDApplication: { name: 'multi', source: { name: 'search' } } }]),
      );
      const byName = await cluster.waitFor('multi-name', isSynced);
      expect(byName.status?.targets?.[0]?.key).toBe('spec.sources[2].helm.valuesObject');
      const afterName = await getApplication('multi');
      const search = afterName.spec.sources[2].helm;
      expect(search).toEqual({
        valuesObject: { staticExport: { enabled: true, bundleUrl: expect.any(String), version: 'v1' } },
      });
      const expected = comparable(before);
      expected.spec.sources[2].helm = search;
      expect(comparable(afterName)).toEqual(expected);

      await cluster.create(
        'multi-chart',
        spec([{ argoCDApplication: { name: 'multi', source: { chart: 'docs-site' } } }], { version: 'v2' }),
      );
      const byChart = await cluster.waitFor('multi-chart', isSynced);
      expect(byChart.status?.targets?.[0]?.key).toBe('spec.sources[1].helm.valuesObject');
      const afterChart = await getApplication('multi');
      const docs = afterChart.spec.sources[1].helm;
      expect(docs).toEqual({
        valueFiles: ['$values/docs/values.yaml'],
        valuesObject: {
          replicas: 2,
          staticExport: { enabled: true, bundleUrl: expect.any(String), version: 'v2' },
        },
      });
      expected.spec.sources[1].helm = docs;
      expected.spec.sources[2].helm = afterChart.spec.sources[2].helm; // multi-name may have refreshed it
      expect(comparable(afterChart)).toEqual(expected);
      expect(afterChart.spec.sources[2].helm.valuesObject.staticExport.version).toBe('v1');
      await expectLinkOnlyInTarget(docs.valuesObject.staticExport, 'multi-chart');
    });

    it('refuses an ambiguous, missing or absent selector with a message naming the Application', async () => {
      await createApplication(
        'two-charts',
        appSpec({ sources: [helmChart({ name: 'docs' }), helmChart({ name: 'api', chart: 'api-docs' })] }),
      );
      // Values only in the helm.values string: a valuesObject beside it would make Argo CD drop them.
      await createApplication(
        'values-string',
        appSpec({ source: helmChart({ helm: { values: 'replicas: 2\n' } }) }),
      );
      const before = await Promise.all([getApplication('two-charts'), getApplication('values-string')]);
      await cluster.create(
        'app-refused',
        spec([
          { argoCDApplication: { name: 'two-charts', source: { repoURL: 'https://charts.example.com' } } },
          { argoCDApplication: { name: 'two-charts', source: { name: 'nope' } } },
          { argoCDApplication: { name: 'two-charts' } },
          { argoCDApplication: { name: 'values-string' } },
        ]),
      );
      const failed = await cluster.waitFor('app-refused', targetRefused);
      expect(failed.status?.targets?.map((t) => t.error)).toEqual([
        expect.stringMatching(
          /^Application two-charts: 2 sources match repoURL="https:\/\/charts.example.com" \(spec.sources\[0\] name=docs .*spec.sources\[1\] name=api /,
        ),
        expect.stringMatching(
          /^Application two-charts: no source matches name="nope" \(sources: spec.sources\[0\]/,
        ),
        expect.stringMatching(
          /^Application two-charts has 2 sources, 2 of them Helm sources .*; set argoCDApplication.source/,
        ),
        expect.stringMatching(/^Application values-string spec.source.helm has values but no valuesObject/),
      ]);
      expect(targetsSynced(failed)).toMatchObject({ reason: 'TargetWriteFailed' });
      expect(targetsSynced(failed)?.message).toContain('Application two-charts');
      const events = await cluster.eventsOnce('app-refused', (e) => e.reason === 'TargetWriteFailed');
      expect(events.find((e) => e.reason === 'TargetWriteFailed')?.message).toContain(
        'Application two-charts',
      );
      const after = await Promise.all([getApplication('two-charts'), getApplication('values-string')]);
      expect(after.map((a) => a.metadata.resourceVersion)).toEqual(
        before.map((b) => b.metadata.resourceVersion),
      );
    });

    it('reports a missing Application or HelmRelease, and creates neither', async () => {
      await cluster.create(
        'missing',
        spec([{ argoCDApplication: { name: 'ghost' } }, { fluxHelmRelease: { name: 'ghost' } }]),
      );
      const failed = await cluster.waitFor('missing', targetRefused);
      expect(failed.status?.targets?.map((t) => t.error)).toEqual([
        'Application ghost not found in namespace sx-gitops',
        'HelmRelease ghost not found in namespace sx-gitops',
      ]);
      expect(targetsSynced(failed)?.message).toBe(
        'Application ghost not found in namespace sx-gitops; HelmRelease ghost not found in namespace sx-gitops',
      );
      for (const get of [getApplication, getHelmRelease])
        await expect(get('ghost')).rejects.toMatchObject({ code: 404 });
    });

    it('writes a HelmRelease: only spec.values.staticExport changes, other values kept', async () => {
      const before = await createHelmRelease('site', {
        interval: '10m',
        chart: {
          spec: {
            chart: 'docs-site',
            version: '1.2.0',
            sourceRef: { kind: 'HelmRepository', name: 'charts' },
          },
        },
        values: { replicas: 2, image: { tag: '1.4' }, staticExport: { enabled: false, path: '/docs' } },
        valuesFrom: [{ kind: 'ConfigMap', name: 'shared-values', valuesKey: 'values.yaml' }],
      });
      await cluster.create('release', spec([{ fluxHelmRelease: { name: 'site' } }]));
      const ready = await cluster.waitFor('release', isSynced);
      expect(ready.status?.targets).toEqual([
        { kind: 'HelmRelease', name: 'site', key: 'spec.values', syncedAt: expect.any(String) },
      ]);
      const after = await getHelmRelease('site');
      const written = after.spec.values.staticExport;
      expect(written).toEqual({ enabled: true, path: '/docs', bundleUrl: expect.any(String), version: 'v1' });
      const expected = comparable(before);
      expected.spec.values.staticExport = written;
      expect(comparable(after)).toEqual(expected);
      await expectLinkOnlyInTarget(written, 'release');
    });

    it('refreshes the link in an Application before it expires', async () => {
      await createApplication('refreshed', appSpec({ source: helmChart() }));
      // Links last 30 s; renewing 25 s before expiry means a fresh link about every 5 s.
      await cluster.create(
        'app-refresh',
        spec([{ argoCDApplication: { name: 'refreshed' } }], { bundle: { renewBefore: '25s' } }),
      );
      const ready = await cluster.waitFor('app-refresh', isSynced);
      const linkOf = async () =>
        (await getApplication('refreshed')).spec.source.helm.valuesObject.staticExport.bundleUrl as string;
      const first = await linkOf();
      let second = first;
      const deadline = Date.now() + 20_000;
      while (second === first && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        second = await linkOf();
      }
      expect(second).not.toBe(first);
      const refreshed = await cluster.get('app-refresh');
      expect(refreshed.status?.jobId).toBe(ready.status?.jobId); // the same job, a fresh link
      const refreshEvents = await cluster.eventsOnce('app-refresh', (e) => e.reason === 'LinkRefreshed');
      expect(refreshEvents.map((e) => e.reason)).toContain('LinkRefreshed');
      await expectLinkOnlyInTarget({ bundleUrl: second }, 'app-refresh');
    });

    it('retries a write that lost a race, on a fresh read, and makes no write when nothing changed', async () => {
      await createApplication('raced', appSpec({ source: helmChart() }));
      const owner = { metadata: { namespace: cluster.namespace } } as StaticExport;
      const values = {
        enabled: true,
        bundleUrl: 'https://bundles.example.com/b.tar.gz?sig=1',
        version: 'v9',
      };
      // Another writer (Argo CD, a person) changes the Application between docsnap's read and write.
      let replaces = 0;
      const racing = {
        getNamespacedCustomObject: (params: never) => cluster.custom.getNamespacedCustomObject(params),
        replaceNamespacedCustomObject: async (params: never) => {
          replaces++;
          if (replaces === 1)
            await cluster.kubectl(
              '-n',
              cluster.namespace,
              'annotate',
              'applications.argoproj.io',
              'raced',
              'team=docs',
            );
          return cluster.custom.replaceNamespacedCustomObject(params);
        },
      } as unknown as CustomObjectsApi;
      const target = { argoCDApplication: { name: 'raced' } };
      const status = await writeTarget({ core: cluster.core, custom: racing }, owner, target, values);
      expect(status).toEqual({
        kind: 'Application',
        name: 'raced',
        key: 'spec.source.helm.valuesObject',
        syncedAt: expect.any(String),
      });
      expect(replaces).toBe(2); // 409 on the first, success on a fresh read
      const written = await getApplication('raced');
      expect(written.metadata.annotations).toEqual({ team: 'docs' }); // the other writer's change kept
      expect(written.spec.source.helm.valuesObject).toEqual({ staticExport: values });

      const again = await writeTarget({ core: cluster.core, custom: racing }, owner, target, values);
      expect(again.error).toBeUndefined();
      expect(replaces).toBe(2);
      expect((await getApplication('raced')).metadata.resourceVersion).toBe(written.metadata.resourceVersion);
    });

    it('updates a Secret missing from its cache: the create answers 409, the next attempt reads it', async () => {
      await cluster.core.createNamespacedSecret({
        namespace: cluster.namespace,
        body: {
          metadata: { name: 'uncached-values', labels: { team: 'docs', [SECRET_ACCESS_LABEL]: 'uncached' } },
          stringData: { 'values.yaml': 'replicas: 2\n', other: 'kept' },
        },
      });
      const owner = {
        apiVersion: 'docsnap.dev/v1alpha1',
        kind: 'StaticExport',
        metadata: {
          namespace: cluster.namespace,
          name: 'uncached',
          uid: '00000000-0000-4000-8000-000000000001',
        },
      } as StaticExport;
      const values = {
        enabled: true,
        bundleUrl: 'https://bundles.example.com/c.tar.gz?sig=2',
        version: 'v3',
      };
      const status = await writeTarget(
        { core: cluster.core, custom: cluster.custom, cachedSecret: () => undefined },
        owner,
        { secret: { name: 'uncached-values', key: 'values.yaml' } },
        values,
      );
      expect(status).toEqual({
        kind: 'Secret',
        name: 'uncached-values',
        key: 'values.yaml',
        syncedAt: expect.any(String),
      });
      const secret = await cluster.core.readNamespacedSecret({
        namespace: cluster.namespace,
        name: 'uncached-values',
      });
      const text = (key: string) => Buffer.from(secret.data?.[key] ?? '', 'base64').toString('utf8');
      expect(text('other')).toBe('kept');
      expect(text('values.yaml')).toContain('replicas: 2');
      expect(text('values.yaml')).toContain('bundleUrl: https://bundles.example.com/c.tar.gz?sig=2');
      // Updated in place, never adopted: no owner reference, the labels it had.
      expect(secret.metadata?.ownerReferences).toBeUndefined();
      expect(secret.metadata?.labels).toEqual({ team: 'docs', [SECRET_ACCESS_LABEL]: 'uncached' });
    });
  });
});
