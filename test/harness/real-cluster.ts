import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CoreV1Api } from '@kubernetes/client-node';
import { KubeControlPlane, kubeConfigFor } from '../../tools/local/control-plane.ts';
import { type ManagedProcess, startProcess } from '../../tools/local/processes.ts';
import { type HostState, hostLeftovers, hostState, restoreIptables } from './host-state.ts';
import { type NodeNetwork, RealNode } from './real-node.ts';

const run = promisify(execFile);

/** The bridge the pods attach to; its address is where the host's services listen for pods. */
export const CLUSTER_NETWORK: NodeNetwork = {
  bridge: 'docsnap0',
  address: '10.88.0.1',
  subnet: '10.88.0.0/16',
};

export interface ClusterTimings {
  controlPlaneMs: number;
  controllersMs: number;
  nodeMs: number;
}

/**
 * A single-node cluster on this machine: etcd and kube-apiserver (bound to the bridge address,
 * so pods reach it through the `kubernetes` Service), kube-scheduler and kube-controller-manager
 * (Deployments, ServiceAccounts, garbage collection), and a RealNode (containerd, kubelet,
 * kube-proxy). stop() removes everything, and leftovers() says what it could not.
 */
export class RealCluster {
  readonly controlPlane: KubeControlPlane;
  readonly node: RealNode;
  readonly timings: ClusterTimings;
  private readonly controllers: ManagedProcess[];
  private readonly before: HostState;

  private constructor(
    parts: Pick<RealCluster, 'controlPlane' | 'node' | 'timings'>,
    controllers: ManagedProcess[],
    before: HostState,
  ) {
    this.controlPlane = parts.controlPlane;
    this.node = parts.node;
    this.timings = parts.timings;
    this.controllers = controllers;
    this.before = before;
  }

  static async start(
    binDir: string,
    work: string,
    images: { archives: string[]; pause: string },
  ): Promise<RealCluster> {
    const before = await hostState();
    await createBridge(CLUSTER_NETWORK);
    const parts: { controlPlane?: KubeControlPlane; node?: RealNode; controllers: ManagedProcess[] } = {
      controllers: [],
    };
    try {
      let since = Date.now();
      mkdirSync(join(work, 'logs'), { recursive: true });
      parts.controlPlane = await KubeControlPlane.start(binDir, {
        nodeAddress: CLUSTER_NETWORK.address,
        logDir: join(work, 'logs'),
      });
      const controlPlaneMs = Date.now() - since;
      since = Date.now();
      parts.controllers = startControllers(parts.controlPlane, binDir, join(work, 'logs'));
      await defaultServiceAccount(parts.controlPlane);
      const controllersMs = Date.now() - since;
      since = Date.now();
      parts.node = await RealNode.start(parts.controlPlane.connection, binDir, join(work, 'node'), {
        ...images,
        network: CLUSTER_NETWORK,
      });
      const timings = { controlPlaneMs, controllersMs, nodeMs: Date.now() - since };
      return new RealCluster(
        { controlPlane: parts.controlPlane, node: parts.node, timings },
        parts.controllers,
        before,
      );
    } catch (error) {
      for (const controller of parts.controllers) await controller.stop();
      await parts.node?.stop();
      await parts.controlPlane?.stop();
      await removeBridge(CLUSTER_NETWORK);
      await restoreIptables(before);
      throw error;
    }
  }

  /**
   * Controllers first (nothing recreates what goes next), then every pod, deleted while kubelet
   * still runs so the CNI plugins release their namespaces, addresses and rules; then the node,
   * the control plane and the bridge.
   */
  async stop(): Promise<void> {
    for (const controller of this.controllers) await controller.stop();
    await this.deleteAllPods().catch(() => {});
    await this.node.stop();
    await this.controlPlane.stop();
    await removeBridge(CLUSTER_NETWORK);
    await restoreIptables(this.before);
  }

  /** What a stop left on the host: processes, mounts, namespaces, interfaces, iptables rules. Empty when clean. */
  async leftovers(): Promise<string[]> {
    const controllers = this.controllers
      .filter((p) => p.child.exitCode === null && p.child.signalCode === null)
      .map((p) => `process ${p.name} ${p.child.pid}`);
    return [
      ...controllers,
      ...(await this.node.leftovers()),
      ...hostLeftovers(this.before, await hostState()),
    ];
  }

  private async deleteAllPods(): Promise<void> {
    const core = kubeConfigFor(this.controlPlane.connection).makeApiClient(CoreV1Api);
    const pods = await core.listPodForAllNamespaces();
    for (const pod of pods.items)
      await core
        .deleteNamespacedPod({
          namespace: pod.metadata?.namespace as string,
          name: pod.metadata?.name as string,
          gracePeriodSeconds: 0,
        })
        .catch(() => {});
    // Stopped sandboxes have had their network torn down; kubelet removes dead containers later.
    const deadline = Date.now() + 60_000;
    while ((await this.node.runningTasks()).length > 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

function startControllers(controlPlane: KubeControlPlane, binDir: string, logDir: string): ManagedProcess[] {
  const { kubeconfigPath, workDir } = controlPlane.connection;
  const common = [`--kubeconfig=${kubeconfigPath}`, '--leader-elect=false', '--secure-port=0', '--v=1'];
  return [
    startProcess(
      'kube-scheduler',
      join(binDir, 'kube-scheduler'),
      common,
      join(logDir, 'kube-scheduler.log'),
    ),
    startProcess(
      'kube-controller-manager',
      join(binDir, 'kube-controller-manager'),
      [
        ...common,
        // Signs the legacy token Secrets; pods get projected tokens from the apiserver.
        `--service-account-private-key-file=${join(workDir, 'sa.key')}`,
        // Published to every namespace as kube-root-ca.crt, which the projected token volume mounts.
        `--root-ca-file=${join(workDir, 'certs', 'apiserver.crt')}`,
      ],
      join(logDir, 'kube-controller-manager.log'),
    ),
  ];
}

/** The controller-manager is up once it has created `default` ServiceAccounts. */
async function defaultServiceAccount(controlPlane: KubeControlPlane): Promise<void> {
  const core = kubeConfigFor(controlPlane.connection).makeApiClient(CoreV1Api);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const found = await core.readNamespacedServiceAccount({ namespace: 'default', name: 'default' }).then(
      () => true,
      () => false,
    );
    if (found) return;
    if (Date.now() > deadline)
      throw new Error('kube-controller-manager created no default ServiceAccount in 60 s');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function createBridge(network: NodeNetwork): Promise<void> {
  await removeBridge(network);
  await run('ip', ['link', 'add', network.bridge, 'type', 'bridge']);
  await run('ip', [
    'addr',
    'add',
    `${network.address}/${network.subnet.split('/')[1]}`,
    'dev',
    network.bridge,
  ]);
  await run('ip', ['link', 'set', network.bridge, 'up']);
}

async function removeBridge(network: NodeNetwork): Promise<void> {
  await run('ip', ['link', 'del', network.bridge]).catch(() => {});
}
