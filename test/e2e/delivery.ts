import { request } from 'node:http';
import { type CoreV1Api, CustomObjectsApi, type KubeConfig, type V1Pod } from '@kubernetes/client-node';

/**
 * What the end-to-end scenario observes from outside the cluster, as a user would: the site
 * through its Service, StaticExport status, the target Secret, and the time each change takes.
 */

export interface Served {
  status: number;
  body: string;
}

/** One GET on a fresh connection (no keep-alive: each request goes through the Service's routing again). */
export function get(url: string, timeoutMs = 5_000): Promise<Served> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, timeout: timeoutMs }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end();
  });
}

/** Polls `probe` until it returns a value other than undefined; fails naming `what` and the last state. */
export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  options: { timeoutMs?: number; intervalMs?: number; state?: () => Promise<string> | string } = {},
): Promise<T> {
  const { timeoutMs = 120_000, intervalMs = 250, state = () => '' } = options;
  const deadline = Date.now() + timeoutMs;
  let lastError = '';
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = String(error);
    }
    if (Date.now() > deadline)
      throw new Error(`${what}: not within ${timeoutMs / 1000} s. ${lastError} ${await state()}`.trim());
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Requests in a loop from `concurrency` clients until stopped; counts answers and failures by kind. */
export class Load {
  ok = 0;
  readonly failures: Record<string, number> = {};
  private running = true;
  private readonly clients: Promise<void>[];

  constructor(url: string, concurrency: number) {
    this.clients = Array.from({ length: concurrency }, () => this.client(url));
  }

  get failed(): number {
    return Object.values(this.failures).reduce((sum, n) => sum + n, 0);
  }

  async stop(): Promise<{ ok: number; failed: number; failures: Record<string, number> }> {
    this.running = false;
    await Promise.all(this.clients);
    return { ok: this.ok, failed: this.failed, failures: { ...this.failures } };
  }

  private async client(url: string): Promise<void> {
    while (this.running) {
      try {
        const { status } = await get(url, 10_000);
        if (status === 200) this.ok++;
        else this.count(`HTTP ${status}`);
      } catch (error) {
        this.count((error as NodeJS.ErrnoException).code ?? (error as Error).message);
      }
    }
  }

  private count(kind: string): void {
    this.failures[kind] = (this.failures[kind] ?? 0) + 1;
  }
}

export interface StaticExportStatus {
  phase?: string;
  jobId?: string;
  pageCount?: number;
  completedAt?: string;
  bundle?: { jobId?: string; expiresAt?: string; digest?: string };
  conditions?: { type: string; status: string; reason?: string }[];
}

export function staticExports(kubeConfig: KubeConfig) {
  const custom = kubeConfig.makeApiClient(CustomObjectsApi);
  const ref = { group: 'docsnap.dev', version: 'v1alpha1', plural: 'staticexports' };
  return {
    async create(namespace: string, body: object): Promise<void> {
      await custom.createNamespacedCustomObject({ ...ref, namespace, body });
    },
    async status(namespace: string, name: string): Promise<StaticExportStatus> {
      const found = (await custom.getNamespacedCustomObject({ ...ref, namespace, name })) as {
        status?: StaticExportStatus;
      };
      return found.status ?? {};
    },
  };
}

/** The pods of a release, by the chart's instance label. */
export async function releasePods(core: CoreV1Api, namespace: string, release: string): Promise<V1Pod[]> {
  const pods = await core.listNamespacedPod({
    namespace,
    labelSelector: `app.kubernetes.io/instance=${release}`,
  });
  return pods.items.filter((pod) => !pod.metadata?.deletionTimestamp);
}

export function isReady(pod: V1Pod): boolean {
  return pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true;
}

/** Pod name → uid and restart count: equal before and after means no pod was replaced or restarted. */
export function podIdentities(pods: V1Pod[]): Record<string, string> {
  return Object.fromEntries(
    pods.map((pod) => [
      pod.metadata?.name as string,
      `${pod.metadata?.uid} restarts=${pod.status?.containerStatuses?.reduce((n, c) => n + c.restartCount, 0)}`,
    ]),
  );
}

/** Where the time from `git push` to the first response with the new text went. */
export interface FreshnessRun {
  totalMs: number;
  /** push → the operator started an export of the new commit (the source poll). */
  detectMs: number;
  /** export started → the target Secret holds the new bundle's values (export, upload, link, hash, write). */
  exportMs: number;
  /** target written → the Service answers with the new text (the site's watch, download, verify, swap). */
  swapMs: number;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

export function summary(runs: number[]): string {
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  return `min ${s(Math.min(...runs))}, median ${s(median(runs))}, max ${s(Math.max(...runs))}`;
}
