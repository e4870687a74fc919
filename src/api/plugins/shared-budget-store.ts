import type { FastifyRateLimitStore } from '@fastify/rate-limit';

interface Window {
  count: number;
  startedAt: number;
}

/** Past this many budgets, expired ones are dropped (one per organization or project: few). */
const PRUNE_ABOVE = 10_000;

/**
 * A @fastify/rate-limit store whose routes share their counters: the plugin gives each route a
 * store of its own (`child`), which would give an organization one budget per route. Here every
 * route counts in the same map, so routes that use the same key (`static-export:<org>`) spend one
 * budget, as docs/api.md promises, and keys that differ (`agent:<org>:<project>`) stay apart.
 * Fixed windows, as the plugin's own local store.
 */
export class SharedBudgetStore implements FastifyRateLimitStore {
  private readonly windows: Map<string, Window>;

  constructor(_options?: unknown, windows = new Map<string, Window>()) {
    this.windows = windows;
  }

  incr(
    key: string,
    callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
    timeWindow: number,
  ): void {
    const now = Date.now();
    let window = this.windows.get(key);
    if (!window || window.startedAt + timeWindow <= now) {
      if (this.windows.size > PRUNE_ABOVE) this.prune(now, timeWindow);
      window = { count: 0, startedAt: now };
      this.windows.set(key, window);
    }
    window.count++;
    callback(null, { current: window.count, ttl: window.startedAt + timeWindow - now });
  }

  child(): FastifyRateLimitStore {
    return new SharedBudgetStore(undefined, this.windows);
  }

  private prune(now: number, timeWindow: number): void {
    for (const [key, window] of this.windows)
      if (window.startedAt + timeWindow <= now) this.windows.delete(key);
  }
}
