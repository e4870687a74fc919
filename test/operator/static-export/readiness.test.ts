import { describe, expect, it } from 'vitest';
import type { StaticExportStatus } from '../../../src/contract/static-export.ts';
import { type ReconcileOutcome, readiness } from '../../../src/operator/static-export/readiness.ts';

/** phase and the Ready condition, computed once from the outcome: they agree in every case. */
const NOW = new Date('2026-11-24T12:00:00Z');
const inFuture = (ms: number) => new Date(NOW.getTime() + ms).toISOString();
const bundle = (expiresIn: number) => ({
  jobId: 'se_1',
  expiresAt: inFuture(expiresIn),
  renewalTime: inFuture(expiresIn / 2),
  sizeBytes: 1,
  digest: 'sha256:x',
  version: 'v',
});
const target = { kind: 'Secret' as const, name: 'v', key: 'values.yaml' };

const cases: Array<[string, StaticExportStatus, ReconcileOutcome, string, string, string]> = [
  ['nothing yet', {}, {}, 'Pending', 'False', 'Pending'],
  [
    'the first export running',
    { jobId: 'se_1', jobStatus: 'running' },
    {},
    'Exporting',
    'False',
    'Exporting',
  ],
  [
    'the first export failed',
    { jobId: 'se_1', jobStatus: 'failed', error: 'x' },
    {},
    'Failed',
    'False',
    'ExportFailed',
  ],
  ['the first start refused', { jobStatus: 'failed', error: 'x' }, {}, 'Failed', 'False', 'ExportFailed'],
  [
    'delivered',
    { jobId: 'se_1', jobStatus: 'completed', bundle: bundle(3_600_000), targets: [target] },
    {},
    'Ready',
    'True',
    'BundleReady',
  ],
  [
    'completed, the bundle not delivered yet',
    { jobId: 'se_1', jobStatus: 'completed' },
    {},
    'Bundling',
    'False',
    'Exporting',
  ],
  [
    'a re-export running, the last bundle serving',
    { jobId: 'se_2', jobStatus: 'running', bundle: bundle(3_600_000), targets: [target] },
    {},
    'Exporting',
    'True',
    'BundleReady',
  ],
  [
    'a re-export failed, the last bundle serving',
    { jobId: 'se_2', jobStatus: 'failed', error: 'x', bundle: bundle(3_600_000), targets: [target] },
    {},
    'Failed',
    'True',
    'BundleReady',
  ],
  [
    'a refresh failed, the link still valid',
    {
      jobId: 'se_1',
      jobStatus: 'completed',
      refreshError: 'refused',
      bundle: { ...bundle(60_000), refreshFailures: 1 },
      targets: [target],
    },
    {},
    'Ready',
    'True',
    'BundleReady',
  ],
  [
    'a refresh failed and the link has expired',
    {
      jobId: 'se_1',
      jobStatus: 'completed',
      refreshError: 'refused',
      bundle: { ...bundle(-1), refreshFailures: 3 },
      targets: [target],
    },
    {},
    'Failed',
    'False',
    'LinkExpired',
  ],
  [
    'a target refused the link',
    {
      jobId: 'se_1',
      jobStatus: 'completed',
      bundle: bundle(3_600_000),
      targets: [{ ...target, error: 'not allowed' }],
    },
    {},
    'Failed',
    'False',
    'TargetWriteFailed',
  ],
  [
    'suspended',
    { jobId: 'se_1', jobStatus: 'completed', bundle: bundle(3_600_000) },
    { suspended: true },
    'Suspended',
    'False',
    'Suspended',
  ],
  [
    'misconfigured before any export',
    {},
    { misconfigured: { reason: 'AdminKeySecretNotFound', message: 'm' } },
    'Pending',
    'False',
    'AdminKeySecretNotFound',
  ],
  [
    'misconfigured after a bundle',
    { jobId: 'se_1', jobStatus: 'completed', bundle: bundle(3_600_000), targets: [target] },
    { misconfigured: { reason: 'SecretNotAllowed', message: 'm' } },
    'Failed',
    'False',
    'SecretNotAllowed',
  ],
];

describe('readiness', () => {
  it.each(cases)('%s: phase %s, Ready %s (%s)', (_, status, outcome, phase, ready, reason) => {
    const result = readiness(status, outcome, 1, NOW);
    const condition = result.conditions.find((c) => c.type === 'Ready');
    expect([result.phase, condition?.status, condition?.reason]).toEqual([phase, ready, reason]);
    // The agreement kubectl and the phase metric rely on.
    if (result.phase === 'Ready') expect(condition?.status).toBe('True');
    if (condition?.status === 'False') expect(result.phase).not.toBe('Ready');
  });

  it('keeps a condition’s transition time while its status stays, and moves it when it changes', () => {
    const running = readiness({ jobId: 'se_1', jobStatus: 'running' }, {}, 1, NOW);
    const later = new Date(NOW.getTime() + 60_000);
    const still = readiness(
      { jobId: 'se_1', jobStatus: 'running', conditions: running.conditions },
      {},
      1,
      later,
    );
    const ready = (r: typeof running) => r.conditions.find((c) => c.type === 'Ready')?.lastTransitionTime;
    expect(ready(still)).toBe(ready(running));
    const delivered = readiness(
      {
        jobId: 'se_1',
        jobStatus: 'completed',
        bundle: bundle(3_600_000),
        targets: [target],
        conditions: still.conditions,
      },
      {},
      1,
      later,
    );
    expect(ready(delivered)).toBe(later.toISOString());
  });
});
