import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentJobRecord, call, startTestApi, type TestApi } from './helpers.ts';

/** Rate limits are per organization (and project for agent jobs), counted after authentication. */
let api: TestApi;

beforeAll(async () => {
  api = await startTestApi(`rateLimits:
  agentJobs: { max: 3, window: 1h }
  staticExport: { max: 4, window: 1h }`);
  await api.store.putJson('agent-jobs/proj-1/job-done.json', agentJobRecord());
});

afterAll(async () => {
  await api?.close();
});

describe('rate limits between tenants', () => {
  it("another organization's requests to a project never spend its owner's budget, nor show it", async () => {
    const foreign: number[] = [];
    for (let i = 0; i < 6; i++)
      foreign.push((await call(api, 'GET', '/v2/agent/proj-1/job/job-done', { key: api.keys.other })).status);
    expect(foreign).toEqual([404, 404, 404, 429, 429, 429]);
    const own = await call(api, 'GET', '/v2/agent/proj-1/job/job-done', { key: api.keys.acme });
    expect(own.status).toBe(200);
    expect(own.headers.get('x-ratelimit-remaining')).toBe('2');
  });

  it('gives an organization one static-export budget across all its routes', async () => {
    const job = '/v1/static-export/jobs/se_0000000000000000';
    const statuses = [
      (await call(api, 'GET', job, { key: api.keys.acme })).status,
      (await call(api, 'POST', `${job}/bundle`, { key: api.keys.acme })).status,
      (await call(api, 'GET', job, { key: api.keys.acme })).status,
      (await call(api, 'POST', `${job}/bundle`, { key: api.keys.acme })).status,
      (await call(api, 'GET', job, { key: api.keys.acme })).status,
    ];
    expect(statuses).toEqual([404, 404, 404, 404, 429]);
    // Another organization's budget is its own.
    expect((await call(api, 'GET', job, { key: api.keys.other })).status).toBe(404);
  });
});
