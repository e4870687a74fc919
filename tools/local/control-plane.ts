import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import { CoreV1Api, KubeConfig, RbacAuthorizationV1Api, type V1PolicyRule } from '@kubernetes/client-node';
import { stringify } from 'yaml';
import { freePort, isFree, type ManagedProcess, makeWorkDir, startProcess, waitFor } from './processes.ts';

/** What tests need to reach the control plane; plain data so it can cross from global setup to workers. */
export interface KubeConnection {
  server: string;
  caData: string; // base64 PEM, as in a kubeconfig
  adminToken: string;
  kubeconfigPath: string;
  kubectl: string;
  workDir: string;
}

export interface KubeControlPlaneOptions {
  /**
   * Writes the apiserver's audit log (JSON lines, level Metadata for every request, one event per
   * stage after RequestReceived) to `auditLogPath`, blocking and unrotated so it is complete: the
   * operator benchmark counts requests per user and verb from it.
   */
  auditLog?: boolean;
  /**
   * A data directory kept across starts (`npm start`): etcd's data, the admin token, the
   * service-account keys and the ports are reused, and stop() leaves it. Without it, a temporary
   * directory is made and removed, and etcd skips fsync (throwaway data).
   */
  dataDir?: string;
  /** Where etcd and the apiserver write their logs (default: the data directory). */
  logDir?: string;
  /** The apiserver's port (default: a free one; with a data dir, the one it used last). */
  apiPort?: number;
  /**
   * For a cluster with nodes (the e2e tests): the host address pods reach the apiserver at. It
   * binds and advertises there (the `kubernetes` Service's endpoints point to it), and the
   * ServiceAccount admission plugin is on, since a controller-manager then creates the accounts.
   */
  nodeAddress?: string;
}

/** A KubeConfig for the given bearer token (the admin's unless another identity is named). */
export function kubeConfigFor(
  connection: KubeConnection,
  token = connection.adminToken,
  user = 'admin',
): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromString(kubeconfigYaml(connection.server, connection.caData, user, token));
  return kc;
}

function kubeconfigYaml(server: string, caData: string, user: string, token: string): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'envtest', cluster: { server, 'certificate-authority-data': caData } }],
    users: [{ name: user, user: { token } }],
    contexts: [{ name: user, context: { cluster: 'envtest', user } }],
    'current-context': user,
  });
}

/**
 * A real etcd + kube-apiserver on loopback, as controller-runtime's envtest runs them: RBAC
 * authorization, an admin identity (static token in system:masters), service-account signing keys,
 * a temporary data directory, and a kubeconfig. No controller-manager: objects are stored and
 * watched for real, but nothing garbage-collects or finalizes namespaces.
 */
export class KubeControlPlane {
  readonly connection: KubeConnection;
  /** The audit log (JSON lines), when started with `auditLog`. */
  readonly auditLogPath: string | undefined;
  private readonly workDir: string;
  private readonly persistent: boolean;
  private processes: ManagedProcess[] = [];

  /** Process ids of etcd and the apiserver, for benchmarks that account for their CPU. */
  get pids(): Record<string, number | undefined> {
    return Object.fromEntries(this.processes.map((p) => [p.name, p.child.pid]));
  }

  private constructor(
    connection: KubeConnection,
    workDir: string,
    auditLogPath: string | undefined,
    persistent: boolean,
  ) {
    this.persistent = persistent;
    this.connection = connection;
    this.workDir = workDir;
    this.auditLogPath = auditLogPath;
  }

  static async start(binDir: string, options: KubeControlPlaneOptions = {}): Promise<KubeControlPlane> {
    const persistent = options.dataDir !== undefined;
    const workDir = options.dataDir ?? makeWorkDir('envtest');
    const certDir = join(workDir, 'certs');
    mkdirSync(certDir, { recursive: true });
    const { etcdClientPort, etcdPeerPort, apiPort } = await controlPlanePorts(
      workDir,
      persistent,
      options.apiPort,
    );
    const adminToken = adminTokenOf(workDir);
    serviceAccountKeys(workDir);

    const address = options.nodeAddress ?? '127.0.0.1';
    const server = `https://${address}:${apiPort}`;
    const connection: KubeConnection = {
      server,
      caData: '',
      adminToken,
      kubeconfigPath: join(workDir, 'kubeconfig'),
      kubectl: join(binDir, 'kubectl'),
      workDir,
    };
    const auditLogPath = options.auditLog ? join(workDir, 'audit.log') : undefined;
    const auditArgs: string[] = [];
    if (auditLogPath) {
      const policy = join(workDir, 'audit-policy.yaml');
      writeFileSync(
        policy,
        stringify({
          apiVersion: 'audit.k8s.io/v1',
          kind: 'Policy',
          omitStages: ['RequestReceived'],
          rules: [{ level: 'Metadata' }],
        }),
      );
      auditArgs.push(
        `--audit-policy-file=${policy}`,
        `--audit-log-path=${auditLogPath}`,
        '--audit-log-format=json',
        '--audit-log-mode=blocking', // written before the response: nothing is lost or late
        '--audit-log-maxsize=0', // no rotation: one file holds every event
      );
    }
    const plane = new KubeControlPlane(connection, workDir, auditLogPath, persistent);
    try {
      const etcdUrl = `http://127.0.0.1:${etcdClientPort}`;
      const etcd = startProcess(
        'etcd',
        join(binDir, 'etcd'),
        [
          `--data-dir=${join(workDir, 'etcd')}`,
          `--listen-client-urls=${etcdUrl}`,
          `--advertise-client-urls=${etcdUrl}`,
          `--listen-peer-urls=http://127.0.0.1:${etcdPeerPort}`,
          `--initial-advertise-peer-urls=http://127.0.0.1:${etcdPeerPort}`,
          `--initial-cluster=default=http://127.0.0.1:${etcdPeerPort}`,
          ...(persistent ? [] : ['--unsafe-no-fsync=true']), // throwaway data: durability buys nothing
          '--log-level=warn',
        ],
        join(options.logDir ?? workDir, 'etcd.log'),
      );
      plane.processes.push(etcd);
      await waitFor('etcd', async () => (await fetch(`${etcdUrl}/health`)).ok, {
        timeoutMs: 30_000,
        alive: () => etcd.child.exitCode === null,
        describe: () => etcd.tail(),
      });

      const apiserver = startProcess(
        'kube-apiserver',
        join(binDir, 'kube-apiserver'),
        [
          `--etcd-servers=${etcdUrl}`,
          `--secure-port=${apiPort}`,
          `--bind-address=${address}`,
          `--advertise-address=${address}`,
          ...(options.nodeAddress ? [] : apiOnlyArgs),
          `--cert-dir=${certDir}`, // self-signed serving certificate for 127.0.0.1, with its CA
          `--token-auth-file=${join(workDir, 'tokens.csv')}`,
          '--authorization-mode=RBAC',
          '--service-cluster-ip-range=10.0.0.0/24',
          '--allow-privileged=true',
          `--service-account-issuer=${server}`,
          `--service-account-key-file=${join(workDir, 'sa.pub')}`,
          `--service-account-signing-key-file=${join(workDir, 'sa.key')}`,
          ...auditArgs,
          '--v=1',
        ],
        join(options.logDir ?? workDir, 'kube-apiserver.log'),
      );
      plane.processes.push(apiserver);
      const alive = () => apiserver.child.exitCode === null;
      // The serving certificate appears in cert-dir while the apiserver starts.
      await waitFor(
        'kube-apiserver serving certificate',
        async () => {
          connection.caData = readFileSync(join(certDir, 'apiserver.crt')).toString('base64');
          return true;
        },
        { timeoutMs: 30_000, alive, describe: () => apiserver.tail() },
      );
      await waitFor(
        'kube-apiserver /readyz',
        async () => (await httpsGet(`${server}/readyz`, connection.caData, adminToken)).status === 200,
        { timeoutMs: 60_000, alive, describe: () => apiserver.tail() },
      );
      writeFileSync(
        connection.kubeconfigPath,
        kubeconfigYaml(server, connection.caData, 'admin', adminToken),
        { mode: 0o600 },
      );
      return plane;
    } catch (error) {
      await plane.stop();
      throw error;
    }
  }

  /** Stops the apiserver, then etcd, and removes the data directory unless it is kept. */
  async stop(): Promise<void> {
    for (const process of [...this.processes].reverse()) await process.stop();
    this.processes = [];
    if (!this.persistent) rmSync(this.workDir, { recursive: true, force: true });
  }
}

/** Without nodes: no controller-manager creates ServiceAccounts, and no pod needs the `kubernetes` Service. */
const apiOnlyArgs = [
  // No Service endpoints to reconcile, and 1.37 refuses loopback addresses for them.
  '--endpoint-reconciler-type=none',
  '--disable-admission-plugins=ServiceAccount',
];

interface ControlPlanePorts {
  etcdClientPort: number;
  etcdPeerPort: number;
  apiPort: number;
}

/**
 * Free ports, or with a kept data directory the ports of its last start (etcd records its peer
 * address in its data; a kubeconfig handed out keeps working) while they are still free.
 */
async function controlPlanePorts(
  workDir: string,
  persistent: boolean,
  apiPort: number | undefined,
): Promise<ControlPlanePorts> {
  const file = join(workDir, 'ports.json');
  const last: Partial<ControlPlanePorts> =
    persistent && existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  const pick = async (port: number | undefined) => (port && (await isFree(port)) ? port : freePort());
  const ports = {
    etcdClientPort: await pick(last.etcdClientPort),
    etcdPeerPort: await pick(last.etcdPeerPort),
    apiPort: apiPort ?? (await pick(last.apiPort)),
  };
  if (persistent) writeFileSync(file, `${JSON.stringify(ports)}\n`);
  return ports;
}

/** The admin's static token (system:masters): made once per data directory. */
function adminTokenOf(workDir: string): string {
  const file = join(workDir, 'tokens.csv');
  if (existsSync(file)) return readFileSync(file, 'utf8').split(',')[0] as string;
  const token = randomBytes(24).toString('hex');
  writeFileSync(file, `${token},docsnap-test-admin,docsnap-test-admin,system:masters\n`, { mode: 0o600 });
  return token;
}

/** The keys that sign and verify service-account tokens: made once per data directory. */
function serviceAccountKeys(workDir: string): void {
  if (existsSync(join(workDir, 'sa.key'))) return;
  const keys = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  writeFileSync(join(workDir, 'sa.pub'), keys.publicKey);
  writeFileSync(join(workDir, 'sa.key'), keys.privateKey, { mode: 0o600 });
}

/**
 * Mints an identity that holds exactly the given RBAC rules: a ServiceAccount bound to a
 * ClusterRole (cluster-wide) or a Role (in one namespace), and a short-lived token from the
 * TokenRequest API. Tests use it to prove code works with the rules a chart grants, no more.
 */
export async function mintServiceAccount(
  connection: KubeConnection,
  options: { namespace: string; name: string; rules: V1PolicyRule[]; scope: 'cluster' | 'namespace' },
): Promise<{ token: string; kubeConfig: KubeConfig; kubeconfigPath: string; username: string }> {
  const admin = kubeConfigFor(connection);
  const core = admin.makeApiClient(CoreV1Api);
  const rbac = admin.makeApiClient(RbacAuthorizationV1Api);
  const { namespace, name, rules } = options;
  await ensureNamespace(core, namespace);
  await core.createNamespacedServiceAccount({ namespace, body: { metadata: { name } } });
  const subject = { kind: 'ServiceAccount', name, namespace };
  if (options.scope === 'cluster') {
    const roleName = `${namespace}-${name}`;
    await rbac.createClusterRole({ body: { metadata: { name: roleName }, rules } });
    await rbac.createClusterRoleBinding({
      body: {
        metadata: { name: roleName },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: roleName },
        subjects: [subject],
      },
    });
  } else {
    await rbac.createNamespacedRole({ namespace, body: { metadata: { name }, rules } });
    await rbac.createNamespacedRoleBinding({
      namespace,
      body: {
        metadata: { name },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name },
        subjects: [subject],
      },
    });
  }
  const tokenRequest = await core.createNamespacedServiceAccountToken({
    namespace,
    name,
    body: { spec: { audiences: [], expirationSeconds: 3600 } },
  });
  const token = tokenRequest.status?.token;
  if (!token) throw new Error(`TokenRequest for ${namespace}/${name} returned no token`);
  const username = `system:serviceaccount:${namespace}:${name}`;
  const kubeconfigPath = join(connection.workDir, `kubeconfig-${namespace}-${name}`);
  writeFileSync(kubeconfigPath, kubeconfigYaml(connection.server, connection.caData, username, token), {
    mode: 0o600,
  });
  return { token, kubeConfig: kubeConfigFor(connection, token, username), kubeconfigPath, username };
}

export async function ensureNamespace(core: CoreV1Api, name: string): Promise<void> {
  try {
    await core.createNamespace({ body: { metadata: { name } } });
  } catch (error) {
    if ((error as { code?: number }).code !== 409) throw error;
  }
}

/** GET over TLS with the control plane's CA and a bearer token (fetch cannot take a CA). */
export function httpsGet(
  url: string,
  caData: string,
  token: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { ca: Buffer.from(caData, 'base64'), headers: { authorization: `Bearer ${token}` }, timeout: 5_000 },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`GET ${url} timed out`)));
    req.on('error', reject);
    req.end();
  });
}
