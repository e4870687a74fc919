import type { ExportBundle, ExportJob } from '../../contract/admin-api.ts';
import type { StaticExport, StaticExportStatus, TargetStatus } from '../../contract/static-export.ts';
import { type Exporter, ExportJobLost } from '../exporters/exporter.ts';
import { kubeMessage } from '../runtime/kube-errors.ts';
import { bundleDigest } from './bundle-digest.ts';
import { requestedAt } from './policies.ts';
import { targetErrors } from './readiness.ts';
import {
  failureBackoff,
  MIN_LINK_LIFETIME_MS,
  pollDelay,
  pollInterval,
  renewalTime,
  type Timing,
} from './timing.ts';

/*
 * The steps a reconcile takes once it has decided: start, follow, deliver, refresh. Each calls
 * the exporter or the targets and returns what changed; none writes status or decides readiness.
 */

export interface ActionContext {
  resource: StaticExport;
  status: StaticExportStatus;
  exporter: Exporter;
  now: Date;
  timing: Timing;
  /** Aborted when this process loses leadership: nothing is written after that. */
  signal: AbortSignal;
  writeTargets: (bundleUrl: string, version: string) => Promise<TargetStatus[]>;
}

export interface RecordedEvent {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

export interface Change {
  status: Partial<StaticExportStatus>;
  events: RecordedEvent[];
  /** When the resource wants its next reconcile (epoch ms). */
  wakeAt: number[];
}

/** Bundles from this size on are delivered in a reconcile of their own, so Bundling shows meanwhile. */
export const VISIBLE_BUNDLING_BYTES = 8 * 2 ** 20;

const change = (
  status: Partial<StaticExportStatus>,
  events: RecordedEvent[] = [],
  wakeAt: number[] = [],
): Change => ({
  status,
  events,
  wakeAt,
});

/** Starts an export; the job id goes into status before anything else happens. */
export async function startExport(
  ctx: ActionContext,
  message: string,
  revision: string | undefined,
): Promise<Change> {
  const { spec, metadata } = ctx.resource;
  const attempt = {
    jobGeneration: metadata.generation,
    jobRequestedAt: requestedAt(ctx.resource) || undefined,
    jobRevision: revision,
  };
  let job: ExportJob;
  try {
    job = await ctx.exporter.start(
      { domain: spec.domain, version: spec.version, paths: spec.paths },
      { revision },
    );
  } catch (error) {
    return failed(ctx, `starting the export failed: ${kubeMessage(error)}`, attempt);
  }
  const now = ctx.now.getTime();
  return change(
    {
      ...attempt,
      jobId: job.jobId,
      jobStatus: job.status === 'queued' ? 'queued' : 'running',
      progress: job.progress,
      pageCount: job.pageCount,
      startedAt: ctx.now.toISOString(),
      completedAt: undefined,
      error: undefined,
    },
    [{ type: 'Normal', reason: 'ExportStarted', message: `export job ${job.jobId} started: ${message}` }],
    [now + pollInterval(spec, ctx.timing)],
  );
}

/** Polls the running export; delivers its bundle when it completes. */
export async function followExport(ctx: ActionContext): Promise<Change> {
  const { status } = ctx;
  const jobId = status.jobId as string;
  let job: ExportJob;
  try {
    job = await ctx.exporter.status(jobId);
  } catch (error) {
    if (error instanceof ExportJobLost) return failed(ctx, error.message);
    throw error;
  }
  if (job.status === 'failed') return failed(ctx, job.error ?? `export job ${job.jobId} failed`);
  if (job.status !== 'completed') {
    const interval = pollInterval(ctx.resource.spec, ctx.timing);
    return change(
      { jobStatus: job.status, progress: job.progress, pageCount: job.pageCount },
      [],
      [ctx.now.getTime() + pollDelay(job.status, status.startedAt, interval, ctx.now.getTime())],
    );
  }
  return deliverBundle(ctx, job);
}

/** A completed job's bundle: link, digest, targets. */
export async function deliverBundle(ctx: ActionContext, job: ExportJob): Promise<Change> {
  const now = ctx.now.getTime();
  const completed = { jobStatus: 'completed' as const, progress: job.progress, pageCount: job.pageCount };
  let link: ExportBundle;
  let digest: string;
  try {
    link = await ctx.exporter.bundle(job.jobId);
    // Hashing a big archive takes a while: say Bundling first, in a reconcile of its own.
    if (link.sizeBytes >= VISIBLE_BUNDLING_BYTES && ctx.status.jobStatus !== 'completed')
      return change(completed, [], [now]);
    const tooShort = shortLinkMessage(link, now);
    if (tooShort) return undelivered(ctx, completed, tooShort);
    digest = await bundleDigest(link.bundleUrl, ctx.signal);
  } catch (error) {
    if (error instanceof ExportJobLost) return failed(ctx, error.message);
    ctx.signal.throwIfAborted();
    return undelivered(
      ctx,
      completed,
      `fetching the bundle of job ${job.jobId} failed: ${kubeMessage(error)}`,
    );
  }
  const version = ctx.resource.spec.version ?? digest;
  ctx.signal.throwIfAborted();
  const targets = await ctx.writeTargets(link.bundleUrl, version);
  const bundle = {
    jobId: job.jobId,
    sizeBytes: link.sizeBytes,
    digest,
    version,
    expiresAt: link.expiresAt,
    renewalTime: new Date(renewalAt(ctx, link, now)).toISOString(),
    refreshedAt: ctx.now.toISOString(),
  };
  return change(
    {
      ...completed,
      progress: 100,
      warnings: job.warnings,
      completedAt: ctx.now.toISOString(),
      error: undefined,
      refreshError: undefined,
      failures: undefined,
      lastFailureAt: undefined,
      bundle,
      targets,
    },
    [
      {
        type: 'Normal',
        reason: 'BundleReady',
        message: `export job ${job.jobId}: ${job.pageCount} pages, ${job.warnings?.count ?? 0} warnings, ${link.sizeBytes} bytes, link valid until ${link.expiresAt}`,
      },
      ...targetEvents(targets),
    ],
    [Date.parse(bundle.renewalTime), ...targetRetry(ctx, targets, now)],
  );
}

/** A fresh link for the bundle in the targets: at its renewal time, or to retry what failed. */
export async function refreshLink(ctx: ActionContext): Promise<Change> {
  const bundle = ctx.status.bundle as NonNullable<StaticExportStatus['bundle']>;
  const now = ctx.now.getTime();
  const attemptAt = ctx.now.toISOString();
  const refusal = (message: string): Change => {
    const refreshFailures = (bundle.refreshFailures ?? 0) + 1;
    return change(
      { refreshError: message, bundle: { ...bundle, refreshedAt: attemptAt, refreshFailures } },
      [{ type: 'Warning', reason: 'RefreshFailed', message }],
      [now + failureBackoff(refreshFailures, ctx.timing)],
    );
  };
  let link: ExportBundle;
  try {
    link = await ctx.exporter.bundle(bundle.jobId);
  } catch (error) {
    ctx.signal.throwIfAborted();
    return refusal(`refreshing the bundle link of job ${bundle.jobId} failed: ${kubeMessage(error)}`);
  }
  const tooShort = shortLinkMessage(link, now);
  if (tooShort) return refusal(tooShort);
  ctx.signal.throwIfAborted();
  const targets = await ctx.writeTargets(link.bundleUrl, bundle.version);
  const refreshed = {
    ...bundle,
    expiresAt: link.expiresAt,
    renewalTime: new Date(renewalAt(ctx, link, now)).toISOString(),
    refreshedAt: attemptAt,
    refreshFailures: undefined,
  };
  const events: RecordedEvent[] = targets.some((t) => t.error)
    ? targetEvents(targets)
    : [
        {
          type: 'Normal',
          reason: 'LinkRefreshed',
          message: `fresh bundle link, valid until ${link.expiresAt}`,
        },
      ];
  return change({ bundle: refreshed, targets, refreshError: undefined }, events, [
    Date.parse(refreshed.renewalTime),
    ...targetRetry(ctx, targets, now),
  ]);
}

/** A link that would expire before it can be used: a failure, retried with backoff. */
function shortLinkMessage(link: ExportBundle, now: number): string | undefined {
  const lifetime = Date.parse(link.expiresAt) - now;
  if (lifetime >= MIN_LINK_LIFETIME_MS) return undefined;
  return `the exporter handed out a link of job ${link.jobId} that works for ${Math.max(0, Math.round(lifetime / 1000))} s, less than the ${MIN_LINK_LIFETIME_MS / 1000} s needed to deliver it: check the exporter's link lifetime`;
}

function renewalAt(ctx: ActionContext, link: ExportBundle, now: number): number {
  return renewalTime(
    link.expiresAt,
    ctx.resource.spec.bundle?.renewBefore,
    ctx.resource.metadata.uid,
    now,
    ctx.timing,
  );
}

function targetEvents(targets: TargetStatus[]): RecordedEvent[] {
  const errors = targetErrors(targets);
  return errors ? [{ type: 'Warning', reason: 'TargetWriteFailed', message: errors }] : [];
}

function targetRetry(ctx: ActionContext, targets: TargetStatus[], now: number): number[] {
  return targets.some((t) => t.error) ? [now + failureBackoff(1, ctx.timing)] : [];
}

/** The job completed but its bundle could not be delivered: counted, and tried again after a backoff. */
function undelivered(ctx: ActionContext, completed: Partial<StaticExportStatus>, message: string): Change {
  const failures = (ctx.status.failures ?? 0) + 1;
  return change(
    { ...completed, error: message, failures, lastFailureAt: ctx.now.toISOString() },
    [{ type: 'Warning', reason: 'BundleFailed', message }],
    [ctx.now.getTime() + failureBackoff(failures, ctx.timing)],
  );
}

/** The export (or its start) failed: counted, and retried after a backoff by the policies. */
function failed(ctx: ActionContext, message: string, attempt: Partial<StaticExportStatus> = {}): Change {
  const failures = (ctx.status.failures ?? 0) + 1;
  return change(
    { ...attempt, jobStatus: 'failed', error: message, failures, lastFailureAt: ctx.now.toISOString() },
    [{ type: 'Warning', reason: 'ExportFailed', message: `${message} (failure ${failures} in a row)` }],
    [ctx.now.getTime() + failureBackoff(failures, ctx.timing)],
  );
}
