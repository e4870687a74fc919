import { describe, expect, it } from 'vitest';
import {
  DEFAULT_TIMING,
  failureBackoff,
  MIN_REFRESH_INTERVAL_MS,
  pollDelay,
  pollInterval,
  renewalTime,
} from '../../../src/operator/static-export/timing.ts';

const NOW = Date.parse('2026-11-24T12:00:00Z');
const at = (ms: number) => new Date(NOW + ms).toISOString();
const noJitter = { ...DEFAULT_TIMING, renewJitterMs: 0 };

describe('renewalTime (as cert-manager renews: renewBefore ahead of expiry, a third of the lifetime by default)', () => {
  it.each([
    ['a 24h link, no renewBefore: a third before expiry', 24 * 3_600_000, undefined, 16 * 3_600_000],
    ['a 24h link, renewBefore 20m', 24 * 3_600_000, '20m', 24 * 3_600_000 - 20 * 60_000],
    ['renewBefore as long as the link: the default third', 3_600_000, '1h', 40 * 60_000],
    ['renewBefore longer than the link: the default third', 3_600_000, '2h', 40 * 60_000],
    ['a 30 s link, renewBefore 26s: the 5 s floor', 30_000, '26s', MIN_REFRESH_INTERVAL_MS],
    ['a link that expires at once: the floor, never now', 0, undefined, MIN_REFRESH_INTERVAL_MS],
    ['a link expired already: the floor', -60_000, undefined, MIN_REFRESH_INTERVAL_MS],
  ])('%s', (_, lifetime, renewBefore, expected) => {
    expect(renewalTime(at(lifetime), renewBefore, 'uid', NOW, noJitter) - NOW).toBe(expected);
  });

  it('spreads resources by a stable jitter of at most a tenth of renewBefore and 30 s, in whole seconds', () => {
    const times = ['a', 'b', 'c', 'd', 'e'].map((uid) =>
      renewalTime(at(3_600_000), '10m', uid, NOW, DEFAULT_TIMING),
    );
    const plain = NOW + 50 * 60_000;
    for (const time of times) {
      expect(time % 1000).toBe(0);
      expect(plain - time).toBeGreaterThanOrEqual(0);
      expect(plain - time).toBeLessThanOrEqual(30_000);
    }
    expect(new Set(times).size).toBeGreaterThan(1);
    expect(renewalTime(at(3_600_000), '10m', 'a', NOW, DEFAULT_TIMING)).toBe(times[0]);
  });
});

describe('failureBackoff', () => {
  it.each([
    [undefined, 10_000],
    [0, 10_000],
    [1, 10_000],
    [2, 20_000],
    [4, 80_000],
    [7, 600_000],
    [60, 600_000],
    [2000, 600_000],
  ])('after %s failures: %i ms', (failures, expected) => {
    expect(failureBackoff(failures, DEFAULT_TIMING)).toBe(expected);
  });
});

describe('pollInterval and pollDelay', () => {
  it.each([
    [undefined, 5_000],
    ['300ms', 300],
    ['50ms', 200], // below the minimum
    ['1m', 60_000],
  ])('spec.pollInterval %s: %i ms', (asked, expected) => {
    expect(pollInterval({ pollInterval: asked }, DEFAULT_TIMING)).toBe(expected);
  });

  it.each([
    ['running, whatever the wait', 'running', -600_000, 5_000],
    ['queued for a moment: the interval', 'queued', -8_000, 5_000],
    ['queued for 1 min: a quarter of the wait', 'queued', -60_000, 15_000],
    ['queued for an hour: 30 s at most', 'queued', -3_600_000, 30_000],
  ])('%s', (_, status, startedAgo, expected) => {
    expect(pollDelay(status, at(startedAgo), 5_000, NOW)).toBe(expected);
  });
});
