import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docsRepo, page } from '../export/fixtures.ts';
import { call, startTestApi, type TestApi, waitForJob } from './helpers.ts';

/**
 * A repository the platform builds past: a navigation entry naming a page that does not exist and
 * a page with invalid frontmatter. The job says how many warnings of each kind it had; a strict
 * site refuses them, naming each.
 */
let api: TestApi;

beforeAll(async () => {
  const imperfect = docsRepo({
    'docs.json': { name: 'Imperfect', navigation: { pages: ['index', 'renamed-long-ago'] } },
    'index.mdx': page('Home'),
    'notes.mdx': '---\ntitle: [unclosed\n---\n\nNotes.\n',
  });
  api = await startTestApi('exports: { concurrency: 1 }');
  const site = {
    organization: 'acme',
    source: { path: imperfect },
    deployment: 'cloud' as const,
    features: {},
  };
  api.config.sites.push(
    { ...site, domain: 'imperfect.acme.test' },
    { ...site, domain: 'strict.acme.test', strict: true },
  );
});

afterAll(async () => {
  await api?.close();
});

const run = async (domain: string) => {
  const started = await call(api, 'POST', '/v1/static-export/jobs', { key: api.keys.acme, body: { domain } });
  expect(started.status).toBe(202);
  return (await waitForJob(api, started.body.jobId)).at(-1);
};

describe('warnings of an export job', () => {
  it('are counted, in all and per kind, once the job completed', { timeout: 60_000 }, async () => {
    const done = await run('imperfect.acme.test');
    expect(done).toMatchObject({
      status: 'completed',
      pageCount: 2,
      warnings: { count: 3, byKind: { 'missing page': 1, 'invalid frontmatter': 1, 'missing title': 1 } },
    });
  });

  it('fail the job of a strict site, each one named', { timeout: 60_000 }, async () => {
    const done = await run('strict.acme.test');
    expect(done.status).toBe('failed');
    expect(done.warnings).toBeUndefined();
    expect(done.error).toMatch(/2 problems the platform builds past, refused because the export is strict/);
    expect(done.error).toMatch(/docs\.json: navigation\.pages\[1\]: page "renamed-long-ago" does not exist/);
    expect(done.error).toMatch(/notes\.mdx:2: invalid frontmatter/);
  });
});
