import type { ExportBundle, ExportJob, StartExportRequest } from '../../contract/admin-api.ts';

/**
 * How the operator runs exports: the Admin API over HTTP, or (for clusters with no way out) the
 * pipeline in-process. Both answer with the Admin API's shapes.
 */
export interface Exporter {
  start(request: StartExportRequest, signal?: AbortSignal): Promise<ExportJob>;
  /** The job's state; throws ExportJobLost when the exporter no longer knows the job. */
  status(jobId: string, signal?: AbortSignal): Promise<ExportJob>;
  bundle(jobId: string, signal?: AbortSignal): Promise<ExportBundle>;
}

/** The exporter answered that the job does not exist (its store was wiped, or another server). */
export class ExportJobLost extends Error {
  constructor(jobId: string) {
    super(`export job ${jobId} no longer exists on the exporter`);
    this.name = 'ExportJobLost';
  }
}
