import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import { AggregatorRegistry, Registry } from 'prom-client';
import type { VerifiedBundle } from './bundle-cache.ts';
import { close, listen, siteServer } from './http-servers.ts';
import { ResponseMetrics } from './metrics.ts';
import { LocalSites, type Sites } from './served-sites.ts';
import { SiteHandler, type SiteHeaderSettings } from './site-handler.ts';

/**
 * `docsnap serve --workers N`: N processes answer requests, as nginx runs a worker per core. The
 * primary process decides (values, downloads, verification, the cache, probes and metrics); the
 * workers only serve, each from the unpacked bundle on disk, and switch version when told. A
 * worker that dies is replaced and told what to serve.
 */

type ToWorker =
  | { docsnap: 'show'; bundle: VerifiedBundle }
  | { docsnap: 'unavailable'; message: string }
  | { docsnap: 'busy?'; id: number }
  | { docsnap: 'keep'; sha256s: string[] }
  | { docsnap: 'stop' };

type FromWorker = { docsnap: 'listening'; url: string } | { docsnap: 'busy'; id: number; sha256s: string[] };

interface Question {
  pending: Set<Worker>;
  busy: Set<string>;
  done: () => void;
}

/** How long a worker has to say which versions it is sending from before all are kept. */
const BUSY_ANSWER_MS = 2_000;
/** How long a worker has to finish its responses when stopping (site-server close allows 10 s). */
const STOP_GRACE_MS = 12_000;

export interface SiteFront {
  url: string;
  sites: Sites;
  /** False while no process is accepting requests. */
  serving(): boolean;
  /** Metrics counted elsewhere (the workers'), in the text format; '' when none. */
  moreMetrics(): Promise<string>;
  stop(): Promise<void>;
}

/** The primary's side: forks the workers and speaks for them as one `Sites`. */
export async function startSiteWorkers(count: number, log: Logger): Promise<SiteFront> {
  const sites = new WorkerSites(log);
  const aggregator = new AggregatorRegistry();
  let stopping = false;
  const url = new Promise<string>((resolve) => {
    cluster.on('message', (worker: Worker, message: FromWorker) => {
      if (message?.docsnap === 'listening') {
        sites.joined(worker);
        resolve(message.url);
      } else if (message?.docsnap === 'busy') sites.answered(worker, message.id, message.sha256s);
    });
  });
  cluster.on('exit', (worker, code, signal) => {
    sites.left(worker);
    if (stopping) return;
    log.error({ worker: worker.id, code, signal }, 'a serving process ended; starting another');
    setTimeout(() => cluster.fork(), 1_000).unref();
  });
  for (let i = 0; i < count; i++) cluster.fork();
  return {
    url: await url,
    sites,
    serving: () => sites.listening() > 0,
    moreMetrics: () => aggregator.clusterMetrics().catch(() => ''),
    stop: async () => {
      stopping = true;
      const workers = Object.values(cluster.workers ?? {}).filter((w) => w !== undefined);
      await Promise.all(
        workers.map(
          (worker) =>
            new Promise<void>((resolve) => {
              if (worker.isDead()) return resolve();
              const kill = setTimeout(() => worker.process.kill('SIGKILL'), STOP_GRACE_MS);
              worker.once('exit', () => {
                clearTimeout(kill);
                resolve();
              });
              send(worker, { docsnap: 'stop' });
            }),
        ),
      );
    },
  };
}

function send(worker: Worker, message: ToWorker): void {
  if (worker.isConnected()) worker.send(message);
}

/** The workers as one `Sites`: every order goes to each, and a worker that joins later gets the current one. */
class WorkerSites implements Sites {
  private readonly log: Logger;
  private readonly workers = new Set<Worker>();
  private current: ToWorker | undefined;
  /** Versions any worker was told to serve and not yet told to drop. */
  private readonly shown = new Set<string>();
  private nextQuestion = 0;
  private readonly questions = new Map<number, Question>();

  constructor(log: Logger) {
    this.log = log;
  }

  joined(worker: Worker): void {
    this.workers.add(worker);
    if (this.current) send(worker, this.current);
  }

  left(worker: Worker): void {
    this.workers.delete(worker);
    // A question it will never answer is settled without it.
    for (const [id, question] of this.questions) {
      question.pending.delete(worker);
      if (question.pending.size === 0) this.settle(id);
    }
  }

  listening(): number {
    return this.workers.size;
  }

  show(bundle: VerifiedBundle): void {
    this.shown.add(bundle.sha256);
    this.broadcast({ docsnap: 'show', bundle });
  }

  unavailable(message: string): void {
    this.broadcast({ docsnap: 'unavailable', message });
  }

  busy(): Promise<Set<string>> {
    const id = this.nextQuestion++;
    return new Promise((resolve) => {
      const busy = new Set<string>();
      const timer = setTimeout(() => {
        // Unanswered: every version a worker may hold counts as busy, so nothing is removed too early.
        this.log.warn('a serving process did not say which versions it is sending from; keeping them all');
        for (const sha256 of this.shown) busy.add(sha256);
        this.settle(id);
      }, BUSY_ANSWER_MS).unref();
      this.questions.set(id, {
        pending: new Set(this.workers),
        busy,
        done: () => {
          clearTimeout(timer);
          resolve(busy);
        },
      });
      if (this.workers.size === 0) this.settle(id);
      for (const worker of this.workers) send(worker, { docsnap: 'busy?', id });
    });
  }

  answered(worker: Worker, id: number, sha256s: string[]): void {
    const question = this.questions.get(id);
    if (!question) return;
    for (const sha256 of sha256s) question.busy.add(sha256);
    question.pending.delete(worker);
    if (question.pending.size === 0) this.settle(id);
  }

  keepOnly(sha256s: ReadonlySet<string>): void {
    for (const sha256 of this.shown) if (!sha256s.has(sha256)) this.shown.delete(sha256);
    for (const worker of this.workers) send(worker, { docsnap: 'keep', sha256s: [...sha256s] });
  }

  private settle(id: number): void {
    const question = this.questions.get(id);
    this.questions.delete(id);
    question?.done();
  }

  private broadcast(message: ToWorker): void {
    this.current = message;
    for (const worker of this.workers) send(worker, message);
  }
}

export interface SiteWorkerOptions extends SiteHeaderSettings {
  listen: { host: string; port: number };
  log: Logger;
}

/** A worker's side: serves what the primary says, until told to stop. */
export async function runSiteWorker(options: SiteWorkerOptions): Promise<void> {
  const registry = new Registry();
  const responses = new ResponseMetrics(registry);
  // The primary sums the workers' counts when Prometheus scrapes it.
  AggregatorRegistry.setRegistries([registry]);
  new AggregatorRegistry();
  const handler = new SiteHandler(options, (status) => responses.response(status));
  const sites = new LocalSites(handler);
  const server = siteServer(handler);
  process.on('message', (message: ToWorker) => {
    switch (message?.docsnap) {
      case 'show':
        return sites.show(message.bundle);
      case 'unavailable':
        return sites.unavailable(message.message);
      case 'busy?':
        return process.send?.({ docsnap: 'busy', id: message.id, sha256s: [...sites.busyNow()] });
      case 'keep':
        return sites.keepOnly(new Set(message.sha256s));
      case 'stop':
        return void close(server).then(() => process.exit(0));
    }
  });
  // Signals go to the whole process group; the primary decides when a worker stops.
  process.on('SIGTERM', () => {});
  process.on('SIGINT', () => {});
  process.send?.({ docsnap: 'listening', url: await listen(server, options.listen) });
  options.log.debug({ worker: cluster.worker?.id }, 'serving process ready');
}
