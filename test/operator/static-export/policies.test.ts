import { describe, expect, it } from 'vitest';
import type { StaticExport, StaticExportStatus } from '../../../src/contract/static-export.ts';
import {
  decide,
  EXPORT_POLICIES,
  type Observed,
  REFRESH_POLICIES,
} from '../../../src/operator/static-export/policies.ts';
import { DEFAULT_TIMING } from '../../../src/operator/static-export/timing.ts';

/** The reasons to act, decided on a fake clock from status alone, as cert-manager's policies_test does. */
const NOW = Date.parse('2026-11-24T12:00:00Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString();
const inFuture = (ms: number) => new Date(NOW + ms).toISOString();
const ANNOTATION = 'docsnap.dev/export-requested-at';

function observe(
  status: StaticExportStatus,
  options: { generation?: number; requestedAt?: string; revision?: string; reexport?: string } = {},
): Observed {
  const resource = {
    metadata: {
      name: 'docs',
      namespace: 'ns',
      uid: 'uid',
      generation: options.generation ?? 1,
      resourceVersion: '1',
      ...(options.requestedAt ? { annotations: { [ANNOTATION]: options.requestedAt } } : {}),
    },
    spec: {
      domain: 'docs.example.com',
      exporter: {},
      targets: [{ secret: { name: 'v', key: 'values.yaml' } }],
      ...(options.reexport ? { reexport: { interval: options.reexport } } : {}),
    },
  } as unknown as Pick<StaticExport, 'metadata' | 'spec'>;
  return { resource, status, revision: options.revision, now: NOW, timing: DEFAULT_TIMING };
}

const done: StaticExportStatus = {
  jobId: 'se_1',
  jobGeneration: 1,
  jobStatus: 'completed',
  completedAt: ago(60_000),
};
const bundle = {
  jobId: 'se_1',
  expiresAt: inFuture(3_600_000),
  renewalTime: inFuture(1_800_000),
  refreshedAt: ago(60_000),
  sizeBytes: 1,
  digest: 'sha256:x',
  version: 'v',
};

describe('export policies', () => {
  it.each<[string, StaticExportStatus, Parameters<typeof observe>[1], unknown]>([
    ['nothing started yet', {}, {}, { act: 'FirstExport', message: 'first export' }],
    ['the current job is done', done, {}, undefined],
    [
      'a new generation',
      done,
      { generation: 2 },
      { act: 'SpecChanged', message: 'spec changed (generation 2)' },
    ],
    [
      'the annotation has a new value',
      done,
      { requestedAt: '2026-11-24T11:00:00Z' },
      { act: 'Requested', message: 'requested at 2026-11-24T11:00:00Z' },
    ],
    [
      'a new source revision once the export is done',
      { ...done, jobRevision: 'aaaa' },
      { revision: 'bbbbbbbbbbbbbbbb' },
      { act: 'NewRevision', message: 'new source revision bbbbbbbbbbbb' },
    ],
    [
      'a new source revision while the export runs: waits',
      { ...done, jobStatus: 'running', jobRevision: 'aaaa' },
      { revision: 'bbbb' },
      undefined,
    ],
    [
      're-export interval not yet over: hold until it is',
      done,
      { reexport: '2m' },
      { holdUntil: NOW + 60_000 },
    ],
    [
      're-export interval over',
      done,
      { reexport: '30s' },
      { act: 'Reexport', message: 're-export interval 30s elapsed' },
    ],
    [
      'a failed attempt within its backoff holds every other reason',
      { jobGeneration: 1, jobStatus: 'failed', failures: 2, lastFailureAt: ago(5_000) },
      {},
      { holdUntil: NOW - 5_000 + 20_000 },
    ],
    [
      'a failed attempt past its backoff is retried',
      { jobId: 'se_1', jobGeneration: 1, jobStatus: 'failed', failures: 1, lastFailureAt: ago(11_000) },
      {},
      { act: 'Retry', message: 'retry after 1 failure(s)' },
    ],
    [
      'a failed attempt at an older generation does not hold the new one',
      { jobId: 'se_1', jobGeneration: 1, jobStatus: 'failed', failures: 5, lastFailureAt: ago(1_000) },
      { generation: 2 },
      { act: 'SpecChanged', message: 'spec changed (generation 2)' },
    ],
  ])('%s', (_, status, options, expected) => {
    expect(decide(EXPORT_POLICIES, observe(status, options))).toEqual(expected);
  });
});

describe('refresh policies', () => {
  it.each<[string, StaticExportStatus, unknown]>([
    ['no bundle: nothing to refresh', done, undefined],
    ['before the renewal time: hold until it', { ...done, bundle }, { holdUntil: NOW + 1_800_000 }],
    [
      'at the renewal time',
      { ...done, bundle: { ...bundle, renewalTime: ago(1) } },
      { act: 'RenewalTime', message: `renewal time ${ago(1)} reached` },
    ],
    [
      'a failed refresh waits its backoff from the attempt',
      { ...done, bundle: { ...bundle, refreshFailures: 2, refreshedAt: ago(3_000) } },
      { holdUntil: NOW - 3_000 + 20_000 },
    ],
    [
      'a failed refresh past its backoff is retried even before the renewal time',
      { ...done, bundle: { ...bundle, refreshFailures: 1, refreshedAt: ago(11_000) } },
      { act: 'TargetFailed', message: 'retrying the link delivery that failed' },
    ],
    [
      'a target that failed waits the backoff too (no loop on status echoes)',
      {
        ...done,
        bundle: { ...bundle, refreshedAt: ago(1_000) },
        targets: [{ kind: 'Secret', name: 'v', key: 'k', error: 'x' }],
      },
      { holdUntil: NOW - 1_000 + 10_000 },
    ],
  ])('%s', (_, status, expected) => {
    expect(decide(REFRESH_POLICIES, observe(status))).toEqual(expected);
  });
});
