import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, download, startTestApi, type TestApi, waitForJob } from './helpers.ts';

/** Old jobs and archives go, but never one whose link still works. */
let api: TestApi;

beforeAll(async () => {
  api = await startTestApi(`links: { lifetime: 3s }
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
    const link = (await call(api, 'POST', `/v1/static-export/jobs/${older}/bundle`, { key: api.keys.acme }))
      .body.bundleUrl;
    const newer = await completedJob();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    // Past its age and not the newest, but its link works for a while yet: kept, downloadable.
    expect((await call(api, 'GET', `/v1/static-export/jobs/${older}`, { key: api.keys.acme })).status).toBe(
      200,
    );
    expect((await download(link)).length).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    expect((await call(api, 'GET', `/v1/static-export/jobs/${older}`, { key: api.keys.acme })).status).toBe(
      404,
    );
    expect(await api.store.list(`bundles/${older}`)).toEqual([]);
    expect((await call(api, 'GET', `/v1/static-export/jobs/${newer}`, { key: api.keys.acme })).status).toBe(
      200,
    );
  });
});
