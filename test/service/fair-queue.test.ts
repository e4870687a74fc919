import { describe, expect, it } from 'vitest';
import { FairQueue } from '../../src/service/fair-queue.ts';

describe('FairQueue', () => {
  it('takes jobs round-robin between owners, each in its own order', () => {
    const queue = new FairQueue();
    for (let i = 1; i <= 4; i++) queue.push('big', `b${i}`);
    queue.push('small', 's1');
    queue.push('other', 'o1');
    queue.push('small', 's2');
    const taken: string[] = [];
    for (let next = queue.take(() => true); next; next = queue.take(() => true)) taken.push(next.jobId);
    expect(taken).toEqual(['b1', 's1', 'o1', 'b2', 's2', 'b3', 'b4']);
    expect(queue.size).toBe(0);
  });

  it('skips an owner at its running limit without losing its turn order', () => {
    const queue = new FairQueue();
    queue.push('a', 'a1');
    queue.push('a', 'a2');
    queue.push('b', 'b1');
    expect(queue.take((org) => org !== 'a')).toEqual({ owner: 'b', jobId: 'b1' });
    expect(queue.take((org) => org !== 'a')).toBeUndefined();
    expect(queue.queued('a')).toBe(2);
    expect(queue.take(() => true)).toEqual({ owner: 'a', jobId: 'a1' });
  });
});
