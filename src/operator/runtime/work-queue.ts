import { exponentialBackoff } from '../../kube/backoff.ts';

export interface WorkQueueOptions {
  /** Reconciles running at once (never two for the same key). */
  concurrency: number;
  /** First retry delay after a failure; doubles per failure in a row, up to maxBackoffMs. */
  baseBackoffMs: number;
  maxBackoffMs: number;
}

export type Handler = (key: string) => Promise<ReconcileResult>;
/** What a reconcile asks for next: nothing, to run again after a delay, or a retry with backoff. */
export type ReconcileResult = { requeueAfterMs?: number } | undefined;

/**
 * A de-duplicating, rate-limited work queue in the manner of client-go's workqueue: a key added
 * while it waits is queued once; a key added while it is being processed runs again afterwards
 * (never twice at once); failures retry with per-key exponential backoff and a cap; a requested
 * delay keeps only the earliest pending time per key.
 */
export class WorkQueue {
  private readonly options: WorkQueueOptions;
  private readonly handler: Handler;
  private readonly onError: (key: string, error: unknown) => void;
  private readonly ready: string[] = [];
  private readonly queued = new Set<string>();
  private readonly processing = new Set<string>();
  /** Keys added again while processing: they go back to the queue when processing ends. */
  private readonly dirty = new Set<string>();
  private readonly delayed = new Map<string, { at: number; timer: NodeJS.Timeout }>();
  private readonly failures = new Map<string, number>();
  private stopped = false;
  private idle: Array<() => void> = [];

  constructor(options: WorkQueueOptions, handler: Handler, onError: (key: string, error: unknown) => void) {
    this.options = options;
    this.handler = handler;
    this.onError = onError;
  }

  add(key: string): void {
    if (this.stopped) return;
    const pending = this.delayed.get(key);
    if (pending) {
      clearTimeout(pending.timer);
      this.delayed.delete(key);
    }
    if (this.processing.has(key)) {
      this.dirty.add(key);
      return;
    }
    if (this.queued.has(key)) return;
    this.queued.add(key);
    this.ready.push(key);
    this.pump();
  }

  /** Adds the key after a delay, unless it is already due sooner. */
  addAfter(key: string, delayMs: number): void {
    if (this.stopped) return;
    if (delayMs <= 0) {
      this.add(key);
      return;
    }
    const at = Date.now() + delayMs;
    const pending = this.delayed.get(key);
    if (pending && pending.at <= at) return;
    if (pending) clearTimeout(pending.timer);
    const timer = setTimeout(() => {
      this.delayed.delete(key);
      this.add(key);
    }, delayMs);
    timer.unref();
    this.delayed.set(key, { at, timer });
  }

  /** Drops the key's failure count, pending delay and queued run (the object is gone). */
  forget(key: string): void {
    this.failures.delete(key);
    const pending = this.delayed.get(key);
    if (pending) clearTimeout(pending.timer);
    this.delayed.delete(key);
  }

  /** Stops taking work and waits for the reconciles in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const { timer } of this.delayed.values()) clearTimeout(timer);
    this.delayed.clear();
    this.ready.length = 0;
    this.queued.clear();
    if (this.processing.size > 0) await new Promise<void>((resolve) => this.idle.push(resolve));
  }

  private pump(): void {
    while (!this.stopped && this.processing.size < this.options.concurrency && this.ready.length > 0) {
      const key = this.ready.shift() as string;
      this.queued.delete(key);
      this.processing.add(key);
      void this.process(key);
    }
  }

  private async process(key: string): Promise<void> {
    try {
      const result = await this.handler(key);
      this.failures.delete(key);
      if (result?.requeueAfterMs !== undefined) this.addAfter(key, result.requeueAfterMs);
    } catch (error) {
      const failures = (this.failures.get(key) ?? 0) + 1;
      this.failures.set(key, failures);
      this.onError(key, error);
      this.addAfter(key, this.backoff(failures));
    } finally {
      this.processing.delete(key);
      if (this.dirty.delete(key)) this.add(key);
      if (this.processing.size === 0) for (const resolve of this.idle.splice(0)) resolve();
      this.pump();
    }
  }

  private backoff(failures: number): number {
    return exponentialBackoff(failures, this.options.baseBackoffMs, this.options.maxBackoffMs);
  }
}
