import { z } from 'zod';

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
/** Go's time.Duration syntax plus days; also the CRD's pattern for duration fields. */
export const DURATION_PATTERN = /^(?:\d+(?:ms|s|m|h|d))+$/;

/**
 * Durations as people write them in YAML and Kubernetes specs: "90s", "20m", "1h30m", "7d"
 * (Go's time.Duration syntax plus days). Parsed to milliseconds.
 */
export function parseDuration(text: string): number | undefined {
  if (!DURATION_PATTERN.test(text)) return undefined;
  let total = 0;
  for (const [, amount, unit] of text.matchAll(/(\d+)(ms|s|m|h|d)/g)) {
    total += Number(amount) * UNIT_MS[unit as keyof typeof UNIT_MS];
  }
  return total;
}

/** A duration string in, milliseconds out; a clear message for anything else. */
export const durationSchema = z.string().transform((text, ctx) => {
  const ms = parseDuration(text.trim());
  if (ms === undefined || ms <= 0) {
    ctx.addIssue({ code: 'custom', message: `"${text}" is not a duration like 90s, 20m, 1h30m or 7d` });
    return z.NEVER;
  }
  return ms;
});
