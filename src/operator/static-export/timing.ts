import { createHash } from 'node:crypto';
import { parseDuration } from '../../contract/duration.ts';
import type { StaticExportSpec } from '../../contract/static-export.ts';
import { exponentialBackoff } from '../../kube/backoff.ts';

/*
 * When things happen, as pure functions of the resource, what was observed and the time: poll
 * delays, failure backoff, link renewal. Table-tested in test/operator/static-export/timing.test.ts.
 */

export interface Timing {
  /** How often a running export is polled unless spec.pollInterval says otherwise. */
  pollIntervalMs: number;
  /** First retry after a failure; doubles per failure in a row up to maxFailureBackoffMs. */
  failureBackoffMs: number;
  maxFailureBackoffMs: number;
  /** Spread of renewal times, so resources created together do not all refresh at once. */
  renewJitterMs: number;
}

export const DEFAULT_TIMING: Timing = {
  pollIntervalMs: 5_000,
  failureBackoffMs: 10_000,
  maxFailureBackoffMs: 10 * 60_000,
  renewJitterMs: 30_000,
};

/** The shortest spec.pollInterval honoured (also the CRD's minimum). */
export const MIN_POLL_INTERVAL_MS = 200;
/** The longest wait between polls of a job still queued on the exporter. */
export const MAX_QUEUED_POLL_MS = 30_000;
/**
 * A refresh is never followed by another sooner than this: a link that expires at once (or
 * sooner than it can be delivered) must not turn the operator into a loop of bundle calls and writes.
 */
export const MIN_REFRESH_INTERVAL_MS = 5_000;
/** A link that works for less than this when it is handed out cannot be delivered: a failure. */
export const MIN_LINK_LIFETIME_MS = 10_000;

export function failureBackoff(failures: number | undefined, timing: Timing): number {
  return exponentialBackoff(Math.max(1, failures ?? 1), timing.failureBackoffMs, timing.maxFailureBackoffMs);
}

export function pollInterval(spec: Pick<StaticExportSpec, 'pollInterval'>, timing: Timing): number {
  const asked = spec.pollInterval ? parseDuration(spec.pollInterval) : undefined;
  return Math.max(asked ?? timing.pollIntervalMs, MIN_POLL_INTERVAL_MS);
}

/**
 * The wait before the next poll of a job: the poll interval while it runs; while it waits in the
 * exporter's queue, a quarter of the time it has waited (up to 30 s), so a thousand queued jobs do
 * not keep the operator and the exporter busy answering "still queued".
 */
export function pollDelay(
  jobStatus: string,
  startedAt: string | undefined,
  interval: number,
  now: number,
): number {
  if (jobStatus !== 'queued') return interval;
  const waited = startedAt ? now - Date.parse(startedAt) : 0;
  return Math.max(interval, Math.min(waited / 4, MAX_QUEUED_POLL_MS));
}

/**
 * When a link handed out at `now` and expiring at `expiresAt` is renewed: renewBefore ahead of
 * its expiry (default a third of its lifetime, as cert-manager renews; a renewBefore at least the
 * lifetime counts as the default), less a stable per-resource jitter, in whole seconds, and never
 * sooner than the refresh floor.
 */
export function renewalTime(
  expiresAt: string,
  renewBefore: string | undefined,
  uid: string,
  now: number,
  timing: Timing,
): number {
  const expires = Date.parse(expiresAt);
  const lifetime = Math.max(0, expires - now);
  const asked = renewBefore ? parseDuration(renewBefore) : undefined;
  const before = asked !== undefined && asked > 0 && asked < lifetime ? asked : lifetime / 3;
  const jitterRange = Math.min(timing.renewJitterMs, before / 10);
  const jitter = jitterRange > 0 ? hashFraction(uid) * jitterRange : 0;
  const renewal = Math.floor((expires - before - jitter) / 1000) * 1000;
  return Math.max(renewal, now + MIN_REFRESH_INTERVAL_MS);
}

/** A stable number in [0, 1) for a resource, so its jitter survives restarts. */
function hashFraction(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0) / 2 ** 32;
}
