import { describe, expect, it } from 'vitest';
import { Slots } from '../../src/service/slots.ts';

describe('Slots', () => {
  it('lets `size` holders in at once and the others in order of arrival', async () => {
    const slots = new Slots(2);
    const signal = new AbortController().signal;
    const order: string[] = [];
    const a = await slots.acquire(signal);
    const b = await slots.acquire(signal);
    const arrived = (name: string) => (release: () => void) => {
      order.push(name);
      return release;
    };
    const c = slots.acquire(signal).then(arrived('c'));
    const d = slots.acquire(signal).then(arrived('d'));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(order).toEqual([]);
    a();
    a(); // a second release of the same slot frees nothing more
    await c;
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(order).toEqual(['c']);
    b();
    await d;
    expect(order).toEqual(['c', 'd']);
  });

  it('drops a waiter whose signal aborts, without taking its slot', async () => {
    const slots = new Slots(1);
    const release = await slots.acquire(new AbortController().signal);
    const abort = new AbortController();
    const waiting = slots.acquire(abort.signal);
    abort.abort(new Error('shutting down'));
    await expect(waiting).rejects.toThrow('shutting down');
    release();
    const next = await Promise.race([
      slots.acquire(new AbortController().signal).then(() => 'acquired'),
      new Promise((resolve) => setTimeout(() => resolve('blocked'), 50)),
    ]);
    expect(next).toBe('acquired');
  });
});
