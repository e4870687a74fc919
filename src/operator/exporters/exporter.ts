import type { ExportBundle, ExportJob, StartExportRequest } from '../../contract/admin-api.ts';

/**
 * How the operator runs exports: the Admin API over HTTP, or (for clusters with no way out) the
 * pipeline in-process. Both answer with the Admin API's shapes.
 */
export interface Exporter {
  /** Starts an export; `revision` pins the source (from sourceRevision) where the exporter reads it. */
  start(request: StartExportRequest, options?: { revision?: string }): Promise<ExportJob>;
  /** The job's state; throws ExportJobLost when the exporter no longer knows the job. */
  status(jobId: string): Promise<ExportJob>;
  bundle(jobId: string): Promise<ExportBundle>;
  /**
   * For exporters that read the docs source themselves: its current revision (a git commit, a
   * ConfigMap's version). A new revision is new content and calls for an export. Cached by the
   * exporter for `sourcePollMs`, so it may be asked on every reconcile.
   */
  sourceRevision?(): Promise<string | undefined>;
  readonly sourcePollMs?: number;
  /** Releases what the exporter holds (running in-process exports stop and resume elsewhere). */
  close?(): Promise<void>;
}

/** The exporter answered that the job does not exist (its store was wiped, or another server). */
export class ExportJobLost extends Error {
  constructor(jobId: string) {
    super(`export job ${jobId} no longer exists on the exporter`);
    this.name = 'ExportJobLost';
  }
}
