import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { OpenApiError } from '../export/openapi/files.ts';
import {
  type CopyMeta,
  copyName,
  copyRoot,
  type RemoteSpecCopy,
  type RemoteSpecOptions,
  readCopyMeta,
  shownUrl,
  storeCopy,
} from '../export/openapi/remote-copy.ts';

/**
 * The fetcher of remote OpenAPI documents an export is handed when it opts in (export/openapi/
 * remote-copy.ts keeps the copies). Tenant repositories name the URL, and exports may run in a
 * shared server: only http and https, only public addresses unless a host is allowed by name
 * (checked on the address actually connected to, so DNS cannot point a name elsewhere between
 * check and use), a time limit, a size limit, and a copy kept by URL and ETag so a rebuild asks
 * the server "changed?" only.
 */

export const REMOTE_SPEC_DEFAULTS = { timeoutMs: 20_000, maxBytes: 16 * 1024 * 1024 };
const MAX_REDIRECTS = 5;

/** The URL if an export may fetch it, or an error saying why not (before any connection). */
export function remoteSpecUrl(text: string, privateHosts: readonly string[] = []): URL {
  let url: URL;
  try {
    url = new URL(text.startsWith('//') ? `https:${text}` : text);
  } catch {
    throw new OpenApiError(shownUrl(text), `OpenAPI URL "${shownUrl(text)}" is not a URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new OpenApiError(
      shownUrl(text),
      `OpenAPI URL "${shownUrl(text)}" is not http or https; it is not fetched.`,
    );
  if (url.username || url.password)
    throw new OpenApiError(
      shownUrl(text),
      `OpenAPI URL "${shownUrl(text)}" carries credentials; an export sends none. Map it to a local copy instead.`,
    );
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) {
    const refusal = addressRefusal(host, url.hostname, privateHosts);
    if (refusal) throw new OpenApiError(shownUrl(text), `OpenAPI URL "${shownUrl(text)}": ${refusal}`);
  }
  return url;
}

/** Why an export may not connect to `address` (reached by the name `host`), or undefined when it may. */
export function addressRefusal(
  address: string,
  host: string,
  privateHosts: readonly string[],
): string | undefined {
  if (privateHosts.includes(host.toLowerCase())) return undefined;
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(address);
  } catch {
    return `${address} is not an IP address`;
  }
  let range: string = parsed.range();
  // IPv4-compatible IPv6 (::a.b.c.d, deprecated) is unicast to ipaddr.js; some kernels route it to IPv4.
  if (
    range === 'unicast' &&
    parsed.kind() === 'ipv6' &&
    (parsed as ipaddr.IPv6).parts.slice(0, 6).every((p) => p === 0)
  )
    range = 'IPv4-compatible';
  if (range === 'unicast') return undefined;
  const what = host.replace(/^\[|\]$/g, '') === address ? `${address} is` : `${host} resolves to ${address},`;
  return (
    `${what} a ${range} address, which an export does not connect to ` +
    '(allow the host by name to fetch from a private network)'
  );
}

/** A DNS lookup for http(s).request that fails when an address is not one the export may reach. */
function guardedLookup(privateHosts: readonly string[]) {
  return (
    hostname: string,
    options: { all?: boolean; family?: number },
    callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
  ): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '');
      for (const { address } of addresses) {
        const refusal = addressRefusal(address, hostname, privateHosts);
        if (refusal) return callback(new Error(refusal), '');
      }
      const first = addresses[0];
      if (!first) return callback(new Error(`${hostname} has no address`), '');
      if (options.all) callback(null, addresses);
      else callback(null, first.address, first.family);
    });
  };
}

interface Fetched {
  status: number;
  etag?: string;
  body?: Buffer;
}

/** One GET, redirects followed (each re-checked), the body read up to maxBytes, within the deadline. */
async function get(
  start: URL,
  headers: Record<string, string>,
  options: Required<Omit<RemoteSpecOptions, 'cacheDir'>>,
  signal: AbortSignal,
): Promise<Fetched> {
  let url = start;
  let ask = headers;
  for (let redirects = 0; ; redirects++) {
    const response = await send(url, ask, options.privateHosts, signal);
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    const etag = typeof response.headers.etag === 'string' ? response.headers.etag : undefined;
    if (status !== 200) response.destroy(); // nothing of another answer's body is read
    if (status >= 300 && status < 400 && status !== 304 && location) {
      if (redirects >= MAX_REDIRECTS) throw new Error(`more than ${MAX_REDIRECTS} redirects`);
      const next = remoteSpecUrl(new URL(location, url).href, options.privateHosts);
      if (url.protocol === 'https:' && next.protocol !== 'https:')
        throw new Error('a redirect from https to http, which is not followed');
      // The cached copy's ETag is the first URL's: another place is asked plainly.
      ask = Object.fromEntries(Object.entries(headers).filter(([name]) => name !== 'if-none-match'));
      url = next;
      continue;
    }
    if (status !== 200) return { status, ...(etag ? { etag } : {}) };
    const declared = Number(response.headers['content-length']);
    if (declared > options.maxBytes) {
      response.destroy();
      throw new Error(`the document is ${declared} bytes, over the limit of ${options.maxBytes}`);
    }
    return { status, ...(etag ? { etag } : {}), body: await readLimited(response, options.maxBytes) };
  }
}

function send(
  url: URL,
  headers: Record<string, string>,
  privateHosts: readonly string[],
  signal: AbortSignal,
): Promise<IncomingMessage> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    // agent: false: a pooled keep-alive connection would be reused without the address check, and
    // one opened for a host another site may reach (privateHosts) must not serve this one.
    const req = request(
      url,
      { headers, agent: false, lookup: guardedLookup(privateHosts) as never, signal },
      resolve,
    );
    req.on('error', reject);
    req.end();
  });
}

async function readLimited(response: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      response.destroy();
      throw new Error(`the document is over the limit of ${maxBytes} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

// One fetch at a time per URL (however it is spelled) and cache: pages naming the same document
// wait for the same download. Settled fetches are forgotten, so a later export asks again.
const inFlight = new Map<string, Promise<RemoteSpecCopy>>();

/** Fetches a remote document into the cache (or confirms the cached copy by ETag), or throws an OpenApiError saying why not. */
export function fetchRemoteSpec(source: string, options: RemoteSpecOptions): Promise<RemoteSpecCopy> {
  let key: string;
  try {
    key = `${options.cacheDir}\n${remoteSpecUrl(source, options.privateHosts).href}`;
  } catch (error) {
    return Promise.reject(error);
  }
  let promise = inFlight.get(key);
  if (!promise) {
    promise = fetchNow(source, options);
    inFlight.set(key, promise);
    const forget = () => inFlight.delete(key);
    promise.then(forget, forget);
  }
  return promise;
}

async function fetchNow(source: string, options: RemoteSpecOptions): Promise<RemoteSpecCopy> {
  const settings = { ...REMOTE_SPEC_DEFAULTS, privateHosts: [], ...options };
  const privateHosts = settings.privateHosts.map((h) => h.toLowerCase());
  const url = remoteSpecUrl(source, privateHosts);
  const root = copyRoot(options.cacheDir, url.href);
  const cached = await readCopyMeta(root);
  const headers: Record<string, string> = { accept: 'application/json, application/yaml, text/yaml, */*' };
  if (cached?.etag) headers['if-none-match'] = cached.etag;
  const deadline = AbortSignal.timeout(settings.timeoutMs);
  let fetched: Fetched;
  try {
    fetched = await get(url, headers, { ...settings, privateHosts }, deadline);
  } catch (error) {
    const reason = deadline.aborted
      ? `it did not arrive within ${settings.timeoutMs} ms`
      : (error as Error).message;
    throw new OpenApiError(
      shownUrl(source),
      `OpenAPI URL "${shownUrl(source)}" could not be fetched: ${reason}`,
    );
  }
  if (fetched.status === 304 && cached) return { root, file: cached.file };
  if (!fetched.body)
    throw new OpenApiError(
      shownUrl(source),
      `OpenAPI URL "${shownUrl(source)}" answered HTTP ${fetched.status}.`,
    );
  const meta: CopyMeta = {
    url: url.href,
    file: copyName(url),
    ...(fetched.etag ? { etag: fetched.etag } : {}),
  };
  try {
    return await storeCopy(root, meta, fetched.body);
  } catch (error) {
    // The cache's path is the server's business, not the site's: named in the log, not the message.
    throw new OpenApiError(
      shownUrl(source),
      `OpenAPI URL "${shownUrl(source)}": the fetched copy could not be stored (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
}

/** Forgets which URLs this process fetched, so the next export asks again (tests; a long-running server between exports). */
export function resetRemoteSpecs(): void {
  inFlight.clear();
}
