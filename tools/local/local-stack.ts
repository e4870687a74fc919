import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { join, relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  ApiextensionsV1Api,
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  type KubernetesObject,
  KubernetesObjectApi,
  PatchStrategy,
} from '@kubernetes/client-node';
import { parseAllDocuments, stringify } from 'yaml';
import { SECRET_ACCESS_LABEL } from '../../src/contract/static-export.ts';
import { ApiKeys } from '../../src/service/api-keys.ts';
import { openObjectStore } from '../../src/storage/open-store.ts';
import { build, cached, KUBERNETES_SERVERS, TOOLS } from './build-steps.ts';
import { KubeControlPlane } from './control-plane.ts';
import { isFree, type ManagedProcess, startProcess, waitFor } from './processes.ts';

export interface LocalStackOptions {
  repo: string;
  dataDir: string;
  /** A cluster to use instead of the local control plane. */
  kubeconfig?: string;
  /** A docs site examples/NAME with its StaticExport in examples/kubernetes/NAME.yaml. */
  example: string;
  ports: { api: number; site: number; operator: number; kube?: number };
  say: (line: string) => void;
}

/** Where the operator runs and the example's admin key lives. */
const SYSTEM_NAMESPACE = 'docsnap-system';
const ORGANIZATION = 'example';
const FIELD_MANAGER = 'docsnap-start';

/**
 * The local product: its processes are registered as they start, so stop() (Ctrl-C) ends every
 * one of them, even when it comes in the middle of starting.
 */
export class LocalStack {
  private readonly processes: ManagedProcess[] = [];
  private plane: KubeControlPlane | undefined;
  private readonly stopping = new AbortController();

  async start(options: LocalStackOptions): Promise<void> {
    const { repo, say } = options;
    const started = Date.now();
    const paths = dataPaths(options.dataDir);
    const example = readExample(repo, options.example);
    await checkPorts(options.ports, Boolean(options.kubeconfig));

    const cluster = options.kubeconfig
      ? useCluster(options.kubeconfig, say)
      : await this.startControlPlane(repo, paths, options.ports.kube, say);
    await installManifests(cluster.kubeConfig, repo, say);

    const apiUrl = await this.startApi(options, paths, example);
    const adminKey = await this.adminKey(paths, cluster.kubeConfig, example.namespace);
    await this.startController(options, paths, cluster.kubeConfig);
    await applyExample(cluster.kubeConfig, example, apiUrl, adminKey);
    say(`applied ${relative(repo, example.manifest)}: StaticExport ${example.namespace}/${example.name}`);

    void this.mirrorValues(cluster.kubeConfig, example, paths.values);
    const siteUrl = await this.startServe(options, paths);
    await followExport(cluster.kubeConfig, example, say, this.stopping.signal);
    await waitForSite(siteUrl, this.processes.at(-1) as ManagedProcess);
    const kubectl = cluster.kubectl ?? 'kubectl';
    say(
      [
        '',
        `docsnap is running (ready in ${((Date.now() - started) / 1000).toFixed(1)} s):`,
        `  site:       ${siteUrl}   (docsnap serve: the export of examples/${options.example})`,
        `  admin API:  ${apiUrl}   (its admin key: Secret ${example.namespace}/docsnap-admin-key)`,
        `  operator:   http://127.0.0.1:${options.ports.operator}/metrics`,
        `  kubeconfig: ${cluster.kubeconfigPath}`,
        `              ${kubectl} --kubeconfig ${cluster.kubeconfigPath} get sx -A`,
        `  logs:       ${paths.logs}`,
        'Ctrl-C stops everything.',
      ].join('\n'),
    );
  }

  /** Stops what was started, last first, and waits for each process to exit. */
  async stop(): Promise<void> {
    this.stopping.abort();
    for (const process of this.processes.splice(0).reverse()) await process.stop();
    await this.plane?.stop();
    this.plane = undefined;
  }

  private async startControlPlane(
    repo: string,
    paths: DataPaths,
    port: number | undefined,
    say: (line: string) => void,
  ): Promise<Cluster> {
    if (!cached(KUBERNETES_SERVERS)) {
      if (!TOOLS.go.present())
        throw new Error(
          `the first start builds kube-apiserver, etcd and kubectl, and that needs ${TOOLS.go.name}. Install it:\n  ${TOOLS.go.install}\nor give a cluster: npm start -- --kubeconfig FILE`,
        );
      await build('[start]', KUBERNETES_SERVERS, { progress: true });
    }
    const binDir = /^ENVTEST_DIR=(.*)$/m.exec(
      execFileSync('bash', [join(repo, 'tools/envtest/build.sh'), '--kubernetes-only'], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }),
    )?.[1] as string;
    say('starting etcd and kube-apiserver ...');
    this.plane = await KubeControlPlane.start(binDir, {
      dataDir: paths.kube,
      logDir: paths.logs,
      apiPort: port,
    });
    const { connection } = this.plane;
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromFile(connection.kubeconfigPath);
    say(`kube-apiserver: ${connection.server}`);
    return { kubeConfig, kubeconfigPath: connection.kubeconfigPath, kubectl: connection.kubectl };
  }

  private async startApi(options: LocalStackOptions, paths: DataPaths, example: Example): Promise<string> {
    writeFileSync(paths.apiConfig, stringify(apiConfig(options, paths, example)));
    const api = this.run('docsnap api', options.repo, ['api', '--config', paths.apiConfig], paths);
    const url = `http://127.0.0.1:${options.ports.api}`;
    await waitFor('docsnap api', async () => (await httpStatus(`${url}/healthz`)) === 200, {
      timeoutMs: 30_000,
      alive: () => api.child.exitCode === null,
      describe: () => api.tail(),
    });
    options.say(`docsnap api: ${url} (store ${paths.store})`);
    return url;
  }

  /** The example organization's admin key: the one in its Secret while the store knows it, else a new one. */
  private async adminKey(paths: DataPaths, kubeConfig: KubeConfig, namespace: string): Promise<string> {
    const keys = new ApiKeys(
      openObjectStore({ local: { dir: paths.store } }, () => ''),
      'docsnap',
    );
    const core = kubeConfig.makeApiClient(CoreV1Api);
    const secret = await core
      .readNamespacedSecret({ name: 'docsnap-admin-key', namespace })
      .catch(() => undefined);
    const existing = secret?.data?.key ? Buffer.from(secret.data.key, 'base64').toString() : undefined;
    if (existing && 'organization' in (await keys.authenticate(existing))) return existing;
    return keys.create(ORGANIZATION);
  }

  private async startController(
    options: LocalStackOptions,
    paths: DataPaths,
    kubeConfig: KubeConfig,
  ): Promise<void> {
    writeFileSync(paths.operatorKubeconfig, await operatorKubeconfig(kubeConfig), { mode: 0o600 });
    const listen = `127.0.0.1:${options.ports.operator}`;
    const operator = this.run(
      'docsnap operator',
      options.repo,
      [
        'operator',
        '--kubeconfig',
        paths.operatorKubeconfig,
        '--no-leader-elect',
        '--listen',
        listen,
        '--poll-interval',
        '500',
      ],
      paths,
    );
    await waitFor('docsnap operator', async () => (await httpStatus(`http://${listen}/readyz`)) === 200, {
      timeoutMs: 30_000,
      alive: () => operator.child.exitCode === null,
      describe: () => operator.tail(),
    });
    options.say(`docsnap operator: running as ServiceAccount ${SYSTEM_NAMESPACE}/docsnap-operator`);
  }

  private async startServe(options: LocalStackOptions, paths: DataPaths): Promise<string> {
    this.run(
      'docsnap serve',
      options.repo,
      [
        'serve',
        '--values',
        paths.values,
        '--listen',
        `127.0.0.1:${options.ports.site}`,
        '--admin-listen',
        '',
        '--cache-dir',
        paths.serveCache,
        '--deployment',
        'client-hosted',
      ],
      paths,
    );
    return `http://127.0.0.1:${options.ports.site}/`;
  }

  /**
   * Copies the values the operator writes into the target Secret to the file docsnap serve
   * watches, replacing it in one rename, as the kubelet updates a mounted Secret.
   */
  private async mirrorValues(kubeConfig: KubeConfig, example: Example, file: string): Promise<void> {
    const core = kubeConfig.makeApiClient(CoreV1Api);
    let last = '';
    while (!this.stopping.signal.aborted) {
      const secret = await core
        .readNamespacedSecret({ name: example.target.name, namespace: example.namespace })
        .catch(() => undefined);
      const data = secret?.data?.[example.target.key];
      const values = data ? Buffer.from(data, 'base64').toString() : '';
      if (values && values !== last) {
        writeFileSync(`${file}.tmp`, values, { mode: 0o600 });
        renameSync(`${file}.tmp`, file);
        last = values;
      }
      await sleep(1000, undefined, { signal: this.stopping.signal }).catch(() => undefined);
    }
  }

  /** Runs a docsnap command on this Node, its output in the logs folder. */
  private run(name: string, repo: string, args: string[], paths: DataPaths): ManagedProcess {
    const process_ = startProcess(
      name,
      process.execPath,
      [join(repo, 'src/cli/main.ts'), ...args],
      join(paths.logs, `${name.replace('docsnap ', '')}.log`),
    );
    this.processes.push(process_);
    return process_;
  }
}

interface DataPaths {
  kube: string;
  logs: string;
  apiConfig: string;
  store: string;
  operatorKubeconfig: string;
  values: string;
  serveCache: string;
}

function dataPaths(dataDir: string): DataPaths {
  const paths = {
    kube: join(dataDir, 'kube'),
    logs: join(dataDir, 'logs'),
    apiConfig: join(dataDir, 'api', 'api.yaml'),
    store: join(dataDir, 'api', 'store'),
    operatorKubeconfig: join(dataDir, 'operator', 'kubeconfig'),
    values: join(dataDir, 'site', 'values.yaml'),
    serveCache: join(dataDir, 'site', 'cache'),
  };
  for (const dir of [paths.kube, paths.logs, paths.store, paths.serveCache])
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  for (const file of [paths.apiConfig, paths.operatorKubeconfig, paths.values])
    mkdirSync(join(file, '..'), { recursive: true, mode: 0o700 });
  return paths;
}

interface Cluster {
  kubeConfig: KubeConfig;
  kubeconfigPath: string;
  kubectl?: string;
}

function useCluster(kubeconfigPath: string, say: (line: string) => void): Cluster {
  if (!existsSync(kubeconfigPath)) throw new Error(`kubeconfig ${kubeconfigPath} does not exist`);
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(kubeconfigPath);
  say(`using the cluster of ${kubeconfigPath} (${kubeConfig.getCurrentCluster()?.server ?? 'no server'})`);
  return { kubeConfig, kubeconfigPath };
}

/** Every port the stack listens on must be free now: a clear message beats a crash log. */
async function checkPorts(ports: LocalStackOptions['ports'], external: boolean): Promise<void> {
  const wanted: Array<[string, string, number | undefined]> = [
    ['docsnap api', '--api-port', ports.api],
    ['docsnap serve', '--site-port', ports.site],
    ['the operator', '--operator-port', ports.operator],
    ['kube-apiserver', '--kube-port', external ? undefined : ports.kube],
  ];
  const used = new Map<number, string>();
  for (const [what, flag, port] of wanted) {
    if (port === undefined) continue;
    if (used.has(port))
      throw new Error(`${flag} ${port} is the port of ${used.get(port)} too: choose another`);
    used.set(port, what);
    if (!(await isFree(port)))
      throw new Error(
        `port ${port} (${what}) is taken by another program: stop it, or choose another port with ${flag} N`,
      );
  }
}

interface Example {
  name: string;
  namespace: string;
  domain: string;
  site: string;
  manifest: string;
  objects: KubernetesObject[];
  target: { name: string; key: string };
}

/** examples/NAME (a docs site) and examples/kubernetes/NAME.yaml (its StaticExport and namespace). */
function readExample(repo: string, name: string): Example {
  const site = join(repo, 'examples', name);
  const manifest = join(repo, 'examples', 'kubernetes', `${name}.yaml`);
  if (!/^[a-z0-9-]+$/.test(name) || !existsSync(join(site, 'docs.json')) || !existsSync(manifest))
    throw new Error(
      `no example "${name}": --example names a docs site examples/NAME with its StaticExport in examples/kubernetes/NAME.yaml`,
    );
  const objects = parseAllDocuments(readFileSync(manifest, 'utf8')).map((d) => d.toJS() as KubernetesObject);
  const sx = objects.find((o) => o.kind === 'StaticExport') as
    | (KubernetesObject & {
        spec: { domain: string; targets: Array<{ secret?: { name: string; key?: string } }> };
      })
    | undefined;
  const target = sx?.spec.targets.find((t) => t.secret)?.secret;
  if (!sx?.metadata?.name || !sx.metadata.namespace || !target)
    throw new Error(`${manifest}: needs a StaticExport with a namespace and a Secret target`);
  return {
    name: sx.metadata.name,
    namespace: sx.metadata.namespace,
    domain: sx.spec.domain,
    site,
    manifest,
    objects,
    target: { name: target.name, key: target.key ?? 'values.yaml' },
  };
}

function apiConfig(options: LocalStackOptions, paths: DataPaths, example: Example): object {
  return {
    server: { host: '127.0.0.1', port: options.ports.api },
    organizations: [{ id: ORGANIZATION, plan: 'enterprise' }],
    sites: [
      {
        domain: example.domain,
        organization: ORGANIZATION,
        source: { path: example.site },
        deployment: 'client-hosted',
        features: { search: true, analytics: false },
      },
    ],
    storage: { local: { dir: paths.store } },
    links: { lifetime: '1h' },
  };
}

/** Server-side apply, as `kubectl apply --server-side` does: the same call creates and updates. */
async function apply(kubeConfig: KubeConfig, object: KubernetesObject): Promise<void> {
  await kubeConfig
    .makeApiClient(KubernetesObjectApi)
    .patch(object, undefined, undefined, FIELD_MANAGER, true, PatchStrategy.ServerSideApply);
}

/** The CRD, the operator's RBAC from config/rbac/ and a ServiceAccount bound to it. */
async function installManifests(
  kubeConfig: KubeConfig,
  repo: string,
  say: (line: string) => void,
): Promise<void> {
  const crd = parseAllDocuments(readFileSync(join(repo, 'crds/staticexports.docsnap.dev.yaml'), 'utf8'));
  for (const document of crd) {
    await apply(kubeConfig, document.toJS()).catch((error: Error & { code?: number }) => {
      throw new Error(
        error.code === 401 || error.code === 403
          ? 'the cluster refused the StaticExport CRD: this kubeconfig may not create CustomResourceDefinitions. Use a cluster where you may, or ask its admin to apply crds/ and config/rbac/'
          : `the cluster refused the StaticExport CRD (${error.message.split('\n')[0]}). docsnap needs Kubernetes 1.30 or newer: its schema has CEL rules`,
      );
    });
  }
  const rbac = parseAllDocuments(readFileSync(join(repo, 'config/rbac/operator.yaml'), 'utf8'))
    .map((d) => d.toJS() as KubernetesObject)
    .filter(Boolean);
  const system: KubernetesObject[] = [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: SYSTEM_NAMESPACE } },
    {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'docsnap-operator', namespace: SYSTEM_NAMESPACE },
    },
    ...rbac.map((o) =>
      o.kind === 'Role' ? { ...o, metadata: { ...o.metadata, namespace: SYSTEM_NAMESPACE } } : o,
    ),
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'docsnap-operator' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'docsnap-operator' },
      subjects: [{ kind: 'ServiceAccount', name: 'docsnap-operator', namespace: SYSTEM_NAMESPACE }],
    } as KubernetesObject,
  ];
  for (const object of system) await apply(kubeConfig, object);
  const extensions = kubeConfig.makeApiClient(ApiextensionsV1Api);
  await waitFor(
    'the StaticExport CRD',
    async () =>
      (
        await extensions.readCustomResourceDefinition({ name: 'staticexports.docsnap.dev' })
      ).status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True') ?? false,
    { timeoutMs: 30_000, alive: () => true, describe: () => 'the CRD is not Established' },
  );
  say('applied crds/ and config/rbac/ (the operator runs with exactly those rules)');
}

/** A kubeconfig for the operator's ServiceAccount: a token from the TokenRequest API, valid a day. */
async function operatorKubeconfig(kubeConfig: KubeConfig): Promise<string> {
  const core = kubeConfig.makeApiClient(CoreV1Api);
  const request = await core.createNamespacedServiceAccountToken({
    namespace: SYSTEM_NAMESPACE,
    name: 'docsnap-operator',
    body: { spec: { audiences: [], expirationSeconds: 86_400 } },
  });
  const cluster = kubeConfig.getCurrentCluster();
  if (!cluster || !request.status?.token) throw new Error('the cluster gave no token for the operator');
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: 'cluster',
        cluster: {
          server: cluster.server,
          ...(cluster.caData ? { 'certificate-authority-data': cluster.caData } : {}),
          ...(cluster.caFile ? { 'certificate-authority': cluster.caFile } : {}),
          ...(cluster.skipTLSVerify ? { 'insecure-skip-tls-verify': true } : {}),
        },
      },
    ],
    users: [{ name: 'docsnap-operator', user: { token: request.status.token } }],
    contexts: [{ name: 'docsnap-operator', context: { cluster: 'cluster', user: 'docsnap-operator' } }],
    'current-context': 'docsnap-operator',
  });
}

/** The example's objects (its StaticExport pointed at this docsnap api) and its admin key Secret. */
async function applyExample(
  kubeConfig: KubeConfig,
  example: Example,
  apiUrl: string,
  adminKey: string,
): Promise<void> {
  const namespaces = example.objects.filter((o) => o.kind === 'Namespace');
  const others = example.objects
    .filter((o) => o.kind !== 'Namespace')
    .map((o) => (o.kind === 'StaticExport' ? withApiUrl(o, apiUrl) : o));
  const secret = {
    apiVersion: 'v1',
    kind: 'Secret',
    // Labelled for the example's StaticExport: the operator reads only Secrets that opt in.
    metadata: {
      name: 'docsnap-admin-key',
      namespace: example.namespace,
      labels: { [SECRET_ACCESS_LABEL]: 'docs-site' },
    },
    stringData: { key: adminKey },
  } as KubernetesObject;
  for (const object of [...namespaces, secret, ...others]) await apply(kubeConfig, object);
}

function withApiUrl(object: KubernetesObject, apiUrl: string): KubernetesObject {
  const sx = structuredClone(object) as KubernetesObject & { spec: { exporter: { api?: { url: string } } } };
  if (sx.spec.exporter.api) sx.spec.exporter.api.url = apiUrl;
  return sx;
}

interface ExportStatus {
  phase?: string;
  progress?: number;
  pageCount?: number;
  error?: string;
  bundle?: { digest?: string };
}

/** Shows the export's phase and progress from the resource's status until it is Ready. */
async function followExport(
  kubeConfig: KubeConfig,
  example: Example,
  say: (line: string) => void,
  signal: AbortSignal,
): Promise<void> {
  const objects = kubeConfig.makeApiClient(CustomObjectsApi);
  let shown = '';
  const deadline = Date.now() + 10 * 60_000;
  while (!signal.aborted && Date.now() < deadline) {
    const sx = (await objects.getNamespacedCustomObject({
      group: 'docsnap.dev',
      version: 'v1alpha1',
      namespace: example.namespace,
      plural: 'staticexports',
      name: example.name,
    })) as { status?: ExportStatus };
    const status = sx.status ?? {};
    const line = `StaticExport ${example.namespace}/${example.name}: ${status.phase ?? 'Pending'}${
      status.phase === 'Exporting' ? ` ${status.progress ?? 0}%` : ''
    }${status.pageCount ? `, ${status.pageCount} pages` : ''}`;
    if (line !== shown) say(line);
    shown = line;
    if (status.phase === 'Ready') return;
    if (status.phase === 'Failed') throw new Error(`the export failed: ${status.error ?? 'no reason given'}`);
    await sleep(300, undefined, { signal }).catch(() => undefined);
  }
  if (!signal.aborted) throw new Error('the export was not Ready after 10 minutes');
}

async function waitForSite(url: string, serve: ManagedProcess): Promise<void> {
  await waitFor('docsnap serve', async () => (await httpStatus(url)) === 200, {
    timeoutMs: 60_000,
    alive: () => serve.child.exitCode === null,
    describe: () => serve.tail(),
  });
}

/** The status of a GET (node:http: fetch refuses some ports a user may choose, such as 6000). */
function httpStatus(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = get(url, { timeout: 2000 }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on('timeout', () => request.destroy(new Error(`GET ${url} timed out`)));
    request.on('error', reject);
  });
}
