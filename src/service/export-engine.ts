import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExportBundle, ExportJob, StartExportRequest } from '../contract/admin-api.ts';
import type { ApiConfig, SiteConfig } from '../contract/api-config.ts';
import { ExportJobRecord } from '../contract/records.ts';
import { ExportError } from '../export/errors.ts';
import type { ExportOptionsInput } from '../export/options.ts';
import { warningCounts } from '../export/report.ts';
import type { ObjectStore } from '../storage/object-store.ts';
import { ExportLimitExceeded, ServiceRefusal, SourceUnavailable } from './errors.ts';
import { ExportProcessPool, type ExportRunner } from './export-process/pool.ts';
import { FairQueue } from './fair-queue.ts';
import { makeJobWorkDir, removeAbandonedJobWorkDirs } from './job-work-dirs.ts';
import { expiredJobs, type RetentionPolicy } from './retention.ts';
import { checkoutSite } from './site-source.ts';
import { Slots } from './slots.ts';

/** What the service logs through; pino's logger fits. */
export interface ServiceLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface ExportEngineConfig {
  links: ApiConfig['links'];
  exports: Pick<ApiConfig['exports'], 'concurrency' | 'workDir' | 'memoryLimitMiB' | 'timeLimit'> & {
    /** Jobs one owner may have waiting and running (the Admin API's `exports.perOrganization`). */
    perOwner: ApiConfig['exports']['perOrganization'];
  };
}

/** Makes the site's docs repository a directory in workDir; `sourceRef` pins a revision. */
export type CheckoutSource = (
  site: SiteConfig,
  workDir: string,
  signal: AbortSignal,
  sourceRef?: string,
) => Promise<string>;

export interface ExportEngineOptions {
  /**
   * The site a job's domain names now (undefined when it is no longer configured): asked when a
   * job runs, so a job resumed after a restart exports the site as configured then.
   */
  siteOf: (domain: string) => SiteConfig | undefined;
  /** Default: checkoutSite (a path as is, a git repository fetched without credentials). */
  checkout?: CheckoutSource;
  /** Slots shared with other engines, so many of them in one process run few exports at once. */
  slots?: Slots;
  /**
   * Runs an export; default: a pool of export processes of this engine, with the limits of
   * `config.exports`. Several engines of one process share one pool.
   */
  runner?: ExportRunner;
}

const JOBS = 'jobs/';
/** Running jobs write their progress to the store at most this often (status reads serve it live). */
const PERSIST_INTERVAL_MS = 1000;
/** Records kept in memory for status reads; older ones are read from the store again. */
const CACHED_RECORDS = 10_000;
/**
 * Runs of one job that a stopped process may leave unfinished before the job fails: a job that
 * takes its server down with it (the host runs out of memory, say) is not started a fourth time.
 */
export const MAX_ATTEMPTS = 3;
/** How long a page listing may wait for its turn and then take (a start request waits for it). */
const LISTING_WAIT_MS = 20_000;

/**
 * The export job engine: queue, runs, persistence, recovery and retention, with no notion of who
 * may do what (that is the caller's: ExportJobs for the Admin API's tenants, the operator's
 * embedded exporter for one StaticExport). Each job has an owner; the queue takes owners in turn
 * and bounds how many jobs each has waiting and running. Records live in the object store
 * (jobs/<jobId>.json), archives beside them (bundles/<jobId>.tar.gz), so a restart loses nothing:
 * `recover` queues again every job that was queued or running when the last process stopped.
 */
export class ExportEngine {
  private readonly store: ObjectStore;
  private readonly config: ExportEngineConfig;
  private readonly log: ServiceLogger;
  private readonly siteOf: (domain: string) => SiteConfig | undefined;
  private readonly records = new Map<string, ExportJobRecord>();
  private readonly queue = new FairQueue();
  private readonly running = new Map<
    string,
    { owner: string; abort: AbortController; done: Promise<void> }
  >();
  private closing = false;
  private readonly listings: Slots;
  private readonly checkout: CheckoutSource;
  private readonly slots: Slots | undefined;
  private readonly runner: ExportRunner;
  /** The pool this engine made for itself (closed with it); undefined when given a runner. */
  private readonly ownPool: ExportProcessPool | undefined;

  constructor(
    store: ObjectStore,
    config: ExportEngineConfig,
    log: ServiceLogger,
    options: ExportEngineOptions,
  ) {
    this.store = store;
    this.config = config;
    this.log = log;
    this.siteOf = options.siteOf;
    this.listings = new Slots(config.exports.concurrency);
    this.checkout =
      options.checkout ??
      ((site, workDir, signal, revision) => checkoutSite(site, workDir, signal, { revision }));
    this.slots = options.slots;
    if (options.runner) this.runner = options.runner;
    else {
      this.ownPool = new ExportProcessPool({
        log,
        limits: { memoryMiB: config.exports.memoryLimitMiB, timeoutMs: config.exports.timeLimit },
        maxIdle: config.exports.concurrency,
      });
      this.runner = this.ownPool.run;
    }
  }

  /**
   * Queues an export of `site` for `owner`; `sourceRef` pins the source revision (a git commit).
   * Refused with too-many when the owner has its limit of jobs waiting.
   */
  async submit(
    owner: string,
    site: SiteConfig,
    request: Pick<StartExportRequest, 'version' | 'paths'>,
    options: { sourceRef?: string } = {},
  ): Promise<ExportJobRecord> {
    const maxQueued = this.config.exports.perOwner.queued;
    if (this.queue.queued(owner) >= maxQueued)
      throw new ServiceRefusal(
        'too-many',
        `${maxQueued} export jobs of yours are waiting already; start more once they run`,
      );
    const now = new Date().toISOString();
    const record: ExportJobRecord = {
      jobId: `se_${randomBytes(8).toString('hex')}`,
      status: 'queued',
      progress: 0,
      pageCount: 0,
      createdAt: now,
      updatedAt: now,
      organization: owner,
      domain: site.domain,
      // An empty label or list is none: the whole site, unversioned.
      version: request.version || undefined,
      paths: request.paths?.length ? request.paths : undefined,
      sourceRef: options.sourceRef,
      attempts: 0,
    };
    await this.save(record);
    this.log.info({ jobId: record.jobId, domain: record.domain }, 'export job queued');
    this.enqueue(owner, record.jobId);
    return record;
  }

  /**
   * The routes of every page of the site at `sourceRef`, loaded in an export process with the
   * export's checks and limits: how the paths of a request are checked before its job is queued.
   * Listings run at most `exports.concurrency` at once, beside the exports.
   */
  async pageRoutes(site: SiteConfig, sourceRef?: string): Promise<{ routes: string[]; home: string }> {
    const release = await this.listings.acquire(AbortSignal.timeout(LISTING_WAIT_MS));
    const scratch = this.config.exports.workDir ?? tmpdir();
    const workDir = await makeJobWorkDir(scratch);
    try {
      const signal = AbortSignal.timeout(LISTING_WAIT_MS);
      const source = await this.checkout(site, workDir, signal, sourceRef);
      const result = await this.runner(
        {
          source,
          archivePath: join(workDir, 'unused.tar.gz'),
          workDir,
          options: exportOptions(site, {}, join(scratch, 'docsnap-openapi-cache')),
          pagesOnly: true,
        },
        { signal, onProgress: () => {} },
      );
      return { routes: result.routes ?? [], home: result.home ?? '' };
    } finally {
      release();
      await rm(workDir, { recursive: true, force: true });
    }
  }

  /** The job's record, from memory or the store; undefined when there is none. */
  async find(jobId: string): Promise<ExportJobRecord | undefined> {
    let record = this.records.get(jobId);
    if (!record) {
      const raw = await this.store.getJson(`${JOBS}${jobId}.json`);
      if (raw !== undefined) {
        record = ExportJobRecord.parse(raw);
        this.remember(record);
      }
    }
    return record;
  }

  /** A fresh link to the archive of a completed job; the job and its archive stay (spec section 8). */
  async bundle(record: ExportJobRecord): Promise<ExportBundle> {
    if (record.status !== 'completed' || !record.archive)
      throw new ServiceRefusal(
        'conflict',
        `export job ${record.jobId} is ${record.status}; a bundle needs a completed job`,
      );
    const link = await this.store.presignGet(record.archive.key, this.config.links.lifetime);
    const expiresAt = link.expiresAt.toISOString();
    // Retention keeps the archive while any link handed out still works.
    if (!record.linkExpiresAt || record.linkExpiresAt < expiresAt)
      await this.save({ ...record, linkExpiresAt: expiresAt });
    return { jobId: record.jobId, bundleUrl: link.url, sizeBytes: record.archive.sizeBytes, expiresAt };
  }

  /** Queues again the jobs a stopped process left queued or running; returns their ids. */
  async recover(): Promise<string[]> {
    const abandoned = await removeAbandonedJobWorkDirs(this.config.exports.workDir ?? tmpdir());
    if (abandoned.length > 0)
      this.log.info(
        { count: abandoned.length },
        'removed the work directories of exports a stopped process left',
      );
    const resumed: string[] = [];
    for (const key of await this.store.list(JOBS)) {
      const parsed = ExportJobRecord.safeParse(await this.store.getJson(key));
      if (!parsed.success) {
        this.log.warn({ key }, 'skipping a stored export job that is not a valid record');
        continue;
      }
      const record = parsed.data;
      if (record.status !== 'queued' && record.status !== 'running') continue;
      if (record.attempts >= MAX_ATTEMPTS) {
        await this.finish(record, {
          status: 'failed',
          error: `the export was interrupted ${record.attempts} times (the server stopped while it ran); it is not started again`,
        });
        continue;
      }
      if (!this.siteOf(record.domain)) {
        await this.finish(record, {
          status: 'failed',
          error: `the server restarted while this job was ${record.status}, and ${record.domain} is no longer configured`,
        });
        continue;
      }
      await this.save({ ...record, status: 'queued', updatedAt: new Date().toISOString() });
      this.enqueue(record.organization, record.jobId);
      resumed.push(record.jobId);
    }
    if (resumed.length > 0) this.log.info({ jobs: resumed }, 'resumed export jobs interrupted by a restart');
    return resumed;
  }

  /**
   * Stops taking work: running exports are cancelled and their jobs stay queued in the store, so
   * the next process resumes them.
   */
  async close(): Promise<void> {
    this.closing = true;
    this.queue.clear();
    for (const job of this.running.values()) job.abort.abort();
    await Promise.all([...this.running.values()].map((job) => job.done));
    await this.ownPool?.close();
  }

  /**
   * Deletes the finished jobs the policy no longer keeps, archive first, then record (a record
   * without its archive would promise a bundle it cannot give). Returns their ids.
   */
  async sweep(policy: RetentionPolicy, now = Date.now()): Promise<string[]> {
    const records: ExportJobRecord[] = [];
    for (const key of await this.store.list(JOBS)) {
      const parsed = ExportJobRecord.safeParse(await this.store.getJson(key));
      if (parsed.success) records.push(parsed.data);
    }
    const expired = expiredJobs(records, policy, now);
    for (const jobId of expired) {
      const record = records.find((r) => r.jobId === jobId) as ExportJobRecord;
      if (record.archive) await this.store.delete(record.archive.key);
      await this.store.delete(`${JOBS}${jobId}.json`);
      this.records.delete(jobId);
    }
    if (expired.length > 0)
      this.log.info({ count: expired.length }, 'deleted export jobs past their retention');
    return expired;
  }

  /** Sweeps now and every `intervalMs`; returns the stop. */
  keepRetention(policy: RetentionPolicy, intervalMs: number): () => void {
    const sweep = () =>
      void this.sweep(policy).catch((error: unknown) =>
        this.log.warn({ err: (error as Error).message }, 'retention sweep failed; it runs again later'),
      );
    sweep();
    const timer = setInterval(sweep, intervalMs).unref();
    return () => clearInterval(timer);
  }

  private enqueue(owner: string, jobId: string): void {
    this.queue.push(owner, jobId);
    this.pump();
  }

  /** Starts queued jobs while slots are free: owners in turn, each within its running limit. */
  private pump(): void {
    const { concurrency } = this.config.exports;
    while (!this.closing && this.running.size < concurrency) {
      const next = this.queue.take((owner) => this.mayRunAnother(owner));
      if (!next) return;
      const { owner, jobId } = next;
      const abort = new AbortController();
      const done = this.run(jobId, abort.signal)
        .catch((error: unknown) => this.log.error({ jobId, err: error }, 'export job bookkeeping failed'))
        .finally(() => {
          this.running.delete(jobId);
          this.pump();
        });
      this.running.set(jobId, { owner, abort, done });
    }
  }

  private async run(jobId: string, signal: AbortSignal): Promise<void> {
    const record = await this.find(jobId);
    if (!record) return; // swept meanwhile
    const site = this.siteOf(record.domain);
    if (!site) {
      await this.finish(record, { status: 'failed', error: `${record.domain} is no longer configured` });
      return;
    }
    // Shutting down while waiting for a slot: the job stays queued for the next process.
    const release = await this.slots?.acquire(signal).catch(() => null);
    if (release === null) return;
    try {
      await this.export(record, site, signal);
    } finally {
      release?.();
    }
  }

  private async export(queued: ExportJobRecord, site: SiteConfig, signal: AbortSignal): Promise<void> {
    const { jobId } = queued;
    let record: ExportJobRecord = {
      ...queued,
      status: 'running',
      progress: 0,
      attempts: queued.attempts + 1,
      updatedAt: now(),
    };
    await this.save(record);
    const scratch = this.config.exports.workDir ?? tmpdir();
    const workDir = await makeJobWorkDir(scratch);
    let lastSaved = Date.now();
    try {
      const source = await this.checkout(site, workDir, signal, record.sourceRef);
      const archivePath = join(workDir, 'site.tar.gz');
      const result = await this.runner(
        {
          source,
          archivePath,
          workDir,
          options: exportOptions(site, record, join(scratch, 'docsnap-openapi-cache')),
        },
        {
          signal,
          onProgress: (progress) => {
            // Live in memory for status reads; to the store now and then, so a reader elsewhere sees it too.
            record = {
              ...record,
              progress: Math.min(progress.progress, 99),
              pageCount: progress.pageCount,
              updatedAt: now(),
            };
            this.remember(record);
            if (Date.now() - lastSaved >= PERSIST_INTERVAL_MS) {
              lastSaved = Date.now();
              this.save(record).catch((error: unknown) =>
                this.log.warn({ jobId, err: error }, 'could not store progress'),
              );
            }
          },
        },
      );
      const key = `bundles/${jobId}.tar.gz`;
      await this.store.putFile(key, archivePath, 'application/gzip');
      const archive = result.archive as NonNullable<typeof result.archive>;
      await this.finish(record, {
        status: 'completed',
        progress: 100,
        pageCount: result.pageCount,
        archive: { key, sizeBytes: archive.sizeBytes, sha256: archive.sha256 },
        warnings: warningCounts(result.warnings),
      });
      this.log.info(
        { jobId, pageCount: result.pageCount, warnings: result.warnings.length },
        'export job completed',
      );
    } catch (error) {
      if (this.closing && signal.aborted) {
        // Shutting down: the job stays queued for the next process.
        await this.save({ ...record, status: 'queued', progress: 0, updatedAt: now() });
        return;
      }
      const serverPaths = [workDir, 'path' in site.source ? site.source.path : undefined, scratch, tmpdir()];
      const message = hideServerPaths(failureMessage(error), serverPaths);
      // Unexpected errors are reported to the caller without details: the log keeps them.
      this.log.warn({ jobId, reason: message, err: error }, 'export job failed');
      await this.finish(record, { status: 'failed', error: message });
    } finally {
      await rm(workDir, { recursive: true, force: true });
    }
  }

  private async finish(record: ExportJobRecord, change: Partial<ExportJobRecord>): Promise<void> {
    await this.save({ ...record, ...change, updatedAt: now() });
  }

  private async save(record: ExportJobRecord): Promise<void> {
    this.remember(record);
    await this.store.putJson(`${JOBS}${record.jobId}.json`, record);
  }

  private remember(record: ExportJobRecord): void {
    this.records.delete(record.jobId);
    this.records.set(record.jobId, record);
    if (this.records.size > CACHED_RECORDS) {
      for (const [id] of this.records) {
        if (this.running.has(id)) continue;
        this.records.delete(id);
        break;
      }
    }
  }

  private runningOf(owner: string): number {
    let count = 0;
    for (const job of this.running.values()) if (job.owner === owner) count++;
    return count;
  }

  /**
   * A configured running limit holds always. By default an owner may take half the slots while
   * another owner's jobs wait, and every slot when nobody else's do: a free slot left idle helps
   * no one.
   */
  private mayRunAnother(owner: string): boolean {
    const { concurrency, perOwner } = this.config.exports;
    const running = this.runningOf(owner);
    if (perOwner.running !== undefined) return running < perOwner.running;
    const othersWait = this.queue.size > this.queue.queued(owner);
    return !othersWait || running < Math.max(1, Math.floor(concurrency / 2));
  }
}

/** The export options of a job: the site's settings as configured; the pipeline supplies the defaults. */
export function exportOptions(
  site: SiteConfig,
  record: Pick<ExportJobRecord, 'version' | 'paths'>,
  specCache = join(tmpdir(), 'docsnap-openapi-cache'),
): ExportOptionsInput {
  return {
    deployment: site.deployment,
    siteUrl: site.siteUrl,
    version: record.version,
    paths: record.paths,
    openapiOverrides: site.openapiOverrides,
    features: site.features,
    ...(site.strict ? { strict: true } : {}),
    ...(site.playgroundOrigins ? { playgroundOrigins: site.playgroundOrigins } : {}),
    ...(site.remoteSpecs
      ? {
          remoteSpecs: {
            cacheDir: join(specCache, site.domain),
            privateHosts: site.remoteSpecs.privateHosts,
          },
        }
      : {}),
  };
}

/** What a failed job tells its caller: the export's own message for bad content, no internals otherwise. */
function failureMessage(error: unknown): string {
  if (error instanceof ExportError) {
    const problems = error.problems
      .slice(0, 5)
      .map((p) => `${p.file}${p.line ? `:${p.line}` : ''}: ${p.message}`);
    return [error.message, ...problems].filter(Boolean).join('; ');
  }
  if (error instanceof SourceUnavailable || error instanceof ExportLimitExceeded) return error.message;
  return 'the export failed unexpectedly; the server log has the details';
}

/**
 * A message as a client may read it: the server's own directories (the work directory, a path
 * source, the temporary directory) never show. Paths inside them become repository-relative, the
 * directories themselves "[server path]", and Node's "ENOENT: …, open '/…'" its code alone.
 */
export function hideServerPaths(message: string, paths: (string | undefined)[]): string {
  let hidden = message.replace(/\b(E[A-Z]+): [^,]*, \w+ '[^']*'(?: -> '[^']*')?/g, '$1');
  for (const path of paths
    .filter((p): p is string => Boolean(p) && p !== '/')
    .sort((a, b) => b.length - a.length))
    hidden = hidden.split(`${path}/`).join('').split(path).join('[server path]');
  return hidden;
}

/** A job as the wire shows it: no owner, domain, archive or attempts. */
export function jobView(record: ExportJobRecord): ExportJob {
  return {
    jobId: record.jobId,
    status: record.status,
    progress: record.progress,
    pageCount: record.pageCount,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    ...(record.status === 'failed' ? { error: record.error ?? 'the export failed' } : {}),
    ...(record.warnings ? { warnings: record.warnings } : {}),
  };
}

function now(): string {
  return new Date().toISOString();
}
