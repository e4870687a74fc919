import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApi, type TestApi, waitForJob } from './helpers.ts';

/** One tenant's many exports do not hold back another's one; nobody queues without limit. */
let api: TestApi;

beforeAll(async () => {
  api = await startTestApi('exports: { concurrency: 1, perOrganization: { queued: 6 } }');
});

afterAll(async () => {
  await api?.close();
});

const start = (key: string, domain: string) =>
  call(api, 'POST', '/v1/static-export/jobs', { key, body: { domain } });

describe('the export queue', () => {
  it("runs another organization's job after at most one of a busy tenant's, and refuses a 7th waiting job with 429", {
    timeout: 120_000,
  }, async () => {
    const busy: string[] = [];
    for (let i = 0; i < 7; i++) {
      const started = await start(api.keys.acme, 'docs.acme.test');
      expect(started.status).toBe(202);
      busy.push(started.body.jobId);
    }
    // One runs; six wait: the organization's limit.
    const refused = await start(api.keys.acme, 'docs.acme.test');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.body.error).toMatch(/6 export jobs of yours are waiting/);

    const other = await start(api.keys.other, 'docs.other.test');
    expect(other.status).toBe(202);
    await waitForJob(api, other.body.jobId, api.keys.other);
    const states = await Promise.all(
      busy.map(
        async (jobId) =>
          (await call(api, 'GET', `/v1/static-export/jobs/${jobId}`, { key: api.keys.acme })).body.status,
      ),
    );
    // At most the running one and the next of the busy tenant finished before the other's job.
    expect(states.filter((status) => status === 'completed').length).toBeLessThanOrEqual(2);
    for (const jobId of busy) await waitForJob(api, jobId);
  });
});
