import type { z } from 'zod';
import {
  AgentJob,
  ErrorBody,
  ExportBundle,
  ExportJob,
  type StartExportRequest,
} from '../contract/admin-api.ts';

export interface AdminClientOptions {
  /** The Admin API's base URL: `docsnap api` or the original product's. */
  baseUrl: string;
  adminKey: string;
  /** Per attempt. Default 30 s. */
  timeoutMs?: number;
  /** Attempts for retryable failures (network, timeout, 429, 5xx). Default 5. */
  maxAttempts?: number;
  /** First backoff; doubles each retry, with full jitter, capped at maxBackoffMs. Default 250 ms. */
  backoffMs?: number;
  maxBackoffMs?: number;
  fetch?: typeof fetch;
}

/** A refusal by the API (a 4xx, or a 5xx after the retries): the status and the server's message. */
export class AdminApiError extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.name = 'AdminApiError';
    this.status = status;
  }
}

export interface WaitOptions {
  /** Between polls. Default 2 s. */
  intervalMs?: number;
  /** Give up after this long. Default: never. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * The typed Admin API client used by the CLI and the operator. Every response is checked against
 * the contract's schemas; network errors, timeouts, 429 (honouring Retry-After) and 5xx are retried
 * with exponential backoff and jitter; other 4xx are not (they would fail the same way again).
 */
export class AdminClient {
  private readonly options: Required<Omit<AdminClientOptions, 'fetch'>> & { fetch: typeof fetch };

  constructor(options: AdminClientOptions) {
    if (!/^https?:\/\//.test(options.baseUrl)) throw new Error(`API URL must be http(s): ${options.baseUrl}`);
    this.options = {
      timeoutMs: 30_000,
      maxAttempts: 5,
      backoffMs: 250,
      maxBackoffMs: 30_000,
      fetch: globalThis.fetch,
      ...options,
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
    };
  }

  getAgentJob(projectId: string, id: string, signal?: AbortSignal): Promise<AgentJob> {
    return this.request(AgentJob, 'GET', `/v2/agent/${enc(projectId)}/job/${enc(id)}`, undefined, signal);
  }

  startExport(request: StartExportRequest, signal?: AbortSignal): Promise<ExportJob> {
    return this.request(ExportJob, 'POST', '/v1/static-export/jobs', request, signal);
  }

  getExport(jobId: string, signal?: AbortSignal): Promise<ExportJob> {
    return this.request(ExportJob, 'GET', `/v1/static-export/jobs/${enc(jobId)}`, undefined, signal);
  }

  requestBundle(jobId: string, signal?: AbortSignal): Promise<ExportBundle> {
    return this.request(
      ExportBundle,
      'POST',
      `/v1/static-export/jobs/${enc(jobId)}/bundle`,
      undefined,
      signal,
    );
  }

  /** Polls an export until it is completed or failed (a failed job is returned, not thrown). */
  async waitForExport(
    jobId: string,
    options: WaitOptions & { onProgress?: (job: ExportJob) => void } = {},
  ): Promise<ExportJob> {
    return this.poll(
      () => this.getExport(jobId, options.signal),
      (job) => {
        options.onProgress?.(job);
        return job.status === 'completed' || job.status === 'failed';
      },
      options,
    );
  }

  /** Polls an agent job until it is completed, archived or failed (spec section 3, rule 1). */
  waitForAgentJob(projectId: string, id: string, options: WaitOptions = {}): Promise<AgentJob> {
    return this.poll(
      () => this.getAgentJob(projectId, id, options.signal),
      (job) => job.status !== 'active',
      options,
    );
  }

  private async poll<T>(
    get: () => Promise<T>,
    done: (value: T) => boolean,
    options: WaitOptions,
  ): Promise<T> {
    const deadline = options.timeoutMs === undefined ? Infinity : Date.now() + options.timeoutMs;
    for (;;) {
      const value = await get();
      if (done(value)) return value;
      if (Date.now() + (options.intervalMs ?? 2000) > deadline)
        throw new Error('gave up waiting: timeout reached');
      await sleep(options.intervalMs ?? 2000, options.signal);
    }
  }

  private async request<T extends z.ZodType>(
    schema: T,
    method: string,
    path: string,
    body: unknown,
    signal?: AbortSignal,
  ): Promise<z.infer<T>> {
    const { baseUrl, adminKey, timeoutMs, maxAttempts } = this.options;
    for (let attempt = 1; ; attempt++) {
      let retryAfterMs: number | undefined;
      let failure: Error;
      try {
        const response = await this.options.fetch(`${baseUrl}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${adminKey}`,
            accept: 'application/json',
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: signal
            ? AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)])
            : AbortSignal.timeout(timeoutMs),
        });
        const text = await response.text();
        if (response.ok) {
          const parsed = schema.safeParse(parseJson(text));
          if (!parsed.success)
            throw new AdminApiError(
              response.status,
              `${method} ${path}: the response does not match the API's schema`,
            );
          return parsed.data;
        }
        const message = ErrorBody.safeParse(parseJson(text)).data?.error ?? `HTTP ${response.status}`;
        failure = new AdminApiError(response.status, `${method} ${path}: ${response.status} ${message}`);
        if (response.status !== 429 && response.status < 500) throw failure;
        retryAfterMs = retryAfter(response.headers.get('retry-after'));
      } catch (error) {
        if (error instanceof AdminApiError && error.status < 500 && error.status !== 429) throw error;
        if (signal?.aborted) throw signal.reason ?? error;
        failure = error instanceof AdminApiError ? error : networkError(method, path, error);
      }
      if (attempt >= maxAttempts) throw failure;
      await sleep(retryAfterMs ?? this.backoff(attempt), signal);
    }
  }

  /** Full jitter (AWS's "exponential backoff and jitter"): spreads retries of many clients apart. */
  private backoff(attempt: number): number {
    const cap = Math.min(this.options.maxBackoffMs, this.options.backoffMs * 2 ** (attempt - 1));
    return Math.random() * cap;
  }
}

function enc(part: string): string {
  return encodeURIComponent(part);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Retry-After in seconds or as an HTTP date. */
function retryAfter(header: string | null): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

function networkError(method: string, path: string, error: unknown): Error {
  const cause = error as Error & { cause?: { code?: string; message?: string } };
  const reason =
    cause.name === 'TimeoutError'
      ? 'timed out'
      : (cause.cause?.code ?? cause.cause?.message ?? cause.message ?? 'network error');
  return new Error(`${method} ${path}: ${reason}`);
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
