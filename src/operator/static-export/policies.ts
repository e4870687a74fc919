import { parseDuration } from '../../contract/duration.ts';
import {
  EXPORT_REQUESTED_ANNOTATION,
  type StaticExport,
  type StaticExportStatus,
} from '../../contract/static-export.ts';
import { failureBackoff, MIN_REFRESH_INTERVAL_MS, type Timing } from './timing.ts';

/*
 * Why to act, as cert-manager's trigger policies decide (internal/controller/certificates/
 * policies): each reason is a small pure function of the resource, what was observed and the
 * time, and the chain takes the first that has something to say. Nothing here calls anything.
 */

/** What a reconcile observed, besides the resource itself. */
export interface Observed {
  resource: Pick<StaticExport, 'metadata' | 'spec'>;
  status: StaticExportStatus;
  /** The source's current revision (embedded exporter), when known. */
  revision?: string;
  now: number;
  timing: Timing;
}

export type ExportReason = 'FirstExport' | 'SpecChanged' | 'Requested' | 'NewRevision' | 'Retry' | 'Reexport';
export type RefreshReason = 'RenewalTime' | 'TargetFailed';

/** A policy's answer: act for a reason, hold until a time (nothing before it), or no opinion. */
export type Verdict<R> = { act: R; message: string } | { holdUntil: number } | undefined;
type Policy<R> = (observed: Observed) => Verdict<R>;

/** The export-requested-at annotation's value ("" when there is none). */
export function requestedAt(resource: Pick<StaticExport, 'metadata'>): string {
  return resource.metadata.annotations?.[EXPORT_REQUESTED_ANNOTATION] ?? '';
}

/** The job of the status is for this generation, annotation and revision. */
export function attemptIsCurrent({ resource, status, revision }: Observed): boolean {
  return (
    status.jobGeneration === resource.metadata.generation &&
    (status.jobRequestedAt ?? '') === requestedAt(resource) &&
    (revision === undefined || status.jobRevision === revision)
  );
}

/** A failed attempt at what is asked now is retried after its backoff, and nothing else starts before. */
export const retryAfterBackoff: Policy<ExportReason> = (observed) => {
  const { status, now, timing } = observed;
  if (status.jobStatus !== 'failed' || !attemptIsCurrent(observed)) return undefined;
  const retryAt = Date.parse(status.lastFailureAt ?? '') + failureBackoff(status.failures, timing);
  if (now < retryAt) return { holdUntil: retryAt };
  return { act: 'Retry', message: `retry after ${status.failures ?? 1} failure(s)` };
};

export const firstExport: Policy<ExportReason> = ({ status }) =>
  status.jobId ? undefined : { act: 'FirstExport', message: 'first export' };

export const specChanged: Policy<ExportReason> = ({ resource, status }) =>
  status.jobGeneration === resource.metadata.generation
    ? undefined
    : { act: 'SpecChanged', message: `spec changed (generation ${resource.metadata.generation})` };

export const exportRequested: Policy<ExportReason> = ({ resource, status }) => {
  const asked = requestedAt(resource);
  return (status.jobRequestedAt ?? '') === asked
    ? undefined
    : { act: 'Requested', message: `requested at ${asked}` };
};

/** New content in the source; while an export runs, it waits: the next one starts from there. */
export const newSourceRevision: Policy<ExportReason> = ({ status, revision }) => {
  if (revision === undefined || status.jobRevision === revision) return undefined;
  if (status.jobStatus === 'queued' || status.jobStatus === 'running') return undefined;
  return { act: 'NewRevision', message: `new source revision ${revision.slice(0, 12)}` };
};

export const reexportDue: Policy<ExportReason> = ({ resource, status, now }) => {
  const interval = resource.spec.reexport?.interval
    ? parseDuration(resource.spec.reexport.interval)
    : undefined;
  if (!interval || status.jobStatus !== 'completed' || !status.completedAt) return undefined;
  const due = Date.parse(status.completedAt) + interval;
  if (now < due) return { holdUntil: due };
  return { act: 'Reexport', message: `re-export interval ${resource.spec.reexport?.interval} elapsed` };
};

export const EXPORT_POLICIES: Policy<ExportReason>[] = [
  retryAfterBackoff,
  firstExport,
  specChanged,
  exportRequested,
  newSourceRevision,
  reexportDue,
];

/** A refresh of a link that failed, or left a target failing, waits its backoff (and the floor). */
export const retryFailedRefresh: Policy<RefreshReason> = ({ status, now, timing }) => {
  const bundle = status.bundle;
  if (!bundle) return undefined;
  const failing = (bundle.refreshFailures ?? 0) > 0 || (status.targets?.some((t) => t.error) ?? false);
  if (!failing) return undefined;
  const last = Date.parse(bundle.refreshedAt ?? '');
  const backoff = Math.max(failureBackoff(bundle.refreshFailures, timing), MIN_REFRESH_INTERVAL_MS);
  const retryAt = Number.isNaN(last) ? now : last + backoff;
  if (now < retryAt) return { holdUntil: retryAt };
  return { act: 'TargetFailed', message: 'retrying the link delivery that failed' };
};

export const renewalReached: Policy<RefreshReason> = ({ status, now }) => {
  const bundle = status.bundle;
  if (!bundle) return undefined;
  const renewal = Date.parse(bundle.renewalTime);
  if (now < renewal) return { holdUntil: renewal };
  return { act: 'RenewalTime', message: `renewal time ${bundle.renewalTime} reached` };
};

export const REFRESH_POLICIES: Policy<RefreshReason>[] = [retryFailedRefresh, renewalReached];

/**
 * Following the job: poll it while it is queued or running; deliver it once completed, unless its
 * delivery failed, which is tried again only after its backoff (a link too short to deliver must
 * not turn every status echo into another bundle call).
 */
export const followJob = ({ status, now, timing }: Observed): Verdict<'Follow'> => {
  if (!status.jobId) return undefined;
  if (status.jobStatus === 'queued' || status.jobStatus === 'running')
    return { act: 'Follow', message: `export job ${status.jobId} is ${status.jobStatus}` };
  if (status.jobStatus !== 'completed' || status.bundle?.jobId === status.jobId) return undefined;
  const retryAt = status.lastFailureAt
    ? Date.parse(status.lastFailureAt) + failureBackoff(status.failures, timing)
    : now;
  if (now < retryAt) return { holdUntil: retryAt };
  return { act: 'Follow', message: `delivering the bundle of export job ${status.jobId}` };
};

/** The first verdict of the chain that has one. */
export function decide<R>(policies: Policy<R>[], observed: Observed): Verdict<R> {
  for (const policy of policies) {
    const verdict = policy(observed);
    if (verdict) return verdict;
  }
  return undefined;
}
