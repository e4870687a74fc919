import { tmpdir } from 'node:os';
import { gunzipSync } from 'node:zlib';
import { CreateBucketCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import { createLogger } from '../../src/api/logging.ts';
import type { StaticExport } from '../../src/contract/static-export.ts';
import { type RunningController, startController } from '../../src/operator/controller.ts';
import { download, LogCapture } from '../api/helpers.ts';
import { docsRepo, EXAMPLE_SITE, EXAMPLE_SITE_PAGES, page } from '../export/fixtures.ts';
import { GitServer } from '../harness/git-server.ts';
import { s3Client as testS3Client } from '../harness/s3.ts';
import { Cluster, secretAccess } from './helpers.ts';

const connection = inject('kube');
const s3 = inject('s3');
const cluster = new Cluster(connection, 'sx-embedded');
const bucket = `docsnap-embedded-${Date.now()}`;
const GIT_USER = { username: 'docs-bot', password: 'git-token-3f1c9a' };
const log = new LogCapture();
let git: GitServer;
let operator: RunningController;
let s3Client: S3Client;

const isReady = (r: StaticExport) =>
  r.status?.phase === 'Ready' && r.status.observedGeneration === r.metadata.generation;

/** An embedded exporter over the test bucket; `source` is the docs source. */
const spec = (source: Record<string, unknown>, overrides: Record<string, unknown> = {}) => ({
  domain: 'docs.embedded.test',
  exporter: {
    embedded: {
      source,
      storage: {
        s3: {
          bucket,
          endpoint: s3.endpoint,
          region: s3.region,
          credentialsSecretRef: { name: 's3-credentials' },
        },
      },
      linkLifetime: '1h',
    },
  },
  targets: [{ secret: { name: 'values' } }],
  pollInterval: '300ms',
  ...overrides,
});

const gitSource = (extra: Record<string, unknown> = {}) => ({
  git: {
    url: git.repoUrl('docs'),
    ref: 'main',
    credentialsSecretRef: { name: 'git-credentials' },
    pollInterval: '1s',
    ...extra,
  },
});

function staticExportValues(text: string | undefined) {
  return parse(text ?? '')?.staticExport as { bundleUrl: string; version: string; enabled: boolean };
}

function expectNoSecrets(resource: StaticExport, events: unknown[]) {
  const visible = JSON.stringify(resource.status) + JSON.stringify(events) + log.text;
  expect(visible).not.toContain(GIT_USER.password);
  expect(visible).not.toContain(Buffer.from(`${GIT_USER.username}:${GIT_USER.password}`).toString('base64'));
  expect(visible).not.toContain(s3.secretAccessKey);
  expect(visible).not.toMatch(/X-Amz-Signature=/i);
}

beforeAll(async () => {
  git = await GitServer.start({ auth: GIT_USER });
  git.createRepo('docs', EXAMPLE_SITE);
  s3Client = testS3Client(s3);
  await s3Client.send(new CreateBucketCommand({ Bucket: bucket }));
  await cluster.installCrd();
  await cluster.createSecret('s3-credentials', {
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
  });
  await cluster.createSecret('git-credentials', GIT_USER);
  operator = await startController({
    kubeConfig: cluster.kubeConfig,
    log: createLogger({ level: 'debug', destination: log }),
    namespaces: [cluster.namespace],
    settings: {
      failureBackoffMs: 1_000,
      maxFailureBackoffMs: 2_000,
      renewJitterMs: 500,
      // The mounted-path case: fixture repositories are made under the temporary directory.
      allowedSourceRoots: [tmpdir()],
    },
  });
});

afterAll(async () => {
  await operator?.stop();
  await git?.stop();
});

describe('embedded exporter: the pipeline inside the operator, bundles in S3', () => {
  let first: StaticExport;

  it('exports a git repository behind basic auth into the bucket and delivers a working link', async () => {
    await cluster.create('git-docs', spec(gitSource()));
    first = await cluster.waitFor('git-docs', isReady, 120_000);
    expect(first.status?.pageCount).toBe(EXAMPLE_SITE_PAGES);
    expect(first.status?.jobRevision).toMatch(/^[0-9a-f]{40}$/);
    expect(first.status?.bundle?.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    const values = staticExportValues(await cluster.secretValue('values', 'values.yaml'));
    expect(
      values.bundleUrl.startsWith(`${s3.endpoint}/${bucket}/${cluster.namespace}/git-docs/bundles/`),
    ).toBe(true);
    const archive = await download(values.bundleUrl);
    expect(archive.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b])); // gzip
    // The job record lives beside the bundle, so another replica can follow the job.
    const listed = await s3Client.send(
      new ListObjectsV2Command({ Bucket: bucket, Prefix: `${cluster.namespace}/git-docs/jobs/` }),
    );
    expect(listed.Contents?.map((o) => o.Key)).toEqual([
      `${cluster.namespace}/git-docs/jobs/${first.status?.jobId}.json`,
    ]);
    expectNoSecrets(first, await cluster.events('git-docs'));
  });

  it('exports again when the branch gets a new commit', async () => {
    const sha = git.commit(
      'docs',
      { 'introduction.mdx': page('Introduction', 'Rewritten for the new release.') },
      'new intro',
    );
    const next = await cluster.waitFor(
      'git-docs',
      (r) => isReady(r) && r.status?.jobRevision === sha,
      60_000,
    );
    expect(next.status?.jobId).not.toBe(first.status?.jobId);
    expect(next.status?.bundle?.digest).not.toBe(first.status?.bundle?.digest);
    const events = await cluster.eventsOnce(
      'git-docs',
      (e) => e.message?.includes('new source revision') ?? false,
    );
    expect(events.map((e) => e.message).join('\n')).toContain(`new source revision ${sha.slice(0, 12)}`);
  });

  it('refreshes the link of the embedded bundle before it expires', async () => {
    await cluster.create('short-links', {
      ...spec(gitSource()),
      exporter: {
        embedded: { ...spec(gitSource()).exporter.embedded, linkLifetime: '30s' },
      },
      bundle: { renewBefore: '26s' },
      targets: [{ secret: { name: 'short-values' } }],
    });
    const ready = await cluster.waitFor('short-links', isReady, 120_000);
    const firstLink = staticExportValues(await cluster.secretValue('short-values', 'values.yaml')).bundleUrl;
    const refreshed = await cluster.waitFor(
      'short-links',
      (r) => r.status?.bundle?.expiresAt !== ready.status?.bundle?.expiresAt,
      30_000,
    );
    expect(refreshed.status?.jobId).toBe(ready.status?.jobId);
    const secondLink = staticExportValues(await cluster.secretValue('short-values', 'values.yaml')).bundleUrl;
    expect(secondLink).not.toBe(firstLink);
    expect((await download(secondLink)).length).toBe(ready.status?.bundle?.sizeBytes);
  });

  it('fails clearly on wrong git credentials, and names no secret', async () => {
    await cluster.createSecret('wrong-git', { username: GIT_USER.username, password: 'not-the-token' });
    await cluster.create(
      'bad-auth',
      spec(gitSource({ credentialsSecretRef: { name: 'wrong-git' } }), {
        targets: [{ secret: { name: 'bad-values' } }],
      }),
    );
    const failed = await cluster.waitFor('bad-auth', (r) => r.status?.phase === 'Failed', 60_000);
    // The job's own failure (conditions) and the source check (error) both say what is wrong.
    const ready = failed.status?.conditions?.find((c) => c.type === 'Ready');
    expect(ready?.message).toMatch(/authentication failed for http:\/\/127\.0\.0\.1:\d+\/docs\.git/i);
    expect(failed.status?.error).toMatch(/authentication failed/i);
    expect(failed.status?.error).not.toContain('not-the-token');
    expect(JSON.stringify(await cluster.events('bad-auth'))).not.toContain('not-the-token');
  });

  it('names a missing storage credentials Secret and goes on once it exists', async () => {
    const resource = spec(gitSource(), { targets: [{ secret: { name: 'later-values' } }] });
    resource.exporter.embedded.storage.s3.credentialsSecretRef = { name: 'later-s3' };
    await cluster.create('no-storage-secret', resource);
    const waiting = await cluster.waitFor('no-storage-secret', (r) =>
      Boolean(r.status?.conditions?.some((c) => c.reason === 'CredentialsSecretNotFound')),
    );
    expect(waiting.status?.conditions?.find((c) => c.type === 'Ready')?.message).toContain(
      'Secret later-s3 (spec.exporter.embedded.storage.s3.credentialsSecretRef) does not exist',
    );
    await cluster.createSecret('later-s3', { accessKeyId: s3.accessKeyId });
    await cluster.waitFor('no-storage-secret', (r) =>
      Boolean(r.status?.conditions?.some((c) => c.reason === 'CredentialsMissing')),
    );
    await cluster.core.replaceNamespacedSecret({
      namespace: cluster.namespace,
      name: 'later-s3',
      body: {
        metadata: { name: 'later-s3', ...secretAccess(['*']) },
        stringData: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
      },
    });
    await cluster.waitFor('no-storage-secret', isReady, 120_000);
  });

  it('exports a ConfigMap source and exports again when the ConfigMap changes', async () => {
    const files = {
      'docs.json': JSON.stringify({ name: 'Small', navigation: { pages: ['index', 'guides/setup'] } }),
      'index.mdx': page('Welcome'),
      'guides__setup.mdx': page('Setup', 'Install it.'),
    };
    await cluster.core.createNamespacedConfigMap({
      namespace: cluster.namespace,
      body: { metadata: { name: 'small-docs' }, data: files },
    });
    await cluster.create(
      'configmap-docs',
      spec(
        { configMap: { name: 'small-docs', pollInterval: '1s' } },
        { targets: [{ secret: { name: 'cm-values' } }] },
      ),
    );
    const ready = await cluster.waitFor('configmap-docs', isReady, 20_000);
    expect(ready.status?.pageCount).toBe(2);
    expect(ready.status?.jobRevision).toMatch(/^configmap\//);

    await cluster.core.replaceNamespacedConfigMap({
      namespace: cluster.namespace,
      name: 'small-docs',
      body: {
        metadata: { name: 'small-docs' },
        data: { ...files, 'index.mdx': page('Welcome', 'Changed.') },
      },
    });
    const again = await cluster.waitFor(
      'configmap-docs',
      (r) => isReady(r) && r.status?.jobRevision !== ready.status?.jobRevision,
      30_000,
    );
    expect(again.status?.jobId).not.toBe(ready.status?.jobId);
  });

  it('counts the warnings of the export in status, and a strict one refuses them', async () => {
    // A navigation entry naming a page that is not there, and a page whose frontmatter is invalid.
    const files = {
      'docs.json': JSON.stringify({ name: 'Imperfect', navigation: { pages: ['index', 'gone'] } }),
      'index.mdx': page('Welcome'),
      'notes.mdx': '---\ntitle: [unclosed\n---\n\nNotes.\n',
    };
    await cluster.core.createNamespacedConfigMap({
      namespace: cluster.namespace,
      body: { metadata: { name: 'imperfect-docs' }, data: files },
    });
    await cluster.create(
      'imperfect-docs',
      spec(
        { configMap: { name: 'imperfect-docs' } },
        { targets: [{ secret: { name: 'imperfect-values' } }] },
      ),
    );
    const ready = await cluster.waitFor('imperfect-docs', isReady, 30_000);
    expect(ready.status?.pageCount).toBe(2);
    expect(ready.status?.warnings).toEqual({
      count: 3,
      byKind: { 'missing page': 1, 'invalid frontmatter': 1, 'missing title': 1 },
    });

    const strict = spec(
      { configMap: { name: 'imperfect-docs' } },
      { targets: [{ secret: { name: 'strict-values' } }] },
    );
    Object.assign(strict.exporter.embedded, { strict: true });
    await cluster.create('strict-docs', strict);
    const failed = await cluster.waitFor('strict-docs', (r) => r.status?.phase === 'Failed', 30_000);
    expect(failed.status?.warnings).toBeUndefined();
    expect(failed.status?.error).toMatch(/refused because the export is strict/);
    expect(failed.status?.error).toMatch(/page "gone" does not exist/);
  });

  it('exports a mounted path, with siteUrl for the sitemap', async () => {
    const dir = docsRepo({
      'docs.json': { name: 'Mounted', navigation: { pages: ['index'] } },
      'index.mdx': page('Mounted docs'),
    });
    const resource = spec({ path: dir }, { targets: [{ configMap: { name: 'path-values' } }] });
    Object.assign(resource.exporter.embedded, { siteUrl: 'https://docs.internal.test' });
    await cluster.create('path-docs', resource);
    const ready = await cluster.waitFor('path-docs', isReady, 60_000);
    expect(ready.status?.pageCount).toBe(1);
    expect(ready.status?.jobRevision).toBeUndefined();
    const configMap = await cluster.core.readNamespacedConfigMap({
      namespace: cluster.namespace,
      name: 'path-values',
    });
    const archive = gunzipSync(await download(staticExportValues(configMap.data?.['values.yaml']).bundleUrl));
    expect(archive.toString('latin1')).toContain('https://docs.internal.test/');
  });

  it('a job interrupted by an operator stop is resumed by the next operator, not started twice', async () => {
    await cluster.create('resumed', spec(gitSource(), { targets: [{ secret: { name: 'resumed-values' } }] }));
    const running = await cluster.waitFor('resumed', (r) => Boolean(r.status?.jobId), 60_000);
    await operator.stop();
    operator = await startController({
      kubeConfig: cluster.kubeConfig,
      log: createLogger({ level: 'debug', destination: log }),
      namespaces: [cluster.namespace],
      settings: { failureBackoffMs: 1_000, maxFailureBackoffMs: 2_000, renewJitterMs: 500 },
    });
    const ready = await cluster.waitFor('resumed', isReady, 120_000);
    expect(ready.status?.jobId).toBe(running.status?.jobId);
    const listed = await s3Client.send(
      new ListObjectsV2Command({ Bucket: bucket, Prefix: `${cluster.namespace}/resumed/jobs/` }),
    );
    expect(listed.Contents).toHaveLength(1);
  });
});
