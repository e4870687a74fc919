import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  ApiextensionsV1Api,
  AppsV1Api,
  CoordinationV1Api,
  CoreV1Api,
  type KubeConfig,
  PolicyV1Api,
  RbacAuthorizationV1Api,
} from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECRET_ACCESS_ANNOTATION, SECRET_ACCESS_LABEL } from '../../src/contract/static-export.ts';
import { kubeConfigFor } from '../../tools/local/control-plane.ts';
import { locateTestServers } from '../../tools/local/processes.ts';
import { writeSyntheticSite } from '../../tools/synthetic-site.ts';
import { GitServer } from '../harness/git-server.ts';
import { chartHelm, locateHelm, repoRoot } from '../harness/helm.ts';
import { DOCSNAP_IMAGE, nodeImages } from '../harness/node-images.ts';
import { CLUSTER_NETWORK, RealCluster } from '../harness/real-cluster.ts';
import { NODE_NAME, nodePreflight } from '../harness/real-node.ts';
import { createBucket, S3Server } from '../harness/s3.ts';
import {
  type FreshnessRun,
  get,
  isReady,
  Load,
  podIdentities,
  releasePods,
  staticExports,
  summary,
  until,
} from './delivery.ts';

/**
 * The whole loop on a real single-node cluster (test/harness/real-cluster.ts): the project's
 * image built and imported without a registry, charts/docsnap (the operator, embedded exporter,
 * two replicas) and charts/docsnap-site installed with helm into restricted namespaces, a docs
 * repository on a git server and bundles in versitygw, both on the host and reached by pods at
 * the bridge address. Every figure the scenario measures is printed as `[e2e] …`.
 */

const run = promisify(execFile);
const unable = nodePreflight();
if (unable) console.warn(`[e2e] the real-cluster tests are skipped: ${unable}`);

const OPERATOR_NS = 'docsnap-system';
const SITE_NS = 'docs';
const BUCKET = 'bundles';
/** Short links, so a refresh happens within the test (renewBefore defaults to a third: every ~2 min). */
const LINK_LIFETIME = '3m';
const LARGE_PAGES = 1000;

const work = mkdtempSync(join(tmpdir(), 'docsnap-e2e-'));
let cluster: RealCluster | undefined;
let git: GitServer | undefined;
let s3: S3Server | undefined;
let helmBinary = '';
let kubeConfig: KubeConfig;
let core: CoreV1Api;
const figures: string[] = [];

function report(line: string): void {
  figures.push(line);
  console.log(`[e2e] ${line}`);
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

beforeAll(async () => {
  if (unable) return;
  const helmTools = await locateHelm();
  if ('missing' in helmTools) throw new Error(helmTools.missing);
  helmBinary = helmTools.helm;
  const build = await run('bash', [join(repoRoot, 'tools/envtest/build.sh'), '--node'], {
    maxBuffer: 64 * 1024 * 1024,
  });
  const binDir = /^ENVTEST_DIR=(.*)$/m.exec(build.stdout)?.[1] as string;
  const { s3Dir } = locateTestServers(repoRoot, { quiet: true });
  let since = Date.now();
  const images = await nodeImages(work);
  report(`images built and exported: ${seconds(Date.now() - since)}`);
  since = Date.now();
  cluster = await RealCluster.start(binDir, join(work, 'cluster'), images);
  const { controlPlaneMs, controllersMs, nodeMs } = cluster.timings;
  report(
    `cluster start: ${seconds(Date.now() - since)} (control plane ${seconds(controlPlaneMs)}, controllers ${seconds(controllersMs)}, node Ready ${seconds(nodeMs)})`,
  );
  kubeConfig = kubeConfigFor(cluster.controlPlane.connection);
  core = kubeConfig.makeApiClient(CoreV1Api);
  [git, s3] = await Promise.all([
    GitServer.start({ host: CLUSTER_NETWORK.address }),
    S3Server.start(s3Dir, CLUSTER_NETWORK.address),
  ]);
  await createBucket(s3.connection, BUCKET);
}, 1_800_000);

afterAll(async () => {
  await cluster?.stop();
  await git?.stop();
  await s3?.stop();
  rmSync(work, { recursive: true, force: true });
  if (figures.length) console.log(`[e2e] figures:\n${figures.map((f) => `  ${f}`).join('\n')}`);
}, 300_000);

/** A namespace that enforces the restricted Pod Security Standard. */
async function restrictedNamespace(name: string): Promise<void> {
  await core.createNamespace({
    body: {
      metadata: {
        name,
        labels: {
          'pod-security.kubernetes.io/enforce': 'restricted',
          'pod-security.kubernetes.io/enforce-version': 'latest',
        },
      },
    },
  });
}

function helmFor(chart: string, release: string, namespace: string) {
  const kubeconfig = (cluster as RealCluster).controlPlane.connection.kubeconfigPath;
  const chartDir = join(repoRoot, 'charts', chart);
  const tools = chartHelm(helmBinary, join(work, `helm-${release}`), chartDir, release, namespace);
  mkdirSync(join(work, `helm-${release}`), { recursive: true });
  return {
    async install(values: object, wait: boolean): Promise<void> {
      const args = ['install', release, chartDir, '--kubeconfig', kubeconfig, '--namespace', namespace];
      const result = await tools.runHelm([
        ...args,
        '--values',
        tools.valuesFile(values),
        ...(wait ? ['--wait', '--timeout', '5m'] : []),
      ]);
      if (result.code !== 0) throw new Error(`helm install ${release}: ${result.stderr}`);
    },
    async uninstall(): Promise<void> {
      const result = await tools.runHelm([
        'uninstall',
        release,
        '--kubeconfig',
        kubeconfig,
        '--namespace',
        namespace,
        '--wait',
        '--timeout',
        '3m',
      ]);
      if (result.code !== 0) throw new Error(`helm uninstall ${release}: ${result.stderr}`);
    },
  };
}

const image = { repository: DOCSNAP_IMAGE.repository, tag: DOCSNAP_IMAGE.tag, pullPolicy: 'Never' };

/** A site served by charts/docsnap-site from the values Secret its StaticExport writes. */
interface Site {
  release: string;
  repo: string;
  /** A page to change: its file in the repository and its path on the site. */
  page: { file: string; path: string };
  values: string;
}

const docsSite: Site = {
  release: 'docs-site',
  repo: 'docs',
  page: { file: 'introduction.mdx', path: '/introduction' },
  values: 'docs-values',
};
const largeSite: Site = {
  release: 'large-site',
  repo: 'large',
  page: { file: '', path: '' },
  values: 'large-values',
};

function staticExport(site: Site): object {
  const { url } = git as GitServer;
  const { endpoint } = (s3 as S3Server).connection;
  return {
    apiVersion: 'docsnap.dev/v1alpha1',
    kind: 'StaticExport',
    metadata: { name: site.repo, namespace: SITE_NS },
    spec: {
      domain: `${site.repo}.example.com`,
      exporter: {
        embedded: {
          source: { git: { url: `${url}/${site.repo}.git`, ref: 'main' } },
          storage: { s3: { endpoint, bucket: BUCKET, credentialsSecretRef: { name: 'bundle-store' } } },
          linkLifetime: LINK_LIFETIME,
        },
      },
      targets: [{ secret: { name: site.values } }],
    },
  };
}

async function serviceUrl(site: Site): Promise<string> {
  const service = await core.readNamespacedService({ namespace: SITE_NS, name: site.release });
  return `http://${service.spec?.clusterIP}:${service.spec?.ports?.[0]?.port}`;
}

/** The values the operator wrote for a site, as the site reads them. */
async function targetValues(site: Site): Promise<string> {
  const secret = await core
    .readNamespacedSecret({ namespace: SITE_NS, name: site.values })
    .catch(() => undefined);
  const encoded = secret?.data?.['values.yaml'];
  return encoded ? Buffer.from(encoded, 'base64').toString('utf8') : '';
}

/**
 * Commits a change to one page and measures until the site's Service answers with it: the
 * operator's source poll, the export in the operator pod, the target write, the site's swap.
 */
async function freshness(site: Site): Promise<FreshnessRun> {
  const sx = staticExports(kubeConfig);
  const marker = `Freshness marker ${Math.random().toString(36).slice(2, 10)}`;
  const before = (await sx.status(SITE_NS, site.repo)).jobId;
  const valuesBefore = await targetValues(site);
  const url = `${await serviceUrl(site)}${site.page.path}`;
  const original = (git as GitServer).readFile(site.repo, site.page.file);
  const pushed = Date.now();
  (git as GitServer).commit(site.repo, { [site.page.file]: `${original}\n\n${marker}\n` }, marker);
  const at: { started?: number; written?: number } = {};
  const served = await until(
    `${site.release} serving the commit "${marker}"`,
    async () => {
      if (at.started === undefined && (await sx.status(SITE_NS, site.repo)).jobId !== before)
        at.started = Date.now();
      if (at.written === undefined && (await targetValues(site)) !== valuesBefore) at.written = Date.now();
      const answer = await get(url).catch(() => undefined);
      return answer?.body.includes(marker) ? Date.now() : undefined;
    },
    {
      timeoutMs: 300_000,
      intervalMs: 100,
      state: async () => JSON.stringify(await sx.status(SITE_NS, site.repo)),
    },
  );
  const started = at.started ?? served;
  const written = at.written ?? served;
  if (served - written > 15_000)
    for (const pod of await releasePods(core, SITE_NS, site.release))
      console.log(
        `[e2e] ${site.release}: a slow swap; ${pod.metadata?.name} logged:\n${cluster?.node.podLogTail(SITE_NS, pod.metadata?.name as string)}`,
      );
  return {
    totalMs: served - pushed,
    detectMs: started - pushed,
    exportMs: written - started,
    swapMs: served - written,
  };
}

function reportFreshness(name: string, runs: FreshnessRun[]): void {
  const part = (key: keyof FreshnessRun) => summary(runs.map((r) => r[key]));
  report(`freshness ${name}: ${part('totalMs')}`);
  report(`  source poll: ${part('detectMs')}`);
  report(`  export, upload, link, target write: ${part('exportMs')}`);
  report(`  site watch, download, verify, swap: ${part('swapMs')}`);
}

describe.skipIf(unable !== undefined)(`a real cluster${unable ? ` (skipped: ${unable})` : ''}`, () => {
  it('runs the image as a restricted pod: docsnap --version exits 0', async () => {
    await restrictedNamespace('smoke');
    await core.createNamespacedPod({
      namespace: 'smoke',
      body: {
        metadata: { name: 'docsnap-version' },
        spec: {
          nodeName: NODE_NAME,
          restartPolicy: 'Never',
          automountServiceAccountToken: false,
          securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
          containers: [
            {
              name: 'docsnap',
              image: `${DOCSNAP_IMAGE.repository}:${DOCSNAP_IMAGE.tag}`,
              imagePullPolicy: 'Never',
              args: ['--version'],
              securityContext: {
                readOnlyRootFilesystem: true,
                allowPrivilegeEscalation: false,
                capabilities: { drop: ['ALL'] },
              },
            },
          ],
        },
      },
    });
    const pod = await until(
      'the version pod to finish',
      async () => {
        const found = await core.readNamespacedPod({ namespace: 'smoke', name: 'docsnap-version' });
        return ['Succeeded', 'Failed'].includes(found.status?.phase ?? '') ? found : undefined;
      },
      { timeoutMs: 120_000 },
    );
    expect(pod.status?.phase).toBe('Succeeded');
    expect(pod.status?.containerStatuses?.[0]?.state?.terminated?.exitCode).toBe(0);
  });

  it('installs both charts into restricted namespaces and delivers the first export', {
    timeout: 600_000,
  }, async () => {
    (git as GitServer).createRepo(docsSite.repo, join(repoRoot, 'examples/docs-site'));
    const large = writeSyntheticSite(join(work, 'large-source'), { pages: LARGE_PAGES });
    (git as GitServer).createRepo(largeSite.repo, join(work, 'large-source'));
    const page = large.pages.find((p) => !p.operation) ?? large.pages[0];
    largeSite.page = { file: `${page?.path}.mdx`, path: `/${page?.path}` };

    await restrictedNamespace(OPERATOR_NS);
    await restrictedNamespace(SITE_NS);
    const installed = Date.now();
    await helmFor('docsnap', 'docsnap', OPERATOR_NS).install(
      {
        image,
        operator: { exportMemoryLimitMiB: 1024 },
        // Two embedded exports at once, each up to 1 GiB, over the operator's own heap.
        resources: { requests: { cpu: '50m', memory: '192Mi' }, limits: { memory: '2560Mi' } },
      },
      true,
    );
    report(`helm install docsnap --wait: ${seconds(Date.now() - installed)}`);
    for (const site of [docsSite, largeSite])
      await helmFor('docsnap-site', site.release, SITE_NS).install(
        {
          fullnameOverride: site.release,
          image,
          staticExport: { existingSecret: { name: site.values } },
          server: { watchValuesSecret: true },
        },
        false,
      );

    const { accessKeyId, secretAccessKey } = (s3 as S3Server).connection;
    await core.createNamespacedSecret({
      namespace: SITE_NS,
      // Shared by the two StaticExports of the namespace: labelled, and listing them.
      body: {
        metadata: {
          name: 'bundle-store',
          labels: { [SECRET_ACCESS_LABEL]: 'shared' },
          annotations: { [SECRET_ACCESS_ANNOTATION]: '*' },
        },
        stringData: { accessKeyId, secretAccessKey },
      },
    });
    const sx = staticExports(kubeConfig);
    for (const site of [docsSite, largeSite]) await sx.create(SITE_NS, staticExport(site));

    // One operator pod holds the Lease.
    const coordination = kubeConfig.makeApiClient(CoordinationV1Api);
    const operatorPods = await releasePods(core, OPERATOR_NS, 'docsnap');
    expect(operatorPods).toHaveLength(2);
    const holder = await until('an operator pod to hold the Lease', async () => {
      const lease = await coordination.readNamespacedLease({
        namespace: OPERATOR_NS,
        name: 'docsnap-operator',
      });
      return lease.spec?.holderIdentity?.split('_')[0];
    });
    expect(operatorPods.map((p) => p.metadata?.name)).toContain(holder);

    const ready = await until(
      'the docs StaticExport Ready',
      async () => {
        const status = await sx.status(SITE_NS, docsSite.repo);
        return status.phase === 'Ready' ? status : undefined;
      },
      { timeoutMs: 300_000, state: async () => JSON.stringify(await sx.status(SITE_NS, docsSite.repo)) },
    );
    report(`helm install → first StaticExport Ready: ${seconds(Date.now() - installed)}`);
    expect(ready.pageCount).toBeGreaterThan(5);

    // The site pods become ready only once they have fetched and verified the bundle.
    const secret = await core.readNamespacedSecret({ namespace: SITE_NS, name: docsSite.values });
    const written = new Date(secret.metadata?.creationTimestamp as Date).getTime();
    const sitePods = await until('both docs-site pods ready', async () => {
      const pods = await releasePods(core, SITE_NS, docsSite.release);
      return pods.length === 2 && pods.every(isReady) ? pods : undefined;
    });
    for (const pod of sitePods) {
      const readySince = pod.status?.conditions?.find((c) => c.type === 'Ready')?.lastTransitionTime;
      expect(new Date(readySince as Date).getTime()).toBeGreaterThanOrEqual(written - 1_000);
    }
    report(`site pods ready after the values Secret was written: ${seconds(Date.now() - written)} (at most)`);

    const index = await get(`${await serviceUrl(docsSite)}/`);
    expect(index.status).toBe(200);
    const title = JSON.parse(readFileSync(join(repoRoot, 'examples/docs-site/docs.json'), 'utf8')).name;
    expect(index.body).toContain(title);
  });

  it('serves a pushed commit: end-to-end freshness of the example site, three runs', {
    timeout: 900_000,
  }, async () => {
    const runs: FreshnessRun[] = [];
    for (let i = 0; i < 3; i++) runs.push(await freshness(docsSite));
    reportFreshness('examples/docs-site', runs);
  });

  it(`serves a pushed commit: end-to-end freshness of a ${LARGE_PAGES}-page site, three runs`, {
    timeout: 1_500_000,
  }, async () => {
    const sx = staticExports(kubeConfig);
    const ready = await until(
      'the large StaticExport Ready',
      async () => {
        const status = await sx.status(SITE_NS, largeSite.repo);
        return status.phase === 'Ready' ? status : undefined;
      },
      { timeoutMs: 600_000 },
    );
    expect(ready.pageCount).toBeGreaterThanOrEqual(LARGE_PAGES);
    await until('both large-site pods ready', async () => {
      const pods = await releasePods(core, SITE_NS, largeSite.release);
      return pods.length === 2 && pods.every(isReady) ? pods : undefined;
    });
    const runs: FreshnessRun[] = [];
    for (let i = 0; i < 3; i++) runs.push(await freshness(largeSite));
    reportFreshness(`${LARGE_PAGES}-page site`, runs);
  });

  it('refreshes the link without restarting the site pods, which keep serving', {
    timeout: 300_000,
  }, async () => {
    const sx = staticExports(kubeConfig);
    const before = await sx.status(SITE_NS, docsSite.repo);
    const pods = podIdentities(await releasePods(core, SITE_NS, docsSite.release));
    const valuesBefore = await targetValues(docsSite);
    const load = new Load(`${await serviceUrl(docsSite)}/`, 4);
    const refreshed = await until(
      'a link refresh of the same bundle',
      async () => {
        const status = await sx.status(SITE_NS, docsSite.repo);
        return status.bundle?.jobId === before.bundle?.jobId &&
          status.bundle?.expiresAt !== before.bundle?.expiresAt
          ? status
          : undefined;
      },
      { timeoutMs: 240_000, intervalMs: 1_000 },
    );
    expect(refreshed.bundle?.digest).toBe(before.bundle?.digest);
    await until('the new link in the values Secret', async () =>
      (await targetValues(docsSite)) !== valuesBefore ? true : undefined,
    );
    await new Promise((resolve) => setTimeout(resolve, 10_000)); // the site reads the new values meanwhile
    const result = await load.stop();
    report(
      `link refresh: ${result.ok} requests answered, ${result.failed} failed ${JSON.stringify(result.failures)}`,
    );
    expect(podIdentities(await releasePods(core, SITE_NS, docsSite.release))).toEqual(pods);
    expect(result.failed).toBe(0);
    expect(result.ok).toBeGreaterThan(0);
  });

  it('survives the loss of the leader: the other replica takes over and delivers the next commit', {
    timeout: 600_000,
  }, async () => {
    const coordination = kubeConfig.makeApiClient(CoordinationV1Api);
    const holder = async () =>
      (
        await coordination.readNamespacedLease({ namespace: OPERATOR_NS, name: 'docsnap-operator' })
      ).spec?.holderIdentity?.split('_')[0];
    const leader = (await holder()) as string;
    const deleted = Date.now();
    await core.deleteNamespacedPod({ namespace: OPERATOR_NS, name: leader });
    const next = await until(
      'another operator pod to take the Lease',
      async () => {
        const now = await holder();
        return now && now !== leader ? now : undefined;
      },
      { timeoutMs: 120_000 },
    );
    const tookMs = Date.now() - deleted;
    report(`leader pod deleted → ${next} leads: ${seconds(tookMs)}`);
    // The leader hands its Lease over on SIGTERM; a takeover at the Lease's expiry means it did not.
    if (tookMs > 5_000)
      console.log(`[e2e] the deleted leader logged:\n${cluster?.node.podLogTail(OPERATOR_NS, leader, 60)}`);
    const run = await freshness(docsSite);
    report(`commit delivered by the new leader: ${seconds(run.totalMs)}`);
  });

  it('loses no request beyond the Service routing change when a site pod is deleted under load', {
    timeout: 400_000,
  }, async () => {
    const pods = await releasePods(core, SITE_NS, docsSite.release);
    const load = new Load(`${await serviceUrl(docsSite)}/`, 4);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const victim = pods[0]?.metadata?.name as string;
    await core.deleteNamespacedPod({ namespace: SITE_NS, name: victim });
    await until(
      'the replacement site pod ready',
      async () => {
        const now = await releasePods(core, SITE_NS, docsSite.release);
        return now.length === 2 && now.every(isReady) && !now.some((p) => p.metadata?.name === victim)
          ? true
          : undefined;
      },
      { timeoutMs: 180_000 },
    );
    await until(
      'the deleted pod gone',
      async () => {
        const all = await core.listNamespacedPod({ namespace: SITE_NS });
        return all.items.some((p) => p.metadata?.name === victim) ? undefined : true;
      },
      { timeoutMs: 120_000 },
    );
    const result = await load.stop();
    report(
      `site pod deleted under load: ${result.ok} answered, ${result.failed} failed ${JSON.stringify(result.failures)}`,
    );
    expect(result.ok).toBeGreaterThan(100);
    expect(result.failed).toBe(0);
  });

  it('helm uninstall leaves the CRD and nothing else of the charts', { timeout: 300_000 }, async () => {
    for (const site of [docsSite, largeSite])
      await helmFor('docsnap-site', site.release, SITE_NS).uninstall();
    await helmFor('docsnap', 'docsnap', OPERATOR_NS).uninstall();
    const crd = await kubeConfig
      .makeApiClient(ApiextensionsV1Api)
      .readCustomResourceDefinition({ name: 'staticexports.docsnap.dev' });
    expect(crd.metadata?.name).toBe('staticexports.docsnap.dev');
    const apps = kubeConfig.makeApiClient(AppsV1Api);
    const rbac = kubeConfig.makeApiClient(RbacAuthorizationV1Api);
    const policy = kubeConfig.makeApiClient(PolicyV1Api);
    // Pods terminate after helm returns (the garbage collector deletes them, then their grace period).
    const remaining = async (): Promise<string[]> => {
      const left: string[] = [];
      for (const release of ['docsnap', docsSite.release, largeSite.release]) {
        const labelSelector = `app.kubernetes.io/instance=${release}`;
        const names = (kind: string, items: { metadata?: { name?: string; namespace?: string } }[]) =>
          left.push(...items.map((i) => `${kind} ${i.metadata?.namespace ?? ''}/${i.metadata?.name}`));
        for (const namespace of [OPERATOR_NS, SITE_NS]) {
          names('Deployment', (await apps.listNamespacedDeployment({ namespace, labelSelector })).items);
          names('ReplicaSet', (await apps.listNamespacedReplicaSet({ namespace, labelSelector })).items);
          names('Pod', (await core.listNamespacedPod({ namespace, labelSelector })).items);
          names('Service', (await core.listNamespacedService({ namespace, labelSelector })).items);
          names(
            'ServiceAccount',
            (await core.listNamespacedServiceAccount({ namespace, labelSelector })).items,
          );
          names('ConfigMap', (await core.listNamespacedConfigMap({ namespace, labelSelector })).items);
          names('Secret', (await core.listNamespacedSecret({ namespace, labelSelector })).items);
          names('Role', (await rbac.listNamespacedRole({ namespace, labelSelector })).items);
          names('RoleBinding', (await rbac.listNamespacedRoleBinding({ namespace, labelSelector })).items);
          names(
            'PodDisruptionBudget',
            (await policy.listNamespacedPodDisruptionBudget({ namespace, labelSelector })).items,
          );
        }
        names('ClusterRole', (await rbac.listClusterRole({ labelSelector })).items);
        names('ClusterRoleBinding', (await rbac.listClusterRoleBinding({ labelSelector })).items);
      }
      return left;
    };
    await until(
      'nothing of the charts left',
      async () => ((await remaining()).length === 0 ? true : undefined),
      {
        timeoutMs: 120_000,
        intervalMs: 1_000,
        state: async () => (await remaining()).join(', '),
      },
    );
  });

  it('stops the cluster without leaving processes, mounts, namespaces, interfaces or iptables rules', async () => {
    const running = cluster as RealCluster;
    cluster = undefined;
    const since = Date.now();
    await running.stop();
    report(`cluster teardown: ${seconds(Date.now() - since)}`);
    expect(await running.leftovers()).toEqual([]);
  });
});
