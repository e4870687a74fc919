import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearOpenApiCache, type RemoteSpecOptions } from '../../src/export/openapi/index.ts';
import { type ExportRequest, exportSite as exportWithoutFetcher } from '../../src/export/pipeline.ts';
import {
  addressRefusal,
  fetchRemoteSpec,
  remoteSpecUrl,
  resetRemoteSpecs,
} from '../../src/service/remote-openapi.ts';
import { docsRepo, tempDir } from '../export/fixtures.ts';

/** An export handed the fetcher, as the CLI and the export process hand it. */
const exportSite = (request: ExportRequest) => exportWithoutFetcher({ ...request, fetchRemoteSpec });

/**
 * Remote OpenAPI documents (service/remote-openapi.ts), fetched only on opt-in, from a real HTTP server on
 * loopback: loopback is refused unless the host is allowed by name, as are other private and
 * link-local addresses, other schemes, oversized and slow documents; a rebuild asks by ETag.
 */

const SPEC = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'Remote', version: '1' },
  paths: {
    '/users': {
      get: { tags: ['Users'], summary: 'List users', responses: { 200: { description: 'OK' } } },
    },
  },
});

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
const routes = new Map<string, Handler>();
const seen: { url: string; ifNoneMatch?: string }[] = [];
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', ifNoneMatch: req.headers['if-none-match'] });
    const handler = routes.get(req.url ?? '');
    if (handler) handler(req, res);
    else res.writeHead(404).end('not here');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  routes.set('/openapi.json', (req, res) => {
    if (req.headers['if-none-match'] === '"v1"') return res.writeHead(304).end();
    res.writeHead(200, { 'content-type': 'application/json', etag: '"v1"' }).end(SPEC);
  });
  routes.set('/redirect-to-file', (_req, res) =>
    res.writeHead(302, { location: 'file:///etc/passwd' }).end(),
  );
  routes.set('/redirect-to-metadata', (_req, res) =>
    res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end(),
  );
  routes.set('/huge.json', (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const more = () => {
      while (sent < 64 && res.write(chunk)) sent++;
      if (sent < 64) res.once('drain', more);
      else res.end();
    };
    more();
  });
  routes.set('/slow.json', () => {
    // Never answers: the export's deadline must end the wait.
  });
});

afterAll(async () => {
  clearOpenApiCache();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const allowLoopback = (extra: Partial<RemoteSpecOptions> = {}): RemoteSpecOptions => ({
  cacheDir: tempDir('docsnap-spec-cache-'),
  privateHosts: ['127.0.0.1'],
  ...extra,
});

describe('fetching a remote OpenAPI document', () => {
  it('refuses loopback, private and link-local addresses unless the host is allowed by name', async () => {
    const cacheDir = tempDir();
    await expect(fetchRemoteSpec(`${base}/openapi.json`, { cacheDir })).rejects.toThrow(
      /127\.0\.0\.1 is a loopback address/,
    );
    await expect(fetchRemoteSpec('http://169.254.169.254/openapi.json', { cacheDir })).rejects.toThrow(
      /a linkLocal address/,
    );
    await expect(fetchRemoteSpec('http://[::ffff:10.0.0.1]/openapi.json', { cacheDir })).rejects.toThrow(
      /a private address/,
    );
    // A name is checked on the address it resolves to.
    const port = new URL(base).port;
    await expect(fetchRemoteSpec(`http://localhost:${port}/openapi.json`, { cacheDir })).rejects.toThrow(
      /localhost resolves to .*loopback address/,
    );
    expect(seen.filter((s) => s.url === '/openapi.json')).toHaveLength(0);
  });

  it('refuses other schemes, credentials and redirects that leave http(s) or public addresses', async () => {
    const options = allowLoopback();
    await expect(fetchRemoteSpec('ftp://example.com/openapi.json', options)).rejects.toThrow(
      /is not http or https/,
    );
    await expect(fetchRemoteSpec('https://user:secret@example.com/openapi.json', options)).rejects.toThrow(
      /carries credentials/,
    );
    await expect(fetchRemoteSpec(`${base}/redirect-to-file`, options)).rejects.toThrow(
      /is not http or https/,
    );
    await expect(fetchRemoteSpec(`${base}/redirect-to-metadata`, options)).rejects.toThrow(
      /a linkLocal address/,
    );
  });

  it('stops at the size limit and the deadline, naming each', async () => {
    await expect(
      fetchRemoteSpec(`${base}/huge.json`, allowLoopback({ maxBytes: 1024 * 1024 })),
    ).rejects.toThrow(/over the limit of 1048576 bytes/);
    const started = Date.now();
    await expect(fetchRemoteSpec(`${base}/slow.json`, allowLoopback({ timeoutMs: 300 }))).rejects.toThrow(
      /did not arrive within 300 ms/,
    );
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('names the status of a document the server does not give, and never shows a query string', async () => {
    await expect(
      fetchRemoteSpec(`${base}/missing.json?X-Amz-Signature=abc123`, allowLoopback()),
    ).rejects.toThrow(/missing\.json\?…" answered HTTP 404/);
    await expect(
      fetchRemoteSpec(`${base}/missing.json?X-Amz-Signature=abc123`, allowLoopback()),
    ).rejects.not.toThrow(/abc123/);
  });
});

describe('what a hostile site could try against the fetch', () => {
  it('never reuses a connection opened for a host another site may reach', async () => {
    const port = new URL(base).port;
    // Site A may reach localhost; site B may not, even a moment later on the same host and port.
    await fetchRemoteSpec(`http://localhost:${port}/openapi.json`, {
      cacheDir: tempDir(),
      privateHosts: ['localhost'],
    });
    await expect(
      fetchRemoteSpec(`http://localhost:${port}/openapi.json?b`, { cacheDir: tempDir() }),
    ).rejects.toThrow(/localhost resolves to .*loopback address/);
  });

  it('fetches one URL once however it is spelled, into one copy', async () => {
    const port = new URL(base).port;
    const options = allowLoopback();
    const spellings = [
      `http://127.0.0.1:${port}/openapi.json`,
      `HTTP://127.0.0.1:${port}/openapi.json`,
      `http://127.0.0.1:${port}/./openapi.json`,
      `http://0x7f.1:${port}/openapi.json`,
    ];
    const copies = await Promise.all(spellings.map((url) => fetchRemoteSpec(url, options)));
    expect(new Set(copies.map((copy) => copy.root)).size).toBe(1);
  });

  it('keeps the query of a URL it cannot parse out of its message, and refuses IPv4-compatible IPv6', () => {
    expect(() => remoteSpecUrl('https://bad host/?sig=S3CRET')).toThrow(/https:\/\/bad host\/\?…/);
    expect(() => remoteSpecUrl('https://bad host/?sig=S3CRET')).not.toThrow(/S3CRET/);
    expect(addressRefusal('::7f00:1', '[::7f00:1]', [])).toMatch(/IPv4-compatible address/);
    expect(addressRefusal('::1', '[::1]', [])).toMatch(/loopback address/);
  });
});

describe('an export that opts in', () => {
  const site = () =>
    docsRepo({
      'docs.json': {
        name: 'A',
        navigation: {
          tabs: [
            { tab: 'Guides', pages: ['index'] },
            { tab: 'API', openapi: `${base}/openapi.json` },
          ],
        },
      },
      'index.mdx': '---\ntitle: Home\n---\n\nHello.\n',
    });

  it('makes the pages of a remote document, and a rebuild asks by ETag and uses its copy', async () => {
    const remoteSpecs = allowLoopback();
    const first = tempDir();
    await exportSite({ source: site(), outDir: first, workers: 1, options: { remoteSpecs } });
    expect(readFileSync(join(first, 'api-reference/users/list-users.html'), 'utf8')).toContain('/users');
    const requests = seen.filter((s) => s.url === '/openapi.json').length;

    // A new process (the in-process memo forgotten) revalidates: 304, and the copy is used.
    resetRemoteSpecs();
    clearOpenApiCache();
    const second = tempDir();
    await exportSite({ source: site(), outDir: second, workers: 2, options: { remoteSpecs } });
    const again = seen.filter((s) => s.url === '/openapi.json').slice(requests);
    expect(again).toEqual([{ url: '/openapi.json', ifNoneMatch: '"v1"' }]);
    expect(readFileSync(join(second, 'api-reference/users/list-users.html'), 'utf8')).toContain('/users');
  });

  it('warns and makes no pages when the document cannot be fetched, and refuses to run air-gapped', async () => {
    const out = tempDir();
    const result = await exportSite({
      source: site(),
      outDir: out,
      options: { remoteSpecs: { cacheDir: tempDir() } },
    });
    expect(result.warnings.map((w) => w.message).join('\n')).toMatch(
      /openapi\.json": 127\.0\.0\.1 is a loopback address, which an export does not connect to/,
    );
    await expect(
      exportSite({
        source: site(),
        outDir: tempDir(),
        options: { deployment: 'air-gapped', remoteSpecs: { cacheDir: tempDir() } },
      }),
    ).rejects.toThrow(/an air-gapped export fetches no remote OpenAPI documents/);
  });
});
