import { AdminApiError, AdminClient } from '../../client/admin-client.ts';
import type { ExportBundle, ExportJob, StartExportRequest } from '../../contract/admin-api.ts';
import { type Exporter, ExportJobLost } from './exporter.ts';

/**
 * Exports through an Admin API (`docsnap api` or the original product's). Retries are short: the
 * reconcile loop retries with its own backoff, and a worker should not sit on one resource.
 */
export class ApiExporter implements Exporter {
  private readonly client: AdminClient;

  constructor(baseUrl: string, adminKey: string) {
    this.client = new AdminClient({
      baseUrl,
      adminKey,
      timeoutMs: 15_000,
      maxAttempts: 2,
      maxBackoffMs: 2_000,
    });
  }

  start(request: StartExportRequest): Promise<ExportJob> {
    return this.client.startExport(request);
  }

  status(jobId: string): Promise<ExportJob> {
    return lostWhen404(jobId, () => this.client.getExport(jobId));
  }

  bundle(jobId: string): Promise<ExportBundle> {
    return lostWhen404(jobId, () => this.client.requestBundle(jobId));
  }
}

/** A 404 for a job the operator recorded means the exporter lost it, not a bad request. */
async function lostWhen404<T>(jobId: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof AdminApiError && error.status === 404) throw new ExportJobLost(jobId);
    throw error;
  }
}
