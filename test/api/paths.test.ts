import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_SITE } from '../export/fixtures.ts';
import { GitServer } from '../harness/git-server.ts';
import { call, startTestApi, type TestApi, waitForJob } from './helpers.ts';

/** `paths` of a start request: checked against the site's pages before the job is accepted. */
let api: TestApi;
let git: GitServer;

beforeAll(async () => {
  git = await GitServer.start();
  git.createRepo('docs', EXAMPLE_SITE);
  api = await startTestApi('exports: { concurrency: 1 }');
  // A git site besides the path sites of the test configuration.
  api.config.sites.push({
    domain: 'git.acme.test',
    organization: 'acme',
    source: { git: { url: git.repoUrl('docs'), ref: 'main' } },
    deployment: 'air-gapped',
  } as (typeof api.config.sites)[number]);
});

afterAll(async () => {
  await api?.close();
  await git?.stop();
});

const start = (body: object) => call(api, 'POST', '/v1/static-export/jobs', { key: api.keys.acme, body });

describe('paths of a start request', () => {
  it('that name no page are refused with 400 listing every one; nothing is queued', async () => {
    const refused = await start({ domain: 'docs.acme.test', paths: ['index', 'nope', 'quickstart', 'x/y'] });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('2 requested paths name no page: nope, x/y');
    expect((await api.store.list('jobs/')).length).toBe(0);
  });

  it('that name pages give a job of exactly those pages', { timeout: 60_000 }, async () => {
    const started = await start({ domain: 'docs.acme.test', paths: ['index', 'quickstart'] });
    expect(started.status).toBe(202);
    const done = (await waitForJob(api, started.body.jobId)).at(-1);
    expect(done).toMatchObject({ status: 'completed', pageCount: 2 });
  });

  it('of a site that does not load now are not checked: the job is queued and reports why', {
    timeout: 60_000,
  }, async () => {
    const started = await start({ domain: 'broken.acme.test', paths: ['a'] });
    expect(started.status).toBe(202);
    expect((await waitForJob(api, started.body.jobId)).at(-1)).toMatchObject({ status: 'failed' });
  });

  it('of a git site are checked at a commit, and the job exports that commit', {
    timeout: 120_000,
  }, async () => {
    // The one export slot is busy, so the checked job waits while the branch moves on.
    const busy = await start({ domain: 'docs.acme.test' });
    const checked = await start({ domain: 'git.acme.test', paths: ['quickstart'] });
    expect(checked.status).toBe(202);
    git.commit('docs', { 'docs.json': '{ "broken": ' }, 'a broken docs.json');
    await waitForJob(api, busy.body.jobId);
    expect((await waitForJob(api, checked.body.jobId)).at(-1)).toMatchObject({
      status: 'completed',
      pageCount: 1,
    });
    // The branch as it is now: the check cannot load it, the job is queued and fails.
    const later = await start({ domain: 'git.acme.test', paths: ['quickstart'] });
    expect(later.status).toBe(202);
    expect((await waitForJob(api, later.body.jobId)).at(-1)).toMatchObject({ status: 'failed' });
  });
});
