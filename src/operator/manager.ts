import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { CoordinationV1Api } from '@kubernetes/client-node';
import { type ControllerOptions, type RunningController, startController } from './controller.ts';
import {
  DEFAULT_LEADER_ELECTION,
  type LeaderElectionSettings,
  LeaderElector,
} from './runtime/leader-election.ts';
import { OperatorMetrics } from './runtime/metrics.ts';

export interface ManagerOptions extends Omit<ControllerOptions, 'metrics'> {
  /** Lease to lead by; false runs as the only replica (development, tests). */
  leaderElection:
    | false
    | { namespace?: string; name?: string; identity?: string; settings?: Partial<LeaderElectionSettings> };
  /** Where /metrics, /healthz and /readyz are served; false serves nothing. */
  listen: false | { host: string; port: number };
}

export interface Manager {
  /** Resolves when the process should end: leadership lost, or stop() called. */
  done: Promise<'lost' | 'stopped'>;
  /** The address the probes and metrics are served on. */
  address: AddressInfo | undefined;
  readonly leading: boolean;
  operator(): RunningController | undefined;
  metrics: OperatorMetrics;
  /** Finishes the reconciles in progress, then hands the lease to a standby. */
  stop(): Promise<void>;
}

/**
 * The operator process: probes and metrics from the start; the controller only while this
 * replica holds the leader lease, so standby replicas watch nothing and write nothing.
 */
export async function startManager(options: ManagerOptions): Promise<Manager> {
  const { kubeConfig, log } = options;
  let operator: RunningController | undefined;
  let stopping = false;
  const metrics = new OperatorMetrics(() => operator?.resources() ?? []);

  const elector = options.leaderElection
    ? new LeaderElector({
        ...DEFAULT_LEADER_ELECTION,
        ...options.leaderElection.settings,
        coordination: kubeConfig.makeApiClient(CoordinationV1Api),
        namespace: options.leaderElection.namespace ?? ownNamespace(),
        name: options.leaderElection.name ?? 'docsnap-operator',
        identity: options.leaderElection.identity ?? `${hostname()}_${randomUUID()}`,
        log,
      })
    : undefined;

  const server = options.listen
    ? await serve(options.listen, {
        metrics,
        // A standby is ready (it is doing its job: waiting); a leader once its watches are up.
        ready: () => (operator ? operator.watching() : elector !== undefined && !elector.isLeader),
        // Alive while the event loop answers.
        healthy: () => true,
      })
    : undefined;
  if (server) log.info({ address: server.address() }, 'serving /metrics, /healthz and /readyz');

  let requestStop: () => void = () => undefined;
  const stopRequested = new Promise<'stop'>((resolve) => {
    requestStop = () => resolve('stop');
  });

  const lead = async (): Promise<'lost' | 'stopped'> => {
    if (elector && !(await elector.acquire())) return 'stopped';
    if (!stopping) {
      operator = await startController({ ...options, metrics });
      metrics.isLeader.set(1);
      // The lease is renewed all along, also while the controller shuts down.
      const outcome = await Promise.race([elector?.holdUntilLost() ?? stopRequested, stopRequested]);
      metrics.isLeader.set(0);
      await operator.stop();
      // Lost: another replica may lead already, and this one has stopped acting.
      if (outcome === 'lost') return 'lost';
    }
    await elector?.stop(); // hands the lease over at once
    return 'stopped';
  };
  const done = lead();

  return {
    done,
    address: server?.address() as AddressInfo | undefined,
    get leading() {
      return operator !== undefined && (elector?.isLeader ?? true);
    },
    operator: () => operator,
    metrics,
    async stop() {
      stopping = true;
      requestStop();
      // A standby stops waiting; a leader is stopped by lead() in order: controller, then lease.
      if (elector && !elector.isLeader) await elector.stop();
      await done;
      await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    },
  };
}

async function serve(
  listen: { host: string; port: number },
  probes: { metrics: OperatorMetrics; ready: () => boolean; healthy: () => boolean },
): Promise<Server> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    if (path === '/metrics') {
      probes.metrics.registry.metrics().then(
        (text) => response.writeHead(200, { 'content-type': probes.metrics.registry.contentType }).end(text),
        (error: unknown) => response.writeHead(500).end(String(error)),
      );
      return;
    }
    const probe = path === '/healthz' ? probes.healthy : path === '/readyz' ? probes.ready : undefined;
    if (!probe) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    const ok = probe();
    response.writeHead(ok ? 200 : 503, { 'content-type': 'text/plain' }).end(ok ? 'ok\n' : 'not ready\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port, listen.host, () => resolve());
  });
  return server;
}

/** The namespace the operator runs in: POD_NAMESPACE, the service account's, else default. */
function ownNamespace(): string {
  if (process.env.POD_NAMESPACE) return process.env.POD_NAMESPACE;
  try {
    return readFileSync('/var/run/secrets/kubernetes.io/serviceaccount/namespace', 'utf8').trim();
  } catch {
    return 'default';
  }
}
