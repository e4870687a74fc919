/**
 * Exponential backoff: `baseMs` after the first failure, doubling with each further failure in a
 * row, never more than `maxMs`. The one formula behind the operator's retries (failed exports,
 * failed reconciles, failed watches).
 */
export function exponentialBackoff(failures: number, baseMs: number, maxMs: number): number {
  const exponent = Math.max(0, failures - 1);
  // 2 ** 1024 is Infinity: the cap applies long before.
  return Math.min(baseMs * 2 ** Math.min(exponent, 52), maxMs);
}
