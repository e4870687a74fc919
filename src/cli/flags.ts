import { InvalidArgumentError } from 'commander';
import { parseDuration } from '../contract/duration.ts';

/** Parsers of flag values shared by the commands. */

/** "host:port" → where to listen; "" → nowhere. */
export function parseListen(text: string, flag: string): { host: string; port: number } | false {
  if (!text) return false;
  const match = /^(.*):(\d+)$/.exec(text);
  const port = Number(match?.[2]);
  if (!match || port > 65_535) throw new InvalidArgumentError(`${flag} wants host:port, got "${text}"`);
  return { host: match[1] || '0.0.0.0', port };
}

/** A parser for a whole-number option of at least `min`. */
export function wholeNumber(flag: string, min: number): (text: string) => number {
  return (text) => {
    const n = Number(text);
    if (!/^\d+$/.test(text.trim()) || n < min)
      throw new InvalidArgumentError(`${flag} wants a whole number of at least ${min}, got "${text}"`);
    return n;
  };
}

/** A parser for a duration option ("90s", "30m"). */
export function duration(flag: string): (text: string) => number {
  return (text) => {
    const ms = parseDuration(text.trim());
    if (ms === undefined || ms <= 0)
      throw new InvalidArgumentError(`${flag} wants a duration like 90s or 30m, got "${text}"`);
    return ms;
  };
}
