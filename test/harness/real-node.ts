import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CoreV1Api } from '@kubernetes/client-node';
import { type KubeConnection, kubeConfigFor } from '../../tools/local/control-plane.ts';

const run = promisify(execFile);

/**
 * A real node for the e2e tests: containerd and runc from Debian's packages, the CNI bridge and
 * host-local plugins, and a kubelet built from the same Kubernetes module as the apiserver,
 * registered with a test control plane. Images come from oci-archive files (no registry), imported
 * into containerd's k8s.io namespace. What made a kubelet run on these machines
 * (../shared/notes/real-node.md, re-checked here): `failCgroupV1: false` (cgroup v1 hybrid hosts),
 * the cgroupfs driver without QoS cgroups, and containerd's `restrict_oom_score_adj` (root here
 * lacks CAP_SYS_RESOURCE).
 */

export const NODE_NAME = 'docsnap-node';
const BRIDGE = 'docsnap0';

/** Why this machine cannot run a node, or undefined when it can. */
export function nodePreflight(): string | undefined {
  if (process.getuid?.() !== 0) return 'a kubelet needs root';
  for (const tool of ['containerd', 'ctr', 'runc', 'ip', 'buildah', 'mmdebstrap']) {
    const found = ['/usr/bin', '/usr/sbin', '/sbin', '/bin'].some((dir) => existsSync(join(dir, tool)));
    if (!found)
      return `${tool} is missing (apt-get install containerd runc containernetworking-plugins buildah mmdebstrap iproute2)`;
  }
  if (!existsSync('/usr/lib/cni/bridge'))
    return 'the CNI plugins are missing (apt-get install containernetworking-plugins)';
  if (!existsSync('/sys/fs/cgroup')) return 'no cgroup file system is mounted';
  return undefined;
}

export class RealNode {
  private readonly work: string;
  private readonly processes: ChildProcess[] = [];
  readonly socket: string;

  private constructor(work: string) {
    this.work = work;
    this.socket = join(work, 'containerd.sock');
  }

  /** Starts containerd, imports the images and starts a kubelet; resolves once the node is Ready. */
  static async start(
    connection: KubeConnection,
    binDir: string,
    work: string,
    images: { archives: string[]; pause: string },
  ): Promise<RealNode> {
    const node = new RealNode(work);
    for (const dir of ['containerd-root', 'containerd-state', 'cni', 'kubelet', 'manifests', 'logs'])
      mkdirSync(join(work, dir), { recursive: true });
    writeFileSync(join(work, 'containerd.toml'), node.containerdConfig(images.pause));
    writeFileSync(join(work, 'cni', '10-docsnap.conflist'), CNI_CONFIG);
    writeFileSync(join(work, 'kubelet.yaml'), node.kubeletConfig());
    node.spawn('containerd', ['--config', join(work, 'containerd.toml')]);
    await node.until('containerd', async () => {
      await node.ctr('version');
      return true;
    });
    for (const archive of images.archives) await node.ctr('images', 'import', '--all-platforms', archive);
    node.spawn(join(binDir, 'kubelet'), [
      `--config=${join(work, 'kubelet.yaml')}`,
      `--kubeconfig=${connection.kubeconfigPath}`,
      `--root-dir=${join(work, 'kubelet')}`,
      `--hostname-override=${NODE_NAME}`,
      '--node-ip=127.0.0.1',
      '--v=1',
    ]);
    const core = kubeConfigFor(connection).makeApiClient(CoreV1Api);
    await node.until('the node Ready', async () => {
      const found = await core.readNode({ name: NODE_NAME });
      return found.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true;
    });
    return node;
  }

  /** Stops everything it started and removes what they left: containers, mounts, the bridge, the work directory. */
  async stop(): Promise<void> {
    const [kubelet, containerd] = [this.processes[1], this.processes[0]];
    await stopProcess(kubelet);
    const tasks = await this.ctr('tasks', 'ls', '-q').catch(() => '');
    for (const task of tasks.split('\n').filter(Boolean))
      await this.ctr('tasks', 'kill', '-s', 'KILL', task).catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 500));
    for (const task of tasks.split('\n').filter(Boolean))
      await this.ctr('tasks', 'rm', '-f', task).catch(() => {});
    const containers = await this.ctr('containers', 'ls', '-q').catch(() => '');
    for (const container of containers.split('\n').filter(Boolean))
      await this.ctr('containers', 'rm', container).catch(() => {});
    await stopProcess(containerd);
    await run('ip', ['link', 'del', BRIDGE]).catch(() => {});
    for (const mount of this.mounts().sort().reverse()) await run('umount', ['-l', mount]).catch(() => {});
    rmSync(this.work, { recursive: true, force: true });
  }

  /** What a stop left behind: mounts under the work directory, the bridge, live processes. Empty when clean. */
  async leftovers(): Promise<string[]> {
    const left = this.mounts().map((m) => `mount ${m}`);
    const bridge = await run('ip', ['link', 'show', BRIDGE]).then(
      () => true,
      () => false,
    );
    if (bridge) left.push(`network interface ${BRIDGE}`);
    for (const child of this.processes)
      if (child.exitCode === null && child.signalCode === null) left.push(`process ${child.pid}`);
    const shims = await run('pgrep', ['-f', `containerd-shim.*${this.work}`]).then(
      ({ stdout }) => stdout.trim(),
      () => '',
    );
    if (shims) left.push(`containerd shims ${shims.replace(/\n/g, ' ')}`);
    return left;
  }

  ctr(...args: string[]): Promise<string> {
    return run('ctr', ['-a', this.socket, '-n', 'k8s.io', ...args]).then(({ stdout }) => stdout);
  }

  private mounts(): string[] {
    return readFileSync('/proc/self/mounts', 'utf8')
      .split('\n')
      .map((line) => line.split(' ')[1] ?? '')
      .filter((point) => point.startsWith(this.work));
  }

  private spawn(command: string, args: string[]): void {
    const log = openSync(join(this.work, 'logs', `${command.split('/').pop()}.log`), 'w');
    this.processes.push(spawn(command, args, { stdio: ['ignore', log, log] }));
  }

  private async until(what: string, check: () => Promise<boolean>, ms = 60_000): Promise<void> {
    const since = Date.now();
    for (;;) {
      if (await check().catch(() => false)) return;
      if (Date.now() - since > ms)
        throw new Error(`${what} did not come up within ${ms / 1000} s (logs: ${join(this.work, 'logs')})`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  private containerdConfig(pause: string): string {
    return `version = 2
root = "${join(this.work, 'containerd-root')}"
state = "${join(this.work, 'containerd-state')}"
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
address: 127.0.0.1
readOnlyPort: 0
resolvConf: /etc/resolv.conf
staticPodPath: ${join(this.work, 'manifests')}
`;
  }
}

const CNI_CONFIG = JSON.stringify({
  cniVersion: '1.0.0',
  name: 'docsnap-e2e',
  plugins: [
    {
      type: 'bridge',
      bridge: BRIDGE,
      isGateway: true,
      ipMasq: true,
      ipam: { type: 'host-local', ranges: [[{ subnet: '10.88.0.0/16' }]], routes: [{ dst: '0.0.0.0/0' }] },
    },
    { type: 'portmap', capabilities: { portMappings: true } },
    { type: 'loopback' },
  ],
});

async function stopProcess(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
