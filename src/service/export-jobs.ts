import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type ExportBundle,
  type ExportJob,
  isExportJobId,
  type StartExportRequest,
} from '../contract/admin-api.ts';
import type { ApiConfig, SiteConfig } from '../contract/api-config.ts';
import { ExportJobRecord } from '../contract/records.ts';
import { ExportError } from '../export/errors.ts';
import type { ExportOptionsInput } from '../export/options.ts';
import type { ObjectStore } from '../storage/object-store.ts';
import { ExportLimitExceeded, ServiceRefusal, SourceUnavailable } from './errors.ts';
import { ExportProcessPool, type ExportRunner } from './export-process/pool.ts';
import { FairQueue } from './fair-queue.ts';
import { makeJobWorkDir, removeAbandonedJobWorkDirs } from './job-work-dirs.ts';
import { expiredJobs, type RetentionPolicy } from './retention.ts';
import { checkoutSite } from './site-source.ts';
import type { Slots } from './slots.ts';

/** What the service logs through; pino's logger fits. */
export interface ServiceLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export type ExportJobsConfig = Pick<ApiConfig, 'organizations' | 'sites' | 'links' | 'exports'>;

/** Makes the site's docs repository a directory in workDir; `sourceRef` pins a revision. */
export type CheckoutSource = (
  site: SiteConfig,
  workDir: string,
  signal: AbortSignal,
  sourceRef?: string,
) => Promise<string>;

export interface ExportJobsOptions {
  /** Default: checkoutSite (a path as is, a git repository fetched without credentials). */
  checkout?: CheckoutSource;
  /** Slots shared with other ExportJobs, so many of them in one process run few exports at once. */
  slots?: Slots;
  /**
   * Runs an export; default: a pool of export processes of this ExportJobs, with the limits of
   * `config.exports`. Several ExportJobs of one process share one pool.
   */
  runner?: ExportRunner;
}

const JOBS = 'jobs/';
/** Running jobs write their progress to the store at most this often (the API serves it live). */
const PERSIST_INTERVAL_MS = 1000;
/** Records kept in memory for status reads; older ones are read from the store again. */
const CACHED_RECORDS = 10_000;
/**
 * Runs of one job that a stopped process may leave unfinished before the job fails: a job that
 * takes its server down with it (the host runs out of memory, say) is not started a fourth time.
 */
export const MAX_ATTEMPTS = 3;

/**
 * Static export jobs (spec sections 1, 3 and 4): start, status, bundle. Jobs run in the background
 * under a concurrency limit; their records live in the object store (jobs/<jobId>.json), their
 * archives beside them (bundles/<jobId>.tar.gz), so a restart loses nothing: `recover` queues
 * again every job that was queued or running when the last process stopped.
 */
export class ExportJobs {
  private readonly store: ObjectStore;
  private readonly config: ExportJobsConfig;
  private readonly log: ServiceLogger;
  private readonly records = new Map<string, ExportJobRecord>();
  private readonly queue = new FairQueue();
  private readonly running = new Map<
    string,
    { organization: string; abort: AbortController; done: Promise<void> }
  >();
  private closing = false;
  private readonly checkout: CheckoutSource;
  private readonly slots: Slots | undefined;
  private readonly runner: ExportRunner;
  /** The pool this ExportJobs made for itself (closed with it); undefined when given a runner. */
  private readonly ownPool: ExportProcessPool | undefined;

  constructor(
    store: ObjectStore,
    config: ExportJobsConfig,
    log: ServiceLogger,
    options: ExportJobsOptions = {},
  ) {
    this.store = store;
    this.config = config;
    this.log = log;
    this.checkout = options.checkout ?? ((site, workDir, signal) => checkoutSite(site, workDir, signal));
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

  /** `sourceRef` pins the source revision the job exports (a git commit), for callers that track it. */
  async start(
    organization: string,
    request: StartExportRequest,
    options: { sourceRef?: string } = {},
  ): Promise<ExportJob> {
    this.requireEnterprise(organization);
    const site = this.siteFor(organization, request.domain);
    const { queued: maxQueued } = this.organizationLimits();
    if (this.queue.queued(organization) >= maxQueued)
      throw new ServiceRefusal(
        'too-many',
        `${maxQueued} export jobs of your organization are waiting already; start more once they run`,
      );
    const now = new Date().toISOString();
    const record: ExportJobRecord = {
      jobId: `se_${randomBytes(8).toString('hex')}`,
      status: 'queued',
      progress: 0,
      pageCount: 0,
      createdAt: now,
      updatedAt: now,
      organization,
      domain: site.domain,
      // An empty label or list is none: the whole site, unversioned.
      version: request.version || undefined,
      paths: request.paths?.length ? request.paths : undefined,
      sourceRef: options.sourceRef,
      attempts: 0,
    };
    await this.save(record);
    this.log.info({ jobId: record.jobId, domain: record.domain }, 'export job queued');
    this.enqueue(organization, record.jobId);
    return view(record);
  }

  async get(organization: string, jobId: string): Promise<ExportJob> {
    return view(await this.find(organization, jobId));
  }

  /** A fresh link to the archive of a completed job; the job and its archive stay (spec section 8). */
  async bundle(organization: string, jobId: string): Promise<ExportBundle> {
    const record = await this.find(organization, jobId);
    if (record.status !== 'completed' || !record.archive)
      throw new ServiceRefusal(
        'conflict',
        `export job ${jobId} is ${record.status}; a bundle needs a completed job`,
      );
    const link = await this.store.presignGet(record.archive.key, this.config.links.lifetime);
    const expiresAt = link.expiresAt.toISOString();
    // Retention keeps the archive while any link handed out still works.
    if (!record.linkExpiresAt || record.linkExpiresAt < expiresAt)
      await this.save({ ...record, linkExpiresAt: expiresAt });
    return {
      jobId,
      bundleUrl: link.url,
      sizeBytes: record.archive.sizeBytes,
      expiresAt,
    };
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
      if (!this.config.sites.some((s) => s.domain === record.domain)) {
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

  private enqueue(organization: string, jobId: string): void {
    this.queue.push(organization, jobId);
    this.pump();
  }

  /** Starts queued jobs while slots are free: organizations in turn, each below its running limit. */
  private pump(): void {
    const { concurrency } = this.config.exports;
    const { running: maxRunning } = this.organizationLimits();
    while (!this.closing && this.running.size < concurrency) {
      const next = this.queue.take((organization) => this.runningOf(organization) < maxRunning);
      if (!next) return;
      const { organization, jobId } = next;
      const abort = new AbortController();
      const done = this.run(jobId, abort.signal)
        .catch((error: unknown) => this.log.error({ jobId, err: error }, 'export job bookkeeping failed'))
        .finally(() => {
          this.running.delete(jobId);
          this.pump();
        });
      this.running.set(jobId, { organization, abort, done });
    }
  }

  private async run(jobId: string, signal: AbortSignal): Promise<void> {
    const record =
      this.records.get(jobId) ?? ExportJobRecord.parse(await this.store.getJson(`${JOBS}${jobId}.json`));
    const site = this.config.sites.find((s) => s.domain === record.domain);
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
    const workDir = await makeJobWorkDir(this.config.exports.workDir ?? tmpdir());
    let lastSaved = Date.now();
    try {
      const source = await this.checkout(site, workDir, signal, record.sourceRef);
      const archivePath = join(workDir, 'site.tar.gz');
      const result = await this.runner(
        {
          source,
          archivePath,
          workDir,
          options: exportOptions(
            site,
            record,
            join(this.config.exports.workDir ?? tmpdir(), 'docsnap-openapi-cache'),
          ),
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
      const serverPaths = [
        workDir,
        'path' in site.source ? site.source.path : undefined,
        this.config.exports.workDir,
        tmpdir(),
      ];
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

  private async find(organization: string, jobId: string): Promise<ExportJobRecord> {
    if (!isExportJobId(jobId)) throw new ServiceRefusal('not-found', 'no such export job');
    let record = this.records.get(jobId);
    if (!record) {
      const raw = await this.store.getJson(`${JOBS}${jobId}.json`);
      if (raw !== undefined) {
        record = ExportJobRecord.parse(raw);
        this.remember(record);
      }
    }
    // Another organization's job is as good as absent: its existence is not theirs to learn. An
    // organization without Enterprise has no jobs (it could not start one).
    if (!record || record.organization !== organization)
      throw new ServiceRefusal('not-found', `no export job ${jobId}${this.enterpriseNote(organization)}`);
    return record;
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

  private runningOf(organization: string): number {
    let count = 0;
    for (const job of this.running.values()) if (job.organization === organization) count++;
    return count;
  }

  /** Jobs one organization may have waiting and running; by default half the slots run one tenant's. */
  private organizationLimits(): { queued: number; running: number } {
    const { concurrency, perOrganization } = this.config.exports;
    return {
      queued: perOrganization.queued,
      running: perOrganization.running ?? Math.max(1, Math.floor(concurrency / 2)),
    };
  }

  private enterpriseNote(organization: string): string {
    const org = this.config.organizations.find((o) => o.id === organization);
    return org?.plan === 'enterprise' ? '' : ' (static export requires an Enterprise plan)';
  }

  private requireEnterprise(organization: string): void {
    const org = this.config.organizations.find((o) => o.id === organization);
    if (org?.plan !== 'enterprise')
      throw new ServiceRefusal('forbidden', 'static export requires an Enterprise plan');
  }

  /** An unknown domain and another organization's get the same answer: which domains exist is not a tenant's to learn. */
  private siteFor(organization: string, domain: string): SiteConfig {
    const site = this.config.sites.find((s) => s.domain === domain);
    if (!site || site.organization !== organization)
      throw new ServiceRefusal('forbidden', `${domain} is not a documentation site of your organization`);
    return site;
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

function view(record: ExportJobRecord): ExportJob {
  return {
    jobId: record.jobId,
    status: record.status,
    progress: record.progress,
    pageCount: record.pageCount,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    ...(record.status === 'failed' ? { error: record.error ?? 'the export failed' } : {}),
  };
}

function now(): string {
  return new Date().toISOString();
}
