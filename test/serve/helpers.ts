import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import pino from 'pino';
import tar from 'tar-stream';
import { exportSite } from '../../src/export/pipeline.ts';
import { type BundleServerOptions, startBundleServer } from '../../src/serve/bundle-server.ts';
import { LogCapture } from '../api/helpers.ts';
import { docsRepo, page, tempDir } from '../export/fixtures.ts';

/** A real export of a small site, as the pipeline makes it: its archive and digest. */
export async function exportedBundle(title: string, pages = 3): Promise<{ archive: Buffer; sha256: string }> {
  const names = Array.from({ length: pages }, (_, i) => `guide/page-${i}`);
  const files: Record<string, string | object> = {
    'docs.json': {
      name: title,
      colors: { primary: '#0a7' },
      navigation: { tabs: [{ tab: 'Docs', groups: [{ group: 'Guide', pages: ['index', ...names] }] }] },
    },
    'index.mdx': page(title, `Welcome to ${title}. ${'Words to compress. '.repeat(100)}`),
  };
  for (const name of names)
    files[`${name}.mdx`] = page(`${title} ${name}`, `## Section\n\n${'Text. '.repeat(200)}`);
  const path = join(tempDir(), 'site.tar.gz');
  const result = await exportSite({
    source: docsRepo(files),
    archivePath: path,
    options: { deployment: 'air-gapped' },
  });
  return { archive: readFileSync(path), sha256: result.archive?.sha256 as string };
}

/** A .tar.gz made entry by entry, for archives the pipeline would never make. */
export async function handMadeArchive(
  entries: Array<{
    name: string;
    type?: tar.Header['type'];
    body?: Buffer | string;
    linkname?: string;
    size?: number;
  }>,
): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  pack.on('data', (chunk) => chunks.push(chunk as Buffer));
  const ended = new Promise<void>((resolve) => pack.on('end', () => resolve()));
  for (const entry of entries) {
    const body = entry.body === undefined ? undefined : Buffer.from(entry.body);
    const header = {
      name: entry.name,
      type: entry.type ?? 'file',
      linkname: entry.linkname,
      size: body?.length ?? 0,
    };
    await new Promise<void>((resolve, reject) => {
      const done = (error?: Error | null) => (error ? reject(error) : resolve());
      if (body) pack.entry(header, body, done);
      else pack.entry(header, done).end(Buffer.alloc(0));
    });
  }
  pack.finalize();
  await ended;
  return gzipSync(Buffer.concat(chunks));
}

/**
 * A stand-in object store on loopback serving archives by path, like a presigned link would:
 * `setAnswer` makes it answer with a status instead (403 for an expired link).
 */
export class ArchiveStore {
  readonly requests: string[] = [];
  private readonly archives = new Map<string, Buffer>();
  private answer: number | undefined;
  private server: Server | undefined;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      this.requests.push(request.url ?? '');
      const path = (request.url ?? '').split('?')[0] as string;
      const archive = this.archives.get(path);
      if (this.answer) return void response.writeHead(this.answer).end();
      if (!archive) return void response.writeHead(404).end();
      response
        .writeHead(200, { 'content-type': 'application/gzip', 'content-length': archive.length })
        .end(archive);
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Puts an archive at a path; returns a link with a signature-like query, as presigned links have. */
  put(path: string, archive: Buffer): string {
    this.archives.set(path, archive);
    return `${this.url}${path}?expires=9999999999&signature=s3cr3t-${path.length}`;
  }

  setAnswer(status: number | undefined): void {
    this.answer = status;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

/** `docsnap serve` in-process on loopback ports, its log captured. */
export async function startTestServer(
  options: Partial<BundleServerOptions> & Pick<BundleServerOptions, 'source'>,
) {
  const log = new LogCapture();
  const server = await startBundleServer({
    listen: { host: '127.0.0.1', port: 0 },
    adminListen: { host: '127.0.0.1', port: 0 },
    cacheDir: tempDir('docsnap-serve-cache-'),
    deployment: 'air-gapped',
    frameAncestors: "'self'",
    log: pino({ level: 'debug' }, log),
    fetch: { attempts: 2, backoffMs: 50, timeoutMs: 5_000 },
    valuesPollMs: 500,
    ...options,
  });
  return Object.assign(server, { log });
}
