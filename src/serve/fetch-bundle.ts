import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';

/** A bundle link that could not be fetched; `retryable` is false for answers that retrying will not change. */
export class FetchError extends Error {
  readonly retryable: boolean;
  constructor(message: string, retryable: boolean) {
    super(message);
    this.name = 'FetchError';
    this.retryable = retryable;
  }
}

export interface FetchOptions {
  /** Time to the response headers, and longest pause between two chunks of the body. */
  timeoutMs: number;
  /** Attempts in all, with exponential backoff between them. */
  attempts: number;
  backoffMs: number;
  /** The largest archive accepted. */
  maxBytes: number;
  signal?: AbortSignal;
  onRetry?: (attempt: number, error: FetchError, delayMs: number) => void;
}

export const DEFAULT_FETCH_OPTIONS: FetchOptions = {
  timeoutMs: 30_000,
  attempts: 5,
  backoffMs: 1_000,
  maxBytes: 4 * 1024 ** 3,
};

/** A link as it may appear in logs and messages: no query string (a presigned link's signature lives there). */
export function linkForLogs(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return '[an invalid URL]';
  }
}

/**
 * Downloads a bundle link into `file`, streaming, and returns the archive's sha256 and size.
 * Network failures, 5xx and 429 are retried with exponential backoff; other answers (403 for an
 * expired presigned link, 404) are not. A partial file never stays behind.
 */
export async function fetchBundle(
  url: string,
  file: string,
  options: FetchOptions = DEFAULT_FETCH_OPTIONS,
): Promise<{ sha256: string; sizeBytes: number }> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetchOnce(url, file, options);
    } catch (error) {
      await rm(file, { force: true });
      const failure =
        error instanceof FetchError ? error : new FetchError(`download failed: ${describe(error)}`, true);
      if (options.signal?.aborted || !failure.retryable || attempt >= options.attempts) throw failure;
      const delay = options.backoffMs * 2 ** (attempt - 1);
      options.onRetry?.(attempt, failure, delay);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

async function fetchOnce(url: string, file: string, options: FetchOptions) {
  const headersDue = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, headersDue]) : headersDue;
  const response = await fetch(url, { signal, redirect: 'follow' }).catch((error: unknown) => {
    throw new FetchError(`cannot reach ${linkForLogs(url)}: ${describe(error)}`, true);
  });
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    const retryable = response.status >= 500 || response.status === 429;
    const hint = response.status === 403 ? ' (an expired or revoked link?)' : '';
    throw new FetchError(`${linkForLogs(url)} answered ${response.status}${hint}`, retryable);
  }
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > options.maxBytes)
    throw new FetchError(
      `the archive is ${declared} bytes, more than the limit of ${options.maxBytes}`,
      false,
    );

  const hash = createHash('sha256');
  let sizeBytes = 0;
  let stall: NodeJS.Timeout | undefined;
  const body = Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
  const armStall = () => {
    clearTimeout(stall);
    stall = setTimeout(
      () => body.destroy(new FetchError(`the download stalled for ${options.timeoutMs / 1000} s`, true)),
      options.timeoutMs,
    );
  };
  const measure = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      armStall();
      sizeBytes += chunk.length;
      if (sizeBytes > options.maxBytes) {
        callback(new FetchError(`the archive is larger than the limit of ${options.maxBytes} bytes`, false));
        return;
      }
      hash.update(chunk);
      callback(null, chunk);
    },
  });
  armStall();
  try {
    await pipeline(body, measure, createWriteStream(file));
  } finally {
    clearTimeout(stall);
  }
  if (!Number.isNaN(declared) && declared !== sizeBytes)
    throw new FetchError(`the download ended after ${sizeBytes} of ${declared} bytes`, true);
  return { sha256: hash.digest('hex'), sizeBytes };
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  return cause?.code ?? cause?.message ?? (error as Error)?.message ?? String(error);
}
