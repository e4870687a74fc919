import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseApiConfig } from '../../src/api/config-file.ts';
import { startApi } from '../../src/api/start.ts';
import { ApiKeys } from '../../src/service/api-keys.ts';
import { hideServerPaths } from '../../src/service/export-engine.ts';
import { openObjectStore } from '../../src/storage/open-store.ts';
import { tempDir } from '../export/fixtures.ts';
import { call, LogCapture, type TestApi, waitForJob } from './helpers.ts';

/** Failure messages a client reads name the tenant's files, never the server's directories. */
let api: TestApi;
const secretRoot = tempDir('docsnap-server-secret-');
const missing = join(secretRoot, 'not-there');
const looped = join(secretRoot, 'looped');

beforeAll(async () => {
  mkdirSync(looped);
  writeFileSync(
    join(looped, 'docs.json'),
    JSON.stringify({ name: 'Looped', navigation: { pages: ['index'] } }),
  );
  writeFileSync(join(looped, 'index.mdx'), '# Index\n');
  symlinkSync('loop-b', join(looped, 'loop-a'));
  symlinkSync('loop-a', join(looped, 'loop-b'));
  const store = tempDir('docsnap-store-');
  const config = parseApiConfig(`
server: { host: 127.0.0.1, port: 0 }
organizations: [{ id: acme, plan: enterprise, projects: [proj-1] }]
sites:
  - { domain: missing.acme.test, organization: acme, source: { path: ${missing} } }
  - { domain: looped.acme.test, organization: acme, source: { path: ${looped} } }
storage: { local: { dir: ${store} } }
`);
  const keys = {
    acme: await new ApiKeys(
      openObjectStore(config.storage, () => ''),
      'docsnap',
    ).create('acme'),
  };
  const log = new LogCapture();
  const running = await startApi(config, { logDestination: log });
  api = Object.assign(running, { keys: { ...keys, smallco: '', other: '' }, log, config });
});

afterAll(async () => {
  await api?.close();
});

describe('failure messages', () => {
  it.each([['missing.acme.test'], ['looped.acme.test']])('of %s name no server path', async (domain) => {
    const started = await call(api, 'POST', '/v1/static-export/jobs', {
      key: api.keys.acme,
      body: { domain },
    });
    expect(started.status).toBe(202);
    const seen = await waitForJob(api, started.body.jobId);
    const last = seen.at(-1);
    const text = JSON.stringify(last);
    expect(text).not.toContain(secretRoot);
    if (last.status === 'failed') expect(last.error.length).toBeGreaterThan(0);
  });

  it('keep repository-relative paths and errno codes, drop the server directories', () => {
    expect(hideServerPaths('docs repository not found: /srv/docs', ['/srv/docs'])).toBe(
      'docs repository not found: [server path]',
    );
    expect(hideServerPaths('/tmp/job-1/repo/pages/a.mdx:3: bad', ['/tmp/job-1/repo', '/tmp'])).toBe(
      'pages/a.mdx:3: bad',
    );
    expect(hideServerPaths("ELOOP: too many symbolic links encountered, stat '/x/y'", [])).toBe('ELOOP');
  });
});
