import { execFile } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CoreV1Api } from '@kubernetes/client-node';
import { type KubeConnection, kubeConfigFor } from '../../tools/local/control-plane.ts';
import { type ManagedProcess, startProcess, waitFor } from '../../tools/local/processes.ts';
import { mountsUnder } from './host-state.ts';

const run = promisify(execFile);

/**
 * A real node for the e2e tests: containerd and runc from Debian's packages, the CNI bridge and
 * host-local plugins, and a kubelet and kube-proxy built from the same Kubernetes module as the
 * apiserver, registered with a test control plane. Images come from oci-archive files (no
 * registry), imported into containerd's k8s.io namespace. What made a kubelet run on these
 * machines (../shared/notes/real-node.md, re-checked here): `failCgroupV1: false` (cgroup v1
 * hybrid hosts), the cgroupfs driver without QoS cgroups, and containerd's
 * `restrict_oom_score_adj` (root here lacks CAP_SYS_RESOURCE).
 */

export const NODE_NAME = 'docsnap-node';

/** The pods' network: a bridge the cluster creates, whose address is the host's for pods. */
export interface NodeNetwork {
  bridge: string;
  /** The host's address on the bridge: the pods' gateway, where host services listen for them. */
  address: string;
  subnet: string;
}

/** Why this machine cannot run a node, or undefined when it can. */
export function nodePreflight(): string | undefined {
  if (process.getuid?.() !== 0) return 'a kubelet needs root';
  const tools = [
    'containerd',
    'ctr',
    'runc',
    'ip',
    'iptables-save',
    'ip6tables-save',
    'buildah',
    'mmdebstrap',
  ];
  for (const tool of tools) {
    const found = ['/usr/bin', '/usr/sbin', '/sbin', '/bin'].some((dir) => existsSync(join(dir, tool)));
    if (!found)
      return `${tool} is missing (apt-get install containerd runc containernetworking-plugins buildah mmdebstrap iproute2 iptables)`;
  }
  if (!existsSync('/usr/lib/cni/bridge'))
    return 'the CNI plugins are missing (apt-get install containernetworking-plugins)';
  if (!existsSync('/sys/fs/cgroup')) return 'no cgroup file system is mounted';
  return undefined;
}

export class RealNode {
  readonly socket: string;
  private readonly work: string;
  private readonly binDir: string;
  private processes: ManagedProcess[] = [];

  private constructor(work: string, binDir: string) {
    this.work = work;
    this.binDir = binDir;
    this.socket = join(work, 'containerd.sock');
  }

  /** Starts containerd, imports the images, starts kubelet and kube-proxy; resolves once the node is Ready. */
  static async start(
    connection: KubeConnection,
    binDir: string,
    work: string,
    options: { archives: string[]; pause: string; network: NodeNetwork },
  ): Promise<RealNode> {
    const node = new RealNode(work, binDir);
    try {
      await node.startRuntime(options.archives, options.pause, options.network);
      await node.startKubelet(connection, options.network);
      node.startKubeProxy(connection, options.network);
      return node;
    } catch (error) {
      await node.stop();
      throw error;
    }
  }

  private async startRuntime(archives: string[], pause: string, network: NodeNetwork): Promise<void> {
    for (const dir of [
      'containerd-root',
      'containerd-state',
      'cni',
      'cni-ipam',
      'kubelet',
      'logs',
      'pod-logs',
    ])
      mkdirSync(join(this.work, dir), { recursive: true });
    writeFileSync(join(this.work, 'containerd.toml'), this.containerdConfig(pause));
    writeFileSync(join(this.work, 'cni', '10-docsnap.conflist'), this.cniConfig(network));
    const containerd = this.startProcess('containerd', 'containerd', [
      '--config',
      join(this.work, 'containerd.toml'),
    ]);
    await waitFor('containerd', async () => (await this.ctr('version')).length > 0, {
      timeoutMs: 30_000,
      alive: () => containerd.child.exitCode === null,
      describe: () => containerd.tail(),
    });
    for (const archive of archives) await this.ctr('images', 'import', '--all-platforms', archive);
  }

  private async startKubelet(connection: KubeConnection, network: NodeNetwork): Promise<void> {
    writeFileSync(join(this.work, 'kubelet.yaml'), this.kubeletConfig());
    const kubelet = this.startProcess('kubelet', join(this.binDir, 'kubelet'), [
      `--config=${join(this.work, 'kubelet.yaml')}`,
      `--kubeconfig=${connection.kubeconfigPath}`,
      `--root-dir=${join(this.work, 'kubelet')}`,
      `--hostname-override=${NODE_NAME}`,
      `--node-ip=${network.address}`,
      '--v=1',
    ]);
    const core = kubeConfigFor(connection).makeApiClient(CoreV1Api);
    await waitFor(
      'the node Ready',
      async () => {
        const found = await core.readNode({ name: NODE_NAME });
        return found.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true;
      },
      { timeoutMs: 60_000, alive: () => kubelet.child.exitCode === null, describe: () => kubelet.tail() },
    );
  }

  /** Services: kube-proxy's iptables rules route ClusterIPs (the `kubernetes` Service too) to endpoints. */
  private startKubeProxy(connection: KubeConnection, network: NodeNetwork): void {
    writeFileSync(join(this.work, 'kube-proxy.yaml'), this.kubeProxyConfig(connection, network));
    this.startProcess('kube-proxy', join(this.binDir, 'kube-proxy'), [
      `--config=${join(this.work, 'kube-proxy.yaml')}`,
      '--v=1',
    ]);
  }

  /**
   * Stops what it started and removes what they leave (with DOCSNAP_E2E_LOGS=DIR, the components'
   * and the pods' logs are copied there first): kube-proxy's rules, containers and their
   * shims, mounts, pod log links, the work directory. Pods should be gone first (the cluster
   * deletes them while kubelet runs, so the CNI plugins release their addresses and namespaces);
   * any container still there is killed here.
   */
  async stop(): Promise<void> {
    const byName = (name: string) => this.processes.find((p) => p.name === name);
    await byName('kube-proxy')?.stop();
    if (existsSync(join(this.work, 'kube-proxy.yaml')))
      await run(join(this.binDir, 'kube-proxy'), [
        '--cleanup',
        `--config=${join(this.work, 'kube-proxy.yaml')}`,
      ]).catch(() => {});
    await byName('kubelet')?.stop();
    await this.removeContainers();
    await byName('containerd')?.stop();
    this.processes = [];
    for (const mount of mountsUnder(this.work)) await run('umount', ['-l', mount]).catch(() => {});
    this.removePodLogLinks();
    const keep = process.env.DOCSNAP_E2E_LOGS;
    if (keep)
      for (const dir of ['logs', 'pod-logs'])
        cpSync(join(this.work, dir), join(keep, dir), { recursive: true });
    rmSync(this.work, { recursive: true, force: true });
  }

  /** Processes and mounts of this node still there (the host-wide rest is in host-state.ts). Empty when clean. */
  async leftovers(): Promise<string[]> {
    const left = mountsUnder(this.work).map((m) => `mount ${m}`);
    const shims = await run('pgrep', ['-f', `containerd-shim.*${this.work}`]).then(
      ({ stdout }) => stdout.trim(),
      () => '',
    );
    if (shims) left.push(`containerd shims ${shims.replace(/\n/g, ' ')}`);
    for (const name of ['containerd', 'kubelet', 'kube-proxy']) {
      const found = await run('pgrep', ['-f', `${name}.*${this.work}`]).then(
        ({ stdout }) => stdout.trim(),
        () => '',
      );
      if (found) left.push(`${name} process ${found.replace(/\n/g, ' ')}`);
    }
    return left;
  }

  /** Tasks (containers' processes, sandboxes' included) running now. */
  async runningTasks(): Promise<string[]> {
    const table = await this.ctr('tasks', 'ls').catch(() => '');
    return table
      .split('\n')
      .slice(1)
      .filter((line) => /\sRUNNING\s*$/.test(line))
      .map((line) => line.split(/\s+/)[0] as string);
  }

  /** The containers containerd has (pods' and their sandboxes'). */
  async containers(): Promise<string[]> {
    return (await this.ctr('containers', 'ls', '-q').catch(() => '')).split('\n').filter(Boolean);
  }

  ctr(...args: string[]): Promise<string> {
    return run('ctr', ['-a', this.socket, '-n', 'k8s.io', ...args]).then(({ stdout }) => stdout);
  }

  /** The last lines a pod's containers logged (kubelet's files, read directly: no log API on this node). */
  podLogTail(namespace: string, pod: string, lines = 40): string {
    const root = join(this.work, 'pod-logs');
    const dir = readdirSync(root).find((entry) => entry.startsWith(`${namespace}_${pod}_`));
    if (!dir) return '';
    return readdirSync(join(root, dir))
      .flatMap((container) =>
        readdirSync(join(root, dir, container)).map((file) =>
          readFileSync(join(root, dir, container, file), 'utf8')
            .trimEnd()
            .split('\n')
            .slice(-lines)
            .join('\n'),
        ),
      )
      .join('\n');
  }

  /** The log file of a component (containerd, kubelet, kube-proxy), for failure messages. */
  logFile(name: string): string {
    return join(this.work, 'logs', `${name}.log`);
  }

  private async removeContainers(): Promise<void> {
    const tasks = (await this.ctr('tasks', 'ls', '-q').catch(() => '')).split('\n').filter(Boolean);
    for (const task of tasks) await this.ctr('tasks', 'kill', '-s', 'KILL', task).catch(() => {});
    if (tasks.length) await new Promise((resolve) => setTimeout(resolve, 500));
    for (const task of tasks) await this.ctr('tasks', 'rm', '-f', task).catch(() => {});
    for (const container of await this.containers())
      await this.ctr('containers', 'rm', container).catch(() => {});
  }

  /** kubelet links each container's log into /var/log/containers (a fixed path); ours point into the work directory. */
  private removePodLogLinks(): void {
    const dir = '/var/log/containers';
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir)) {
      const link = join(dir, entry);
      try {
        if (readlinkSync(link).startsWith(this.work)) unlinkSync(link);
      } catch {
        // not a link, or gone meanwhile
      }
    }
  }

  private startProcess(name: string, binary: string, args: string[]): ManagedProcess {
    const child = startProcess(name, binary, args, this.logFile(name));
    this.processes.push(child);
    return child;
  }

  private containerdConfig(pause: string): string {
    const state = join(this.work, 'containerd-state');
    return `version = 2
root = "${join(this.work, 'containerd-root')}"
state = "${state}"
[grpc]
  address = "${this.socket}"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "${pause}"
  restrict_oom_score_adj = true
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        Root = "${join(state, 'runc')}"
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "${join(this.work, 'cni')}"
`;
  }

  private kubeletConfig(): string {
    return `apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
# cgroup v1 (hybrid) on these machines: kubelet 1.35+ refuses it unless told.
failCgroupV1: false
cgroupDriver: cgroupfs
cgroupsPerQOS: false
enforceNodeAllocatable: []
failSwapOn: false
containerRuntimeEndpoint: unix://${this.socket}
authentication:
  anonymous: { enabled: true }
  webhook: { enabled: false }
authorization: { mode: AlwaysAllow }
# Its API on loopback only: pods reach the host at the bridge address, and must not reach this.
address: 127.0.0.1
readOnlyPort: 0
healthzPort: 0
resolvConf: /etc/resolv.conf
podLogsDir: ${join(this.work, 'pod-logs')}
# A test machine's disk is not the pods' to fill, but neither should a full one evict them mid-test.
evictionHard: { memory.available: 100Mi, nodefs.available: 1%, imagefs.available: 1% }
imageGCHighThresholdPercent: 100
`;
  }

  private kubeProxyConfig(connection: KubeConnection, network: NodeNetwork): string {
    return `apiVersion: kubeproxy.config.k8s.io/v1alpha1
kind: KubeProxyConfiguration
clientConnection: { kubeconfig: ${connection.kubeconfigPath} }
hostnameOverride: ${NODE_NAME}
mode: iptables
clusterCIDR: ${network.subnet}
healthzBindAddress: ""
metricsBindAddress: ""
# The VM's conntrack settings are not kube-proxy's to change.
conntrack: { maxPerCore: 0, min: 0, tcpEstablishedTimeout: 0s, tcpCloseWaitTimeout: 0s }
`;
  }

  private cniConfig(network: NodeNetwork): string {
    return JSON.stringify({
      cniVersion: '1.0.0',
      name: 'docsnap-e2e',
      plugins: [
        {
          type: 'bridge',
          bridge: network.bridge,
          isGateway: true,
          // Pods talk to the host (apiserver, git, S3) and each other only: no masquerading out.
          ipMasq: false,
          ipam: {
            type: 'host-local',
            dataDir: join(this.work, 'cni-ipam'),
            ranges: [[{ subnet: network.subnet, gateway: network.address }]],
            routes: [{ dst: '0.0.0.0/0' }],
          },
        },
        { type: 'portmap', capabilities: { portMappings: true } },
        { type: 'loopback' },
      ],
    });
  }
}
