import type { ExportJobRecord } from '../contract/records.ts';

/** How long finished export jobs and their archives are kept, per site. */
export interface RetentionPolicy {
  /** Finished jobs older than this go (unless among the newest `keepPerSite`). */
  maxAgeMs: number;
  /** The newest finished jobs of each site that stay whatever their age. */
  keepPerSite: number;
}

type Stored = Pick<ExportJobRecord, 'jobId' | 'domain' | 'status' | 'createdAt' | 'linkExpiresAt'>;

/**
 * The jobs whose record and archive may be deleted now: finished (completed or failed), older
 * than the policy's age, beyond the newest `keepPerSite` of their site, and with no link handed
 * out that still works (a deployment may be downloading the bundle at this moment). Queued and
 * running jobs are never candidates.
 */
export function expiredJobs(records: Stored[], policy: RetentionPolicy, now: number): string[] {
  const bySite = new Map<string, Stored[]>();
  for (const record of records) {
    if (record.status !== 'completed' && record.status !== 'failed') continue;
    bySite.set(record.domain, [...(bySite.get(record.domain) ?? []), record]);
  }
  const expired: string[] = [];
  for (const jobs of bySite.values()) {
    jobs.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    for (const job of jobs.slice(policy.keepPerSite)) {
      const old = now - Date.parse(job.createdAt) > policy.maxAgeMs;
      const linkLive = job.linkExpiresAt !== undefined && Date.parse(job.linkExpiresAt) > now;
      if (old && !linkLive) expired.push(job.jobId);
    }
  }
  return expired;
}
