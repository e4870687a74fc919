import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../export/fixtures.ts';
import { ArchiveStore, exportedBundle, handMadeArchive, startTestServer } from './helpers.ts';

type Running = Awaited<ReturnType<typeof startTestServer>>;

const store = new ArchiveStore();
let v1: { archive: Buffer; sha256: string };
let v2: { archive: Buffer; sha256: string };
const servers: Running[] = [];

beforeAll(async () => {
  await store.start();
  v1 = await exportedBundle('Version One');
  v2 = await exportedBundle('Version Two');
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await store.stop();
});

const values = (link: string, version?: string, enabled = true) => ({ enabled, bundleUrl: link, version });
async function serve(options: Parameters<typeof startTestServer>[0]): Promise<Running> {
  const server = await startTestServer(options);
  servers.push(server);
  await server.settled();
  return server;
}
/** The `err` of every log line, one per line: messages as written, without JSON escaping. */
const loggedErrors = (server: Running) =>
  server.log.text
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { err?: string }).err ?? '')
    .join('\n');
const get = (server: Running, path: string, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, { headers });
const text = async (server: Running, path: string) => (await get(server, path)).text();

/** A raw request line, as a client that does not normalize paths sends it. */
function rawStatus(server: Running, path: string): Promise<number> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () =>
      socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`),
    );
    let reply = '';
    socket.on('data', (chunk) => {
      reply += chunk.toString();
    });
    socket.on('end', () => resolve(Number(reply.split(' ')[1])));
    socket.on('error', reject);
  });
}

describe('docsnap serve', () => {
  it('fetches, verifies and serves a bundle as a CDN edge would', async () => {
    const link = store.put('/bundles/v1.tar.gz', v1.archive);
    const server = await serve({ source: { values: values(link, `sha256:${v1.sha256}`) } });
    expect(server.version()).toBe(`sha256:${v1.sha256}`);

    const home = await get(server, '/', { 'accept-encoding': 'br' });
    expect(home.status).toBe(200);
    expect(home.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(home.headers.get('content-encoding')).toBe('br');
    expect(home.headers.get('cache-control')).toBe('no-cache');
    expect(home.headers.get('vary')).toBe('Accept-Encoding');
    expect(home.headers.get('x-content-type-options')).toBe('nosniff');
    expect(home.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(home.headers.get('content-security-policy')).toMatch(
      /^default-src 'self';.*frame-ancestors 'self'$/,
    );
    expect(await home.text()).toContain('Welcome to Version One');

    // /path, /path/ and /path.html all reach the page the export wrote as path.html.
    for (const path of ['/guide/page-1', '/guide/page-1/', '/guide/page-1.html'])
      expect(await text(server, path), path).toContain('Version One guide/page-1');

    const etag = (await get(server, '/guide/page-0')).headers.get('etag') as string;
    expect(etag).toMatch(/^"[0-9a-f]{32}(-gz)?"$/);
    expect((await get(server, '/guide/page-0', { 'if-none-match': etag })).status).toBe(304);
    const lastModified = (await get(server, '/guide/page-0')).headers.get('last-modified') as string;
    expect(
      (
        await get(server, '/guide/page-0', {
          'if-modified-since': lastModified,
          'accept-encoding': 'identity',
        })
      ).status,
    ).toBe(304);

    const head = await fetch(`${server.url}/index.html`, {
      method: 'HEAD',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(1000);
    const range = await get(server, '/index.html', { range: 'bytes=0-14' });
    expect(range.status).toBe(206);
    expect(range.headers.get('content-range')).toMatch(/^bytes 0-14\/\d+$/);
    expect(await range.text()).toBe('<!doctype html>');
    expect((await get(server, '/index.html', { range: 'bytes=999999999-' })).status).toBe(416);

    const missing = await get(server, '/no/such/page');
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('Page not found');
    expect((await get(server, '/guide/')).status).toBe(404); // no directory listing
    expect((await fetch(`${server.url}/`, { method: 'POST' })).status).toBe(405);
    for (const path of [
      '/../../etc/passwd',
      '/%2e%2e/%2e%2e/etc/passwd',
      '/guide/..%2f..%2fdocs.json',
      '/a%00b',
      '/a\\..\\b',
      '/%zz',
    ])
      expect(await rawStatus(server, path), path).toBe(400);

    const ready = await fetch(`${server.adminUrl}/readyz`);
    expect(ready.status).toBe(200);
    const metrics = await (await fetch(`${server.adminUrl}/metrics`)).text();
    expect(metrics).toContain(
      `docsnap_serve_active_version_info{version="sha256:${v1.sha256}",source="download"} 1`,
    );
    expect(metrics).toMatch(/docsnap_serve_requests_total\{code="404"\} [1-9]/);
    // The link's query string (its signature) never reaches the log.
    expect(server.log.text).not.toContain('s3cr3t');
    expect(server.log.text).not.toContain('signature=');
  });

  it('serves "not published" with 503 when staticExport.enabled is false', async () => {
    const server = await serve({
      source: { values: values(store.put('/x.tar.gz', v1.archive), undefined, false) },
    });
    const response = await get(server, '/');
    expect(response.status).toBe(503);
    expect(await response.text()).toMatch(/not published/);
    const ready = await fetch(`${server.adminUrl}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.text()).toMatch(/not published/);
  });

  it('serves the cached bundle when the link has expired at startup, and downloads nothing for a refreshed link', async () => {
    const cacheDir = tempDir();
    const link = store.put('/bundles/cached.tar.gz', v1.archive);
    const first = await serve({ source: { values: values(link, `sha256:${v1.sha256}`) }, cacheDir });
    await first.stop();
    store.setAnswer(403);
    const before = store.requests.length;
    try {
      const second = await serve({ source: { values: values(link, `sha256:${v1.sha256}`) }, cacheDir });
      expect(await text(second, '/')).toContain('Version One');
      expect((await fetch(`${second.adminUrl}/readyz`)).status).toBe(200);
      expect(second.log.text).toContain('serving a verified bundle from the cache');
      expect(await (await fetch(`${second.adminUrl}/metrics`)).text()).toContain('source="cache"} 1');
      expect(store.requests.length).toBe(before);
    } finally {
      store.setAnswer(undefined);
    }
  });

  it('is not ready, and says why, when the link fails and nothing is cached', async () => {
    store.setAnswer(403);
    try {
      const server = await serve({
        source: { values: values(`${store.url}/gone.tar.gz?signature=x`, 'v9') },
      });
      expect((await get(server, '/')).status).toBe(503);
      const ready = await fetch(`${server.adminUrl}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.text()).toMatch(
        /no verified bundle: .*answered 403 \(an expired or revoked link\?\)/,
      );
    } finally {
      store.setAnswer(undefined);
    }
  });

  it('hot-swaps a new version when kubelet swaps the mounted values file, and keeps a link-only change free', async () => {
    // kubelet's layout: the file is a symlink through ..data to a timestamped folder, swapped by rename.
    const mount = tempDir();
    const writeValues = (name: string, link: string, version: string) => {
      const folder = join(mount, name);
      mkdirSync(folder);
      writeFileSync(
        join(folder, 'values.yaml'),
        `other: kept\nstaticExport:\n  enabled: true\n  bundleUrl: "${link}"\n  version: "${version}"\n`,
      );
      symlinkSync(name, join(mount, '..data_tmp'));
      renameSync(join(mount, '..data_tmp'), join(mount, '..data'));
    };
    writeValues('..2026_11_24_01', store.put('/swap/v1.tar.gz', v1.archive), `sha256:${v1.sha256}`);
    symlinkSync('..data/values.yaml', join(mount, 'values.yaml'));
    const server = await serve({ source: { valuesFile: join(mount, 'values.yaml') } });
    expect(await text(server, '/')).toContain('Version One');

    const requestsBefore = store.requests.length;
    writeValues(
      '..2026_11_24_02',
      `${store.put('/swap/v1.tar.gz', v1.archive)}&refreshed=1`,
      `sha256:${v1.sha256}`,
    );
    await new Promise((r) => setTimeout(r, 1500));
    await server.settled();
    expect(store.requests.length).toBe(requestsBefore); // a refreshed link of the same version: nothing fetched

    const started = Date.now();
    writeValues('..2026_11_24_03', store.put('/swap/v2.tar.gz', v2.archive), `sha256:${v2.sha256}`);
    while (server.version() !== `sha256:${v2.sha256}` && Date.now() - started < 10_000)
      await new Promise((r) => setTimeout(r, 50));
    expect(server.version()).toBe(`sha256:${v2.sha256}`);
    expect(await text(server, '/')).toContain('Version Two');
    rmSync(join(mount, '..2026_11_24_01'), { recursive: true });
  });

  it('swaps ten times under load with no failed request', { timeout: 60_000 }, async () => {
    const link1 = store.put('/load/v1.tar.gz', v1.archive);
    const link2 = store.put('/load/v2.tar.gz', v2.archive);
    const mount = tempDir();
    const file = join(mount, 'values.yaml');
    const setVersion = (n: number) => {
      const [link, sha] = n % 2 === 0 ? [link1, v1.sha256] : [link2, v2.sha256];
      writeFileSync(
        `${file}.tmp`,
        `staticExport: { enabled: true, bundleUrl: "${link}", version: "sha256:${sha}" }\n`,
      );
      renameSync(`${file}.tmp`, file);
      return `sha256:${sha}`;
    };
    setVersion(0);
    const server = await serve({ source: { valuesFile: file }, drainMs: 200 });
    let stop = false;
    let ok = 0;
    const failures: string[] = [];
    const client = async () => {
      for (let i = 0; !stop; i++) {
        const path = ['/', '/guide/page-1', '/guide/page-2.html', '/_docsnap/site.css'][i % 4] as string;
        try {
          const response = await get(server, path, { 'accept-encoding': i % 2 ? 'br' : 'gzip' });
          const body = await response.text();
          if (response.status === 200 && body.length > 0) ok++;
          else failures.push(`${path}: ${response.status}`);
        } catch (error) {
          failures.push(`${path}: ${(error as Error).message}`);
        }
      }
    };
    const clients = Array.from({ length: 8 }, client);
    for (let n = 1; n <= 10; n++) {
      const wanted = setVersion(n);
      const since = Date.now();
      while (server.version() !== wanted) {
        if (Date.now() - since > 10_000)
          throw new Error(`swap ${n} never happened: ${server.log.text.slice(-3000)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    stop = true;
    await Promise.all(clients);
    expect(failures).toEqual([]);
    expect(ok).toBeGreaterThan(100);
    expect(await (await fetch(`${server.adminUrl}/metrics`)).text()).toMatch(/docsnap_serve_swaps_total 10/);
  });
});

describe('docsnap serve shutting down', () => {
  it('finishes every response it began under load, then refuses new connections', {
    timeout: 60_000,
  }, async () => {
    const link = store.put('/shutdown/v1.tar.gz', v1.archive);
    const server = await startTestServer({ source: { values: values(link, `sha256:${v1.sha256}`) } });
    await server.settled();
    let stopping = false;
    let completed = 0;
    const broken: string[] = [];
    let refused = 0;
    const client = async () => {
      for (let i = 0; ; i++) {
        const path = ['/', '/guide/page-1', '/guide/page-2.html'][i % 3] as string;
        let response: Response;
        try {
          response = await fetch(`${server.url}${path}`, { headers: { 'accept-encoding': 'identity' } });
        } catch {
          // Only once the server is stopping may a connection be refused.
          if (!stopping) broken.push(`${path}: refused before the stop`);
          refused++;
          return;
        }
        const body = Buffer.from(await response.arrayBuffer());
        if (response.status !== 200 || body.length !== Number(response.headers.get('content-length')))
          broken.push(`${path}: ${response.status}, ${body.length} bytes`);
        else completed++;
      }
    };
    const clients = Array.from({ length: 8 }, client);
    await new Promise((r) => setTimeout(r, 500));
    stopping = true;
    const stopped = Date.now();
    await server.stop();
    await Promise.all(clients);
    expect(broken).toEqual([]);
    expect(completed).toBeGreaterThan(50);
    expect(refused).toBe(8);
    expect(Date.now() - stopped).toBeLessThan(11_000);
  });
});

describe('docsnap serve refuses unsafe or wrong archives, and keeps serving the last good one', () => {
  let server: Running;
  let mountFile: string;
  const serveNext = async (archive: Buffer, version: string) => {
    const link = store.put(`/hostile/${Math.random().toString(36).slice(2)}.tar.gz`, archive);
    writeFileSync(
      `${mountFile}.tmp`,
      `staticExport: { enabled: true, bundleUrl: "${link}", version: "${version}" }\n`,
    );
    renameSync(`${mountFile}.tmp`, mountFile);
    // Done when the server has either refused this version or swapped it in (retries of earlier
    // versions log too: look for this one).
    const decided = () =>
      server.log.text
        .split('\n')
        .some(
          (line) => line.includes(`"version":"${version}"`) && /bundle refused|"version active"/.test(line),
        );
    for (const started = Date.now(); !decided() && Date.now() - started < 20_000; )
      await new Promise((r) => setTimeout(r, 50));
    await server.settled();
  };

  beforeAll(async () => {
    mountFile = join(tempDir(), 'values.yaml');
    writeFileSync(
      mountFile,
      `staticExport: { enabled: true, bundleUrl: "${store.put('/good.tar.gz', v1.archive)}", version: "sha256:${v1.sha256}" }\n`,
    );
    server = await serve({
      source: { valuesFile: mountFile },
      // Each refusal is counted once: no retry of an earlier version lands in a later test.
      retryFirstMs: 600_000,
      unpackLimits: { maxBytes: 50 * 1024 ** 2, maxFiles: 1000, maxRatio: 200 },
    });
  });

  const manifest = (files: Record<string, string>) => JSON.stringify({ files });
  it.each([
    [
      'an absolute name',
      () => handMadeArchive([{ name: '/etc/evil', body: 'x' }]),
      /"\/etc\/evil": unsafe name: it is an absolute path/,
    ],
    [
      'a .. name',
      () => handMadeArchive([{ name: 'a/../../evil', body: 'x' }]),
      /unsafe name: it leaves the output directory/,
    ],
    [
      'a symlink',
      () => handMadeArchive([{ name: 'link', type: 'symlink', linkname: '/etc/passwd' }]),
      /"link": a symlink entry; only regular files/,
    ],
    [
      'a hard link',
      () => handMadeArchive([{ name: 'hard', type: 'link', linkname: 'index.html' }]),
      /"hard": a link entry/,
    ],
    [
      'a device',
      () => handMadeArchive([{ name: 'dev', type: 'character-device' }]),
      /"dev": a character-device entry/,
    ],
    ['a FIFO', () => handMadeArchive([{ name: 'fifo', type: 'fifo' }]), /"fifo": a fifo entry/],
    [
      'a decompression bomb',
      () => handMadeArchive([{ name: 'zeros.txt', body: Buffer.alloc(40 * 1024 ** 2) }]),
      /compression ratio above 200:1/,
    ],
    [
      'too many bytes',
      async () => handMadeArchive([{ name: 'big.bin', body: Buffer.alloc(51 * 1024 ** 2, 7) }]),
      /more than 52428800 bytes unpacked/,
    ],
    [
      'a truncated archive',
      async () => v1.archive.subarray(0, Math.floor(v1.archive.length / 2)),
      /the archive cannot be read/,
    ],
    ['not gzip at all', async () => Buffer.from('<html>an error page</html>'), /the archive cannot be read/],
    [
      'no manifest',
      () => handMadeArchive([{ name: 'index.html', body: 'x' }]),
      /has no docsnap-manifest.json/,
    ],
    [
      'a file whose sha256 differs from the manifest',
      () =>
        handMadeArchive([
          { name: 'docsnap-manifest.json', body: manifest({ 'index.html': '0'.repeat(64) }) },
          { name: 'index.html', body: 'tampered' },
        ]),
      /index.html: its sha256 differs from the manifest/,
    ],
    [
      'a file the manifest does not list',
      () =>
        handMadeArchive([
          { name: 'docsnap-manifest.json', body: manifest({}) },
          { name: 'extra.js', body: 'alert(1)' },
        ]),
      /extra.js: in the archive, not in the manifest/,
    ],
  ])('%s', async (_name, make, reason) => {
    const archive = await make();
    const failuresBefore = (await (await fetch(`${server.adminUrl}/metrics`)).text()).match(
      /docsnap_serve_verify_failures_total (\d+)/,
    )?.[1];
    await serveNext(archive, `hostile-${Math.random()}`);
    expect(loggedErrors(server)).toMatch(reason);
    expect(server.version()).toBe(`sha256:${v1.sha256}`);
    expect(await text(server, '/')).toContain('Version One');
    const metrics = await (await fetch(`${server.adminUrl}/metrics`)).text();
    expect(Number(metrics.match(/docsnap_serve_verify_failures_total (\d+)/)?.[1])).toBe(
      Number(failuresBefore) + 1,
    );
    expect(metrics).toContain('docsnap_serve_stale 1');
  });

  it('a digest that does not match the archive', async () => {
    await serveNext(v2.archive, `sha256:${'a'.repeat(64)}`);
    expect(server.log.text).toMatch(
      `the archive's sha256 is ${v2.sha256}, not the version's ${'a'.repeat(64)}`,
    );
    expect(await text(server, '/')).toContain('Version One');
  });

  it('gzip of a valid tar with nothing after the end is still read whole', async () => {
    // A control for the refusals above: a hand-made archive that is right is served.
    const body = '<!doctype html><p>hand made</p>';
    const sha = (await import('node:crypto')).createHash('sha256').update(body).digest('hex');
    const archive = await handMadeArchive([
      { name: 'docsnap-manifest.json', body: manifest({ 'index.html': sha }) },
      { name: 'index.html', body },
    ]);
    await serveNext(archive, 'hand-made');
    expect(await text(server, '/')).toBe(body);
    expect(gzipSync).toBeDefined();
  });
});
