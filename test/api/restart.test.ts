import { afterEach, describe, expect, it } from 'vitest';
import { EXAMPLE_SITE_PAGES, tempDir } from '../export/fixtures.ts';
import { call, startTestApi, type TestApi, waitForJob } from './helpers.ts';

describe('a restart of docsnap api', () => {
  const running: TestApi[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((api) => api.close()));
  });
  const start = async (store: string) => {
    const api = await startTestApi('', store);
    running.push(api);
    return api;
  };

  it('resumes a job that was running when the server stopped', { timeout: 60_000 }, async () => {
    const store = tempDir('docsnap-store-');
    const first = await start(store);
    const { body } = await call(first, 'POST', '/v1/static-export/jobs', {
      key: first.keys.acme,
      body: { domain: 'docs.acme.test' },
    });
    for (let i = 0; i < 200; i++) {
      const status = await call(first, 'GET', `/v1/static-export/jobs/${body.jobId}`, {
        key: first.keys.acme,
      });
      if (status.body.status === 'running') break;
      await new Promise((r) => setTimeout(r, 10));
    }
    await first.close();
    running.length = 0;
    // The stored record says the job is still to do, not "running" forever.
    expect(((await first.store.getJson(`jobs/${body.jobId}.json`)) as { status: string }).status).toBe(
      'queued',
    );

    const second = await start(store);
    const seen = await waitForJob(second, body.jobId, second.keys.acme);
    expect(seen.at(-1)).toMatchObject({ status: 'completed', pageCount: EXAMPLE_SITE_PAGES });
    const record = (await second.store.getJson(`jobs/${body.jobId}.json`)) as { attempts: number };
    expect(record.attempts).toBe(2);
  });

  it('resumes a job a crashed server left running, and fails one whose site is gone or that was interrupted three times, with the reason', {
    timeout: 60_000,
  }, async () => {
    const store = tempDir('docsnap-store-');
    const first = await start(store);
    const record = (id: string, domain: string) => ({
      jobId: id,
      status: 'running',
      progress: 40,
      pageCount: EXAMPLE_SITE_PAGES,
      createdAt: '2026-11-01T10:00:00.000Z',
      updatedAt: '2026-11-01T10:00:05.000Z',
      organization: 'acme',
      domain,
      attempts: 1,
    });
    await first.close();
    running.length = 0;
    await first.store.putJson(
      'jobs/se_00000000000000a1.json',
      record('se_00000000000000a1', 'docs.acme.test'),
    );
    await first.store.putJson(
      'jobs/se_00000000000000a2.json',
      record('se_00000000000000a2', 'gone.acme.test'),
    );

    // A job that was running each of the last three times a server stopped is not started again.
    await first.store.putJson('jobs/se_00000000000000a3.json', {
      ...record('se_00000000000000a3', 'docs.acme.test'),
      attempts: 3,
    });

    const second = await start(store);
    const resumed = await waitForJob(second, 'se_00000000000000a1', second.keys.acme);
    expect(resumed.at(-1)).toMatchObject({ status: 'completed' });
    const gone = await call(second, 'GET', '/v1/static-export/jobs/se_00000000000000a2', {
      key: second.keys.acme,
    });
    expect(gone.body.status).toBe('failed');
    expect(gone.body.error).toMatch(/restarted.*gone\.acme\.test is no longer configured/);
    const poison = await call(second, 'GET', '/v1/static-export/jobs/se_00000000000000a3', {
      key: second.keys.acme,
    });
    expect(poison.body).toMatchObject({
      status: 'failed',
      error: 'the export was interrupted 3 times (the server stopped while it ran); it is not started again',
    });
  });
});
