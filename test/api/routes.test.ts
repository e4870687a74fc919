import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminApiOpenApiDocument } from '../../src/api/openapi-document.ts';
import { ExportBundle, ExportJob } from '../../src/contract/admin-api.ts';
import { EXAMPLE_SITE_PAGES, tempDir } from '../export/fixtures.ts';
import {
  agentJobRecord,
  type Body,
  call,
  download,
  startTestApi,
  type TestApi,
  waitForJob,
} from './helpers.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi(
    'rateLimits: { agentJobs: { max: 3, window: 1h } }\nlinks: { lifetime: 3s }\nexports: { concurrency: 1 }',
  );
  // Agent jobs are written by an agent system; here through the importer.
  const { AgentJobs } = await import('../../src/service/agent-jobs.ts');
  await new AgentJobs(api.store).import([
    agentJobRecord({
      id: 'job-active',
      status: 'active',
      source: { repository: 'https://github.com/acme/docs', ref: null },
      prLink: null,
    }),
    agentJobRecord(),
    agentJobRecord({ projectId: 'proj-other', id: 'job-x', status: 'failed', prLink: null }),
  ]);
});
afterAll(() => api?.close());

describe('authentication (spec section 5)', () => {
  it.each([
    ['no Authorization header', {}, /missing admin key/],
    ['a non-bearer scheme', { authorization: 'Basic abc' }, /malformed Authorization/],
    [
      'a key without the prefix',
      { authorization: 'Bearer sk_abcdefghijklmnopqrstuvwxyz' },
      /malformed admin key/,
    ],
    ['an unknown key', { authorization: `Bearer docsnap_${'A'.repeat(43)}` }, /unknown admin key/],
  ])('refuses %s with 401 and a Bearer challenge', async (_name, headers, message) => {
    const response = await call(api, 'GET', '/v1/static-export/jobs/se_0123456789abcdef', { headers });
    expect(response.status).toBe(401);
    expect(response.body.error).toMatch(message);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
  });
});

describe('GET /v2/agent/{projectId}/job/{id}', () => {
  it('returns every field of an AgentJob, nullable fields as null', async () => {
    const { status, body } = await call(api, 'GET', '/v2/agent/proj-1/job/job-active', {
      key: api.keys.acme,
    });
    expect(status).toBe(200);
    expect(body).toEqual({
      id: 'job-active',
      status: 'active',
      source: { repository: 'https://github.com/acme/docs', ref: null },
      model: 'claude-sonnet',
      prLink: null,
      createdAt: '2026-11-01T10:00:00.000Z',
      archivedAt: null,
    });
    const done = await call(api, 'GET', '/v2/agent/proj-1/job/job-done', { key: api.keys.acme });
    expect(done.body.prLink).toBe('https://github.com/acme/docs/pull/7');
  });

  it('is 404 {error} for an unknown job and for a project of another organization', async () => {
    const missing = await call(api, 'GET', '/v2/agent/proj-2/job/nope', { key: api.keys.acme });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'no agent job nope in project proj-2' });
    const foreign = await call(api, 'GET', '/v2/agent/proj-other/job/job-x', { key: api.keys.acme });
    expect(foreign.status).toBe(404);
  });

  it('is rate limited per project: 429 with Retry-After past the limit, other projects unaffected', async () => {
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof call>> | undefined;
    for (let i = 0; i < 3; i++) {
      last = await call(api, 'GET', '/v2/agent/proj-2/job/any', { key: api.keys.acme });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([404, 404, 429]); // one call of this project was made by the test above
    expect(Number(last?.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(last?.body.error).toMatch(/rate limit/i);
    const other = await call(api, 'GET', '/v2/agent/proj-other/job/job-x', { key: api.keys.other });
    expect(other.status).toBe(200);
  });
});

describe('static export jobs', () => {
  let jobId: string;

  it.each([
    [{ domain: 'https://docs.acme.test' }, /body\.domain: must be a hostname/],
    [{ domain: 'docs.acme.test/path' }, /body\.domain/],
    [{}, /body\.domain/],
    [{ domain: 'docs.acme.test', paths: 'quickstart' }, /body\.paths/],
  ])('refuses a bad body %j with 400 naming the field', async (body, message) => {
    const response = await call(api, 'POST', '/v1/static-export/jobs', { key: api.keys.acme, body });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatch(message);
  });

  it('answers 400 for bad JSON, another content type and a huge body (the contract documents 400 only)', async () => {
    const badJson = await call(api, 'POST', '/v1/static-export/jobs', {
      key: api.keys.acme,
      rawBody: '{"domain":',
      headers: { 'content-type': 'application/json' },
    });
    expect(badJson.status).toBe(400);
    expect(typeof badJson.body.error).toBe('string');
    const text = await call(api, 'POST', '/v1/static-export/jobs', {
      key: api.keys.acme,
      rawBody: 'domain=docs.acme.test',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status).toBe(400);
    expect(typeof text.body.error).toBe('string');
    const huge = await call(api, 'POST', '/v1/static-export/jobs', {
      key: api.keys.acme,
      body: { domain: 'docs.acme.test', version: 'x'.repeat(2 * 1024 * 1024) },
    });
    expect(huge.status).toBe(400);
    expect(typeof huge.body.error).toBe('string');
  });

  it("answers an unknown domain and another organization's alike (403), and 403 without Enterprise", async () => {
    const unknown = await call(api, 'POST', '/v1/static-export/jobs', {
      key: api.keys.acme,
      body: { domain: 'nobody.test' },
    });
    const foreign = await call(api, 'POST', '/v1/static-export/jobs', {
      key: api.keys.acme,
      body: { domain: 'docs.other.test' },
    });
    expect([unknown.status, foreign.status]).toEqual([403, 403]);
    expect(unknown.body.error).toBe('nobody.test is not a documentation site of your organization');
    expect(foreign.body.error).toBe('docs.other.test is not a documentation site of your organization');
    const plan = await call(api, 'POST', '/v1/static-export/jobs', {
      key: api.keys.smallco,
      body: { domain: 'docs.smallco.test' },
    });
    expect(plan.status).toBe(403);
    expect(plan.body.error).toMatch(/Enterprise/);
  });

  it('starts a job: 202 with jobId se_ + 16 hex digits, queued, progress 0', async () => {
    const { status, body } = await call(api, 'POST', '/v1/static-export/jobs', {
      key: api.keys.acme,
      body: { domain: 'DOCS.acme.test', version: '2026-11-01' },
    });
    expect(status).toBe(202);
    expect(ExportJob.parse(body)).toEqual(body);
    expect(body.jobId).toMatch(/^se_[0-9a-f]{16}$/);
    expect(body).toMatchObject({ status: 'queued', progress: 0, pageCount: 0 });
    expect(body.error).toBeUndefined();
    jobId = body.jobId;
  });

  it('refuses the bundle with 409 while the job is not completed', async () => {
    const response = await call(api, 'POST', `/v1/static-export/jobs/${jobId}/bundle`, {
      key: api.keys.acme,
    });
    expect(response.status).toBe(409);
    expect(response.body.error).toMatch(/completed/);
  });

  it('reports live progress and page count until completed', { timeout: 60_000 }, async () => {
    const seen = await waitForJob(api, jobId);
    const last = seen.at(-1);
    expect(last).toMatchObject({ status: 'completed', progress: 100, pageCount: EXAMPLE_SITE_PAGES });
    const progress = seen.map((s) => s.progress);
    expect(progress).toEqual([...progress].sort((a, b) => a - b)); // never goes back
    expect(seen.some((s) => s.status === 'running')).toBe(true);
    expect(Date.parse(last.updatedAt)).toBeGreaterThanOrEqual(Date.parse(last.createdAt));
  });

  it('hides a job from other organizations, and is 404 for any id that names no job, malformed or not', async () => {
    expect((await call(api, 'GET', `/v1/static-export/jobs/${jobId}`, { key: api.keys.other })).status).toBe(
      404,
    );
    for (const id of ['not-a-job', 'se_0000000000000000', 'SE_..', '%2e%2e%2fkeys', 'x'.repeat(1_500)]) {
      for (const [method, path] of [
        ['GET', `/v1/static-export/jobs/${id}`],
        ['POST', `/v1/static-export/jobs/${id}/bundle`],
      ] as const) {
        const response = await call(api, method, path, { key: api.keys.acme });
        expect(response.status, `${method} ${path.slice(0, 60)}`).toBe(404);
        expect(response.body).toEqual({ error: expect.any(String) });
      }
    }
  });

  it('accepts what the contract allows: unknown properties ignored, paths [] for every page, any version label', async () => {
    for (const body of [
      { domain: 'docs.acme.test', surprise: 1, callbackUrl: 'https://ci.example/hook' },
      { domain: 'docs.acme.test', paths: [] },
      { domain: 'docs.acme.test', version: 'v2 (release candidate) / 2026-11' },
    ]) {
      const response = await call(api, 'POST', '/v1/static-export/jobs', { key: api.keys.acme, body });
      expect(response.status, JSON.stringify(body)).toBe(202);
    }
  });

  it('gives a working link that expires, and a fresh one for the same job on request', {
    timeout: 30_000,
  }, async () => {
    const first = await call(api, 'POST', `/v1/static-export/jobs/${jobId}/bundle`, {
      key: api.keys.acme,
      headers: { 'content-type': 'application/json' }, // with an empty body, as many clients send it
    });
    expect(first.status).toBe(200);
    const bundle = ExportBundle.parse(first.body);
    expect(bundle.jobId).toBe(jobId);
    const archive = await download(bundle.bundleUrl);
    expect(archive.length).toBe(bundle.sizeBytes);
    const dir = tempDir();
    writeFileSync(join(dir, 'site.tar.gz'), archive);
    execFileSync('tar', ['-xzf', 'site.tar.gz'], { cwd: dir });
    expect(existsSync(join(dir, 'index.html'))).toBe(true);
    expect(existsSync(join(dir, 'docsnap-manifest.json'))).toBe(true);

    const tampered = bundle.bundleUrl.replace(
      /signature=([0-9a-f])/,
      (_m, c: string) => `signature=${c === 'a' ? 'b' : 'a'}`,
    );
    expect((await fetch(tampered)).status).toBe(403);
    const otherJob = bundle.bundleUrl.replace(jobId, 'se_0000000000000000');
    expect((await fetch(otherJob)).status).toBe(403);

    await new Promise((r) => setTimeout(r, Date.parse(bundle.expiresAt) - Date.now() + 200));
    const expired = await fetch(bundle.bundleUrl);
    expect(expired.status).toBe(403);
    expect(await expired.json()).toEqual({ error: 'link expired' });

    const again = await call(api, 'POST', `/v1/static-export/jobs/${jobId}/bundle`, { key: api.keys.acme });
    expect(again.status).toBe(200);
    expect(again.body.bundleUrl).not.toBe(bundle.bundleUrl);
    expect((await download(again.body.bundleUrl)).length).toBeGreaterThan(0);
  });

  it('reports a job that ends badly as 200 with status failed and the reason', {
    timeout: 60_000,
  }, async () => {
    const { body } = await call(api, 'POST', '/v1/static-export/jobs', {
      key: api.keys.acme,
      body: { domain: 'broken.acme.test' },
    });
    const last = (await waitForJob(api, body.jobId)).at(-1);
    expect(last.status).toBe('failed');
    expect(last.error).toMatch(/docs\.json/);
    const response = await call(api, 'GET', `/v1/static-export/jobs/${body.jobId}`, { key: api.keys.acme });
    expect(response.status).toBe(200);
  });

  it('answers 500 without internals when a stored record is corrupt', async () => {
    await api.store.putJson('jobs/se_00000000000000ff.json', {
      jobId: 'se_00000000000000ff',
      organization: 'acme',
    });
    const response = await call(api, 'GET', '/v1/static-export/jobs/se_00000000000000ff', {
      key: api.keys.acme,
    });
    expect(response.status).toBe(500);
    expect(response.body).toEqual({ error: 'internal server error' });
  });
});

describe('unknown routes and the OpenAPI document', () => {
  it('answers a known path with another method 405 and Allow', async () => {
    for (const method of ['DELETE', 'PUT', 'PATCH', 'QUERY']) {
      const response = await call(api, method, '/v1/static-export/jobs/se_0123456789abcdef', {
        key: api.keys.acme,
      });
      expect(response.status, method).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, HEAD');
      expect(response.body.error).toMatch(/not allowed/);
    }
  });

  it('answers an overlong agent job id 404, as any id that names no job', async () => {
    for (const id of ['x'.repeat(600), 'x'.repeat(3_000)]) {
      const response = await call(api, 'GET', `/v2/agent/proj-small/job/${id}`, { key: api.keys.smallco });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: expect.any(String) });
    }
  });

  it('answers an unknown route with 404 {error}', async () => {
    const response = await call(api, 'GET', '/v1/nothing', { key: api.keys.acme });
    expect(response.status).toBe(404);
    expect(response.body.error).toMatch(/no route GET \/v1\/nothing/);
  });

  it('serves an OpenAPI 3.0.1 document, version 2.0.0, generated from the route schemas', async () => {
    const { status, body } = await call(api, 'GET', '/openapi.json');
    expect(status).toBe(200);
    expect(body.openapi).toBe('3.0.1');
    expect(body.info.version).toBe('2.0.0');
    expect(Object.keys(body.paths).sort()).toEqual([
      '/v1/static-export/jobs',
      '/v1/static-export/jobs/{jobId}',
      '/v1/static-export/jobs/{jobId}/bundle',
      '/v2/agent/{projectId}/job/{id}',
    ]);
    expect(body.components.securitySchemes.adminKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(Object.keys(body.components.schemas)).toEqual(
      expect.arrayContaining(['AgentJob', 'ExportJob', 'ExportBundle', 'Error', 'StartExportRequest']),
    );
    const agent = body.paths['/v2/agent/{projectId}/job/{id}'].get;
    expect(Object.keys(agent.responses)).toEqual(expect.arrayContaining(['200', '401', '404', '429', '500']));
    expect(agent.security).toEqual([{ adminKey: [] }]);
    // Every response shows an example: its own, or that of the component it is.
    for (const [path, item] of Object.entries<Record<string, Body>>(body.paths))
      for (const [method, operation] of Object.entries<Body>(item))
        for (const [status, response] of Object.entries<Body>(operation.responses)) {
          const schema = response.content['application/json'].schema;
          const component = (schema.$ref ?? schema.allOf?.[0]?.$ref)?.split('/').at(-1);
          const example = schema.example ?? body.components.schemas[component]?.example;
          expect(example, `${method} ${path} ${status}`).toBeDefined();
        }
    // The document the example site's API reference is written from (npm run manifests) is this one.
    expect(body).toEqual(await adminApiOpenApiDocument());
  });
});

describe('logging', () => {
  it('never writes an admin key or a link signature to the log', async () => {
    const bundle = await call(api, 'POST', '/v1/static-export/jobs/se_0000000000000000/bundle', {
      key: api.keys.acme,
    });
    expect(bundle.status).toBe(404);
    await fetch(`${api.url}/downloads/bundles/x.tar.gz?expires=1&signature=${'ab'.repeat(32)}`);
    expect(api.log.text).toContain('"authorization":"[redacted]"');
    for (const key of Object.values(api.keys)) expect(api.log.text).not.toContain(key.slice(8));
    expect(api.log.text).not.toContain('ab'.repeat(32));
    expect(api.log.text).toContain('signature=[redacted]');
  });
});
