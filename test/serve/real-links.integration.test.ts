import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { S3ObjectStore } from '../../src/storage/s3-store.ts';
import { call, startTestApi, type TestApi, waitForJob } from '../api/helpers.ts';
import { tempDir } from '../export/fixtures.ts';
import { createBucket } from '../harness/s3.ts';
import { exportedBundle, startTestServer } from './helpers.ts';

/**
 * `docsnap serve` with the links it meets in production: an S3 presigned link from a real
 * S3-compatible server (versitygw), and a local signed link handed out by `docsnap api`.
 */

type Running = Awaited<ReturnType<typeof startTestServer>>;
const s3 = inject('s3');
const servers: Running[] = [];
const apis: TestApi[] = [];
afterAll(async () => {
  await Promise.all([...servers.map((s) => s.stop()), ...apis.map((a) => a.close())]);
});

async function serve(options: Parameters<typeof startTestServer>[0]): Promise<Running> {
  const server = await startTestServer(options);
  servers.push(server);
  await server.settled();
  return server;
}

describe('docsnap serve with real links', () => {
  it('fetches through an S3 presigned link, and says why when the link has expired', async () => {
    const bucket = `docsnap-serve-${Date.now()}`;
    await createBucket(s3, bucket);
    const store = new S3ObjectStore({
      bucket,
      region: s3.region,
      endpoint: s3.endpoint,
      forcePathStyle: true,
      prefix: 'sites',
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    });
    const bundle = await exportedBundle('Presigned Docs');
    const archive = join(tempDir(), 'site.tar.gz');
    writeFileSync(archive, bundle.archive);
    await store.putFile('bundles/site.tar.gz', archive, 'application/gzip');

    const link = await store.presignGet('bundles/site.tar.gz', 3_600_000);
    expect(link.url).toMatch(/X-Amz-Signature=/);
    const server = await serve({
      source: { values: { enabled: true, bundleUrl: link.url, version: `sha256:${bundle.sha256}` } },
    });
    expect(server.version()).toBe(`sha256:${bundle.sha256}`);
    expect(await (await fetch(`${server.url}/`)).text()).toContain('Welcome to Presigned Docs');
    expect(server.log.text).not.toMatch(/X-Amz-Signature|X-Amz-Credential/i);

    const expiring = await store.presignGet('bundles/site.tar.gz', 1_000);
    await new Promise((r) => setTimeout(r, 2_500));
    const late = await serve({
      source: { values: { enabled: true, bundleUrl: expiring.url, version: 'expired' } },
    });
    const ready = await fetch(`${late.adminUrl}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.text()).toMatch(
      /no verified bundle: .* answered 403 \(an expired or revoked link\?\)/,
    );
    expect(late.log.text).not.toMatch(/X-Amz-Signature/i);
  });

  it('fetches through the local signed link docsnap api hands out for a completed job', async () => {
    const api = await startTestApi();
    apis.push(api);
    const started = await call(api, 'POST', '/v1/static-export/jobs', {
      key: api.keys.acme,
      body: { domain: 'docs.acme.test' },
    });
    expect((await waitForJob(api, started.body.jobId)).at(-1)).toMatchObject({ status: 'completed' });
    const bundle = await call(api, 'POST', `/v1/static-export/jobs/${started.body.jobId}/bundle`, {
      key: api.keys.acme,
    });
    expect(bundle.body.bundleUrl).toMatch(/signature=/);
    const server = await serve({ source: { values: { enabled: true, bundleUrl: bundle.body.bundleUrl } } });
    const home = await fetch(`${server.url}/introduction`);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain('docsnap');
    expect(server.log.text).not.toContain('signature=');
  });
});
