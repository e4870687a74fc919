import { describe, expect, it } from 'vitest';
import { WorkQueue } from '../../src/operator/runtime/work-queue.ts';

const settle = (ms = 30) => new Promise((resolve) => setTimeout(resolve, ms));

describe('WorkQueue', () => {
  it('runs a key added many times while it waits once, and never twice at once', async () => {
    const runs: string[] = [];
    let running = 0;
    let overlap = false;
    const queue = new WorkQueue(
      { concurrency: 4, baseBackoffMs: 10, maxBackoffMs: 100 },
      async (key) => {
        running++;
        if (running > 1) overlap = true;
        runs.push(key);
        await settle(20);
        running--;
        return undefined;
      },
      () => {},
    );
    for (let i = 0; i < 5; i++) queue.add('a');
    await settle(5);
    queue.add('a'); // while processing: runs again afterwards
    queue.add('a');
    await settle(100);
    expect(runs).toEqual(['a', 'a']);
    expect(overlap).toBe(false);
  });

  it('retries failures with exponential backoff up to the cap, and forgets the count on success', async () => {
    const times: number[] = [];
    const queue = new WorkQueue(
      { concurrency: 1, baseBackoffMs: 20, maxBackoffMs: 80 },
      async () => {
        times.push(Date.now());
        if (times.length < 5) throw new Error('not yet');
        return undefined;
      },
      () => {},
    );
    queue.add('k');
    for (let i = 0; i < 100 && times.length < 5; i++) await settle(30);
    await settle(100);
    expect(times).toHaveLength(5);
    const gaps = times.slice(1).map((t, i) => t - (times[i] as number));
    // 20, 40, 80, 80 (capped), within timer slack
    expect(gaps[0]).toBeGreaterThanOrEqual(18);
    expect(gaps[1]).toBeGreaterThanOrEqual(38);
    expect(gaps[2]).toBeGreaterThanOrEqual(78);
    expect(gaps[3]).toBeLessThan(1_000); // capped, not 160
  });

  it('keeps the earliest of several requested delays, and stop() waits for work in progress', async () => {
    const runs: number[] = [];
    const started = Date.now();
    const queue = new WorkQueue(
      { concurrency: 1, baseBackoffMs: 10, maxBackoffMs: 10 },
      async () => {
        runs.push(Date.now() - started);
        await settle(30);
        return undefined;
      },
      () => {},
    );
    queue.addAfter('k', 200);
    queue.addAfter('k', 40);
    queue.addAfter('k', 300);
    await settle(60);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toBeLessThan(150);
    const stopping = queue.stop();
    await stopping;
    queue.add('k');
    await settle(250);
    expect(runs).toHaveLength(1);
  });
});
