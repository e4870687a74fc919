import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { DeploymentKind } from '../contract/deployment.ts';
import type { VerifiedBundle } from './bundle-cache.ts';
import { contentTypeOf } from './content-types.ts';

export interface SiteHeaderSettings {
  deployment: DeploymentKind;
  /** The CSP frame-ancestors sources: who may frame the site. */
  frameAncestors: string;
}

/** One way a file can be sent: as it is, or compressed once at unpack time. */
interface Representation {
  path: string;
  size: number;
  etag: string;
  encoding?: 'br' | 'gzip';
  /** Response headers but Content-Length, built on first use. */
  headers?: string[];
}

interface ServedFile {
  type: string;
  cacheControl: string;
  identity: Representation;
  br?: Representation;
  gzip?: Representation;
}

/** Bodies of small files are kept in memory (up to this much per version): most requests never touch the disk. */
const MEMORY_BUDGET = 64 * 1024 ** 2;
const MEMORY_FILE_LIMIT = 256 * 1024;

/**
 * A verified bundle as the server sees it: every file by name with its content type, cache
 * policy and representations. Built once when the version becomes active; requests only look up.
 */
export class ServedSite {
  readonly version: string;
  readonly lastModified: string;
  readonly files = new Map<string, ServedFile>();
  /** Responses being sent from this version: its files stay on disk until none is left. */
  inFlight = 0;
  private readonly memory = new Map<string, Buffer>();
  private memoryBytes = 0;

  constructor(bundle: VerifiedBundle) {
    this.version = bundle.version;
    this.lastModified = new Date(bundle.verifiedAt).toUTCString();
    for (const [name, file] of Object.entries(bundle.files)) {
      const tag = file.sha256.slice(0, 32);
      const representation = (encoding: 'br' | 'gzip', suffix: string): Representation | undefined => {
        const size = file.encodings[encoding];
        if (size === undefined) return undefined;
        return {
          path: join(bundle.dir, 'encoded', name + suffix),
          size,
          etag: `"${tag}-${suffix.slice(1)}"`,
          encoding,
        };
      };
      this.files.set(name, {
        type: contentTypeOf(name),
        cacheControl: cachePolicy(name),
        identity: { path: join(bundle.dir, 'site', name), size: file.size, etag: `"${tag}"` },
        br: representation('br', '.br'),
        gzip: representation('gzip', '.gz'),
      });
    }
  }

  /** The file a request path names, as the export's links expect: `/a`, `/a/`, `/a.html`, `/` → index.html. */
  resolve(path: string): ServedFile | undefined {
    const name = path.replace(/^\/+/, '');
    if (name === '') return this.files.get('index.html');
    if (name.endsWith('/')) {
      const base = name.slice(0, -1);
      return this.files.get(`${base}.html`) ?? this.files.get(`${base}/index.html`);
    }
    return this.files.get(name) ?? this.files.get(`${name}.html`) ?? this.files.get(`${name}/index.html`);
  }

  notFoundPage(): ServedFile | undefined {
    return this.files.get('404.html');
  }

  /** The bytes of a representation when they are in memory already. */
  held(representation: Representation): Buffer | undefined {
    return this.memory.get(representation.path);
  }

  /** A small file's bytes from memory, read once; undefined for files streamed from disk. */
  async body(representation: Representation): Promise<Buffer | undefined> {
    const cached = this.memory.get(representation.path);
    if (cached) return cached;
    if (representation.size > MEMORY_FILE_LIMIT) return undefined;
    const bytes = await readFile(representation.path);
    if (bytes.length <= MEMORY_FILE_LIMIT && this.memoryBytes + bytes.length <= MEMORY_BUDGET) {
      this.memory.set(representation.path, bytes);
      this.memoryBytes += bytes.length;
    }
    return bytes;
  }
}

/**
 * Serves the active site like a CDN edge: content types, strong ETags from the manifest's hashes,
 * 304s, Cache-Control (immutable for fingerprinted names, revalidated for HTML), precompressed
 * brotli and gzip by Accept-Encoding, HEAD and single byte ranges, the site's own 404 page,
 * no directory listing, and security headers. Each request keeps the version it started with, so
 * a swap never changes a response half-way.
 */
export class SiteHandler {
  site: ServedSite | undefined;
  /** Why there is nothing to serve (not published, still fetching): answered with 503. */
  unavailable = 'the site is starting: no bundle has been verified yet';
  private readonly security: Array<[string, string]>;
  private readonly onResponse: (status: number) => void;
  private readonly acceptedEncodings = new Map<string, Set<string>>();

  constructor(settings: SiteHeaderSettings, onResponse: (status: number) => void = () => {}) {
    this.security = securityHeaders(settings);
    this.onResponse = onResponse;
  }

  readonly handle = (request: IncomingMessage, response: ServerResponse): void => {
    try {
      this.respond(request, response);
    } catch {
      this.failed(response);
    }
  };

  /**
   * The common case, a whole file held in memory, is answered right here with headers built once
   * per file; anything else (a first read, a range, a large file) takes the slower path.
   */
  private respond(request: IncomingMessage, response: ServerResponse): void {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.setHeader('Allow', 'GET, HEAD');
      this.plain(response, 405, 'method not allowed');
      return;
    }
    const site = this.site;
    if (!site) {
      this.plain(response, 503, this.unavailable);
      return;
    }
    const path = requestPath(request.url ?? '/');
    if (path === undefined) {
      this.plain(response, 400, 'bad request path');
      return;
    }
    const file = site.resolve(path);
    if (!file) {
      this.notFound(site, request, response).catch(() => this.failed(response));
      return;
    }
    const range = request.headers.range;
    const representation = range
      ? file.identity
      : this.chooseEncoding(file, request.headers['accept-encoding']);
    const headers = this.headersOf(site, file, representation);
    if (notModified(request, representation.etag, site.lastModified)) {
      this.send(response, 304, headers);
      return;
    }
    const held = range ? undefined : site.held(representation);
    if (held) {
      this.send(response, 200, headers, request.method === 'HEAD' ? undefined : held, held.length);
      return;
    }
    // From disk: the version's files must stay until this response is sent.
    site.inFlight++;
    response.once('close', () => site.inFlight--);
    this.fromDisk(site, request, response, representation, headers).catch(() => this.failed(response));
  }

  private async fromDisk(
    site: ServedSite,
    request: IncomingMessage,
    response: ServerResponse,
    representation: Representation,
    headers: string[],
  ): Promise<void> {
    const body = await site.body(representation);
    const size = body?.length ?? representation.size;
    const range = request.headers.range;
    let status = 200;
    let start = 0;
    let end = size - 1;
    let extra: string[] = [];
    if (range && ifRangeHolds(request, representation.etag)) {
      const parsed = parseRange(range, size);
      if (parsed === 'unsatisfiable')
        return this.send(response, 416, [...headers, 'Content-Range', `bytes */${size}`]);
      if (parsed) {
        [start, end] = parsed;
        status = 206;
        extra = ['Content-Range', `bytes ${start}-${end}/${size}`];
      }
    }
    const length = Math.max(0, end - start + 1);
    if (request.method === 'HEAD')
      return this.send(response, status, [...headers, ...extra], undefined, length);
    if (body)
      return this.send(response, status, [...headers, ...extra], body.subarray(start, end + 1), length);
    response.writeHead(status, [...headers, ...extra, 'Content-Length', String(length)]);
    this.onResponse(status);
    createReadStream(representation.path, { start, end })
      .on('error', () => response.destroy())
      .pipe(response);
  }

  /** The headers of a file's representation, built on first use and kept with it. */
  private headersOf(site: ServedSite, file: ServedFile, representation: Representation): string[] {
    if (representation.headers) return representation.headers;
    representation.headers = [
      ...this.security.flat(),
      'Content-Type',
      file.type,
      'Cache-Control',
      file.cacheControl,
      'ETag',
      representation.etag,
      'Last-Modified',
      site.lastModified,
      'Vary',
      'Accept-Encoding',
      'Accept-Ranges',
      'bytes',
      ...(representation.encoding ? ['Content-Encoding', representation.encoding] : []),
    ];
    return representation.headers;
  }

  /** Brotli, then gzip, when the client takes it and the file has it; the client's header parsed once per distinct value. */
  private chooseEncoding(file: ServedFile, acceptEncoding: string | undefined): Representation {
    if (!acceptEncoding || (!file.br && !file.gzip)) return file.identity;
    let accepted = this.acceptedEncodings.get(acceptEncoding);
    if (!accepted) {
      accepted = parseAcceptEncoding(acceptEncoding);
      if (this.acceptedEncodings.size < 256) this.acceptedEncodings.set(acceptEncoding, accepted);
    }
    if (file.br && accepted.has('br')) return file.br;
    if (file.gzip && accepted.has('gzip')) return file.gzip;
    return file.identity;
  }

  private failed(response: ServerResponse): void {
    if (!response.headersSent) this.plain(response, 500, 'internal error');
    else response.destroy();
  }

  private async notFound(
    site: ServedSite,
    request: IncomingMessage,
    response: ServerResponse,
  ): Promise<void> {
    const page = site.notFoundPage();
    if (!page) return this.plain(response, 404, 'not found');
    const body = (await site.body(page.identity)) ?? Buffer.alloc(0);
    const headers = [...this.security.flat(), 'Content-Type', page.type, 'Cache-Control', 'no-cache'];
    return this.send(response, 404, headers, request.method === 'HEAD' ? undefined : body, body.length);
  }

  private plain(response: ServerResponse, status: number, message: string): void {
    const body = Buffer.from(`${message}\n`);
    const headers = [
      ...this.security.flat(),
      'Content-Type',
      'text/plain; charset=utf-8',
      'Cache-Control',
      'no-store',
    ];
    this.send(response, status, headers, body, body.length);
  }

  private send(
    response: ServerResponse,
    status: number,
    headers: string[],
    body?: Buffer,
    length?: number,
  ): void {
    response.writeHead(
      status,
      length === undefined ? headers : [...headers, 'Content-Length', String(length)],
    );
    response.end(body);
    this.onResponse(status);
  }
}

const PLAIN_PATH = /^\/[A-Za-z0-9_.~/-]*$/;
const DOT_SEGMENT = /(^|\/)\.{1,2}(\/|$)/;

/**
 * The decoded path of a request, or undefined when it is malformed or tries to leave the site:
 * `..` in any encoding, backslashes, NUL. Query strings and fragments are ignored.
 */
export function requestPath(url: string): string | undefined {
  // Plain paths (no escapes, query, dot segments or doubled slashes) need no decoding.
  if (PLAIN_PATH.test(url) && !DOT_SEGMENT.test(url) && !url.includes('//')) return url;
  const raw = url.split(/[?#]/, 1)[0] ?? '/';
  if (!raw.startsWith('/')) return undefined;
  let path: string;
  try {
    path = decodeURIComponent(raw);
  } catch {
    return undefined;
  }
  if (/[\\\0]/.test(path)) return undefined;
  if (path.split('/').some((segment) => segment === '..' || segment === '.')) return undefined;
  return path.replace(/\/{2,}/g, '/');
}

function parseAcceptEncoding(header: string): Set<string> {
  return new Set(
    header
      .split(',')
      .map((part) => part.trim().split(';'))
      .filter(([, q]) => !q || Number(q.trim().replace(/^q=/, '')) > 0)
      .map(([name]) => (name ?? '').trim().toLowerCase()),
  );
}

function notModified(request: IncomingMessage, etag: string, lastModified: string): boolean {
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch !== undefined)
    return (
      ifNoneMatch === '*' || ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)
    );
  const since = request.headers['if-modified-since'];
  return since !== undefined && Date.parse(since) >= Date.parse(lastModified);
}

function ifRangeHolds(request: IncomingMessage, etag: string): boolean {
  const ifRange = request.headers['if-range'];
  return ifRange === undefined || ifRange === etag;
}

/** One `bytes=a-b`, `a-` or `-n` range; several ranges are answered whole (undefined). */
function parseRange(header: string, size: number): [number, number] | 'unsatisfiable' | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  let start: number;
  let end: number;
  if (match[1] === '') {
    start = Math.max(0, size - Number(match[2]));
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start >= size || start > end) return 'unsatisfiable';
  return [start, end];
}

/** Immutable for names carrying a content hash; HTML always revalidated; the rest briefly cached. */
function cachePolicy(name: string): string {
  if (/[.-][0-9a-f]{8,}\.[a-z0-9]+$/i.test(name)) return 'public, max-age=31536000, immutable';
  if (name.endsWith('.html')) return 'no-cache';
  return 'public, max-age=300';
}

/**
 * Headers on every response. The pages carry their own Content-Security-Policy (hashes of their
 * inline scripts); this one adds what a meta tag cannot say (frame-ancestors) and, for air-gapped
 * sites, confines every fetch to the site's own origin.
 */
function securityHeaders(settings: SiteHeaderSettings): Array<[string, string]> {
  const common = `object-src 'none'; base-uri 'self'; frame-ancestors ${settings.frameAncestors}`;
  const csp =
    settings.deployment === 'air-gapped'
      ? `default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; media-src 'self'; connect-src 'self'; frame-src 'self'; form-action 'self'; ${common}`
      : common;
  return [
    ['Content-Security-Policy', csp],
    ['X-Content-Type-Options', 'nosniff'],
    ['Referrer-Policy', 'strict-origin-when-cross-origin'],
  ];
}
