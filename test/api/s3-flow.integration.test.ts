import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { EXAMPLE_SITE_PAGES, tempDir } from '../export/fixtures.ts';
import { createBucket } from '../harness/s3.ts';
import { call, download, startTestApi, type TestApi, waitForJob } from './helpers.ts';

describe('docsnap api with the S3 store (versitygw)', () => {
  const s3 = inject('s3');
  const bucket = `docsnap-api-${Date.now()}`;
  let api: TestApi;

  beforeAll(async () => {
    await createBucket(s3, bucket);
    // Credentials reach the store the way they do in production: from the environment.
    process.env.AWS_ACCESS_KEY_ID = s3.accessKeyId;
    process.env.AWS_SECRET_ACCESS_KEY = s3.secretAccessKey;
    api = await startTestApi(
      'links: { lifetime: 2s }',
      undefined,
      `s3: { bucket: ${bucket}, region: ${s3.region}, endpoint: "${s3.endpoint}", forcePathStyle: true, prefix: exports }`,
    );
  });
  afterAll(() => api?.close());

  it('start → poll → bundle → download → untar; the link expires; a new request gives a working one', {
    timeout: 90_000,
  }, async () => {
    const { status, body } = await call(api, 'POST', '/v1/static-export/jobs', {
      key: api.keys.acme,
      body: { domain: 'docs.acme.test' },
    });
    expect(status).toBe(202);
    const done = (await waitForJob(api, body.jobId)).at(-1);
    expect(done).toMatchObject({ status: 'completed', pageCount: EXAMPLE_SITE_PAGES });

    const bundle = await call(api, 'POST', `/v1/static-export/jobs/${body.jobId}/bundle`, {
      key: api.keys.acme,
    });
    expect(bundle.status).toBe(200);
    expect(bundle.body.bundleUrl).toContain(`${s3.endpoint}/${bucket}/exports/bundles/${body.jobId}.tar.gz?`);
    expect(bundle.body.bundleUrl).toContain('X-Amz-Signature=');
    const archive = await download(bundle.body.bundleUrl);
    expect(archive.length).toBe(bundle.body.sizeBytes);
    const dir = tempDir();
    writeFileSync(join(dir, 'site.tar.gz'), archive);
    execFileSync('tar', ['-xzf', 'site.tar.gz'], { cwd: dir });
    expect(existsSync(join(dir, 'index.html'))).toBe(true);

    await new Promise((r) => setTimeout(r, Date.parse(bundle.body.expiresAt) - Date.now() + 1500));
    // Bodies are read to the end: a response left half-read keeps its socket paused.
    const expired = await fetch(bundle.body.bundleUrl);
    await expired.arrayBuffer();
    expect(expired.status).toBe(403);
    const fresh = await call(api, 'POST', `/v1/static-export/jobs/${body.jobId}/bundle`, {
      key: api.keys.acme,
    });
    expect(fresh.body.bundleUrl).not.toBe(bundle.body.bundleUrl);
    expect((await download(fresh.body.bundleUrl)).length).toBe(bundle.body.sizeBytes);
    // Job records and keys live in the bucket too: nothing is kept only in the server's memory.
    expect(await api.store.list('jobs/')).toContain(`jobs/${body.jobId}.json`);
  });
});
