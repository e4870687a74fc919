import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, download, startTestApi, type TestApi, waitForJob } from './helpers.ts';

/** Old jobs and archives go, but never one whose link still works. */
let api: TestApi;

beforeAll(async () => {
  api = await startTestApi(`links: { lifetime: 6s }
retention: { maxAge: 1s, keepPerSite: 1, sweepEvery: 1s }`);
});

afterAll(async () => {
  await api?.close();
});

async function completedJob(): Promise<string> {
  const started = await call(api, 'POST', '/v1/static-export/jobs', {
    key: api.keys.acme,
    body: { domain: 'docs.acme.test' },
  });
  await waitForJob(api, started.body.jobId);
  return started.body.jobId;
}

describe('retention', () => {
  it('deletes a job past its age beyond the newest of its site, once its last link has expired', {
    timeout: 60_000,
  }, async () => {
    const older = await completedJob();
    const bundle = (await call(api, 'POST', `/v1/static-export/jobs/${older}/bundle`, { key: api.keys.acme }))
      .body;
    const linkExpires = Date.parse(bundle.expiresAt);
    const newer = await completedJob();
    // Past its age (1 s) and a sweep (every 1 s) later, not the newest, but its link works for a
    // while yet: kept, downloadable.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    expect(Date.now()).toBeLessThan(linkExpires); // else the export was too slow for this check
    expect((await call(api, 'GET', `/v1/static-export/jobs/${older}`, { key: api.keys.acme })).status).toBe(
      200,
    );
    expect((await download(bundle.bundleUrl)).length).toBeGreaterThan(0);
    // The link expired and a sweep ran: gone.
    await new Promise((resolve) => setTimeout(resolve, linkExpires - Date.now() + 2_100));
    expect((await call(api, 'GET', `/v1/static-export/jobs/${older}`, { key: api.keys.acme })).status).toBe(
      404,
    );
    expect(await api.store.list(`bundles/${older}`)).toEqual([]);
    expect((await call(api, 'GET', `/v1/static-export/jobs/${newer}`, { key: api.keys.acme })).status).toBe(
      200,
    );
  });
});
