import { describe, expect, it } from 'vitest';
import { expiredJobs } from '../../src/service/retention.ts';

const DAY = 24 * 3_600_000;
const now = Date.parse('2026-11-24T12:00:00Z');
const ago = (days: number) => new Date(now - days * DAY).toISOString();

type Row = [
  jobId: string,
  domain: string,
  status: 'queued' | 'running' | 'completed' | 'failed',
  daysOld: number,
  linkExpiresInDays?: number,
];

const record = ([jobId, domain, status, daysOld, linkDays]: Row) => ({
  jobId,
  domain,
  status,
  createdAt: ago(daysOld),
  ...(linkDays === undefined ? {} : { linkExpiresAt: new Date(now + linkDays * DAY).toISOString() }),
});

describe('expiredJobs (retention: maxAge 30 days, keep the newest 2 per site)', () => {
  const policy = { maxAgeMs: 30 * DAY, keepPerSite: 2 };
  it.each<[string, Row[], string[]]>([
    [
      'nothing old',
      [
        ['a', 'd', 'completed', 1],
        ['b', 'd', 'completed', 2],
        ['c', 'd', 'completed', 3],
      ],
      [],
    ],
    [
      'old beyond the newest two',
      [
        ['a', 'd', 'completed', 40],
        ['b', 'd', 'completed', 50],
        ['c', 'd', 'failed', 60],
      ],
      ['c'],
    ],
    [
      'the newest two stay however old',
      [
        ['a', 'd', 'completed', 400],
        ['b', 'd', 'completed', 500],
      ],
      [],
    ],
    [
      'a live link keeps its bundle',
      [
        ['a', 'd', 'completed', 1],
        ['b', 'd', 'completed', 2],
        ['c', 'd', 'completed', 90, 1],
      ],
      [],
    ],
    [
      'an expired link does not',
      [
        ['a', 'd', 'completed', 1],
        ['b', 'd', 'completed', 2],
        ['c', 'd', 'completed', 90, -1],
      ],
      ['c'],
    ],
    [
      'queued and running jobs never go',
      [
        ['a', 'd', 'completed', 1],
        ['b', 'd', 'completed', 2],
        ['q', 'd', 'queued', 90],
        ['r', 'd', 'running', 90],
      ],
      [],
    ],
    [
      'counted per site',
      [
        ['a', 'x', 'completed', 40],
        ['b', 'x', 'completed', 41],
        ['c', 'y', 'completed', 42],
        ['d', 'x', 'completed', 43],
      ],
      ['d'],
    ],
  ])('%s', (_name, rows, expected) => {
    expect(expiredJobs(rows.map(record), policy, now).sort()).toEqual(expected);
  });
});
