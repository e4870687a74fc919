import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApi, type TestApi } from './helpers.ts';

/** A drop-in for the platform: keys in its prefix format (`mint_…`) when auth.keyPrefix says so. */
let api: TestApi;

beforeAll(async () => {
  api = await startTestApi('auth: { keyPrefix: mint }');
});

afterAll(async () => {
  await api?.close();
});

describe('keys with the platform prefix', () => {
  it('are made as mint_<secret>, authenticate, and never reach the log', async () => {
    expect(api.keys.acme).toMatch(/^mint_[\w-]{43}$/);
    const started = await call(api, 'POST', '/v1/static-export/jobs', {
      key: api.keys.acme,
      body: { domain: 'docs.acme.test' },
    });
    expect(started.status).toBe(202);
    const status = await call(api, 'GET', `/v1/static-export/jobs/${started.body.jobId}`, {
      key: api.keys.acme,
    });
    expect(status.status).toBe(200);
    const wrongPrefix = await call(api, 'GET', `/v1/static-export/jobs/${started.body.jobId}`, {
      key: `docsnap_${api.keys.acme.slice(5)}`,
    });
    expect(wrongPrefix.status).toBe(401);
    expect(wrongPrefix.body.error).toMatch(/expected mint_/);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(api.log.text).not.toContain(api.keys.acme.slice(5));
  });
});
