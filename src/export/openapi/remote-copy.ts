import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isHttpUrl, OpenApiError } from './files.ts';
import { loadOpenApi } from './load.ts';
import type { OpenApiSpec } from './types.ts';

/**
 * Copies of remote OpenAPI documents, one directory per URL with the document and its ETag, and
 * the loading of a page's document from the repository or from such a copy. The export makes no
 * network request: when it opts in (options.remoteSpecs, never in air-gapped exports), its caller
 * hands it the fetcher (service/remote-openapi.ts), which fills the copies under the address,
 * time and size rules; render threads read the copies only.
 */
export interface RemoteSpecOptions {
  /** Where fetched documents are kept, one directory per URL. */
  cacheDir: string;
  /** Host names (as URLs write them) that may resolve to private, loopback or link-local addresses. */
  privateHosts?: string[];
  /** Per document, redirects included. Default 20 s. */
  timeoutMs?: number;
  /** Largest document accepted. Default 16 MiB. */
  maxBytes?: number;
}

/** A fetched document on disk: load it with loadOpenApi(file, { repoRoot: root }). */
export interface RemoteSpecCopy {
  root: string;
  file: string;
}

/** Fetches a remote document into its copy (or confirms the copy), or throws an OpenApiError saying why not. */
export type FetchRemoteSpec = (source: string, options: RemoteSpecOptions) => Promise<RemoteSpecCopy>;

/** The URL as messages show it: no credentials, no query (a presigned link's signature is a secret). */
export function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}${parsed.search ? '?…' : ''}`;
  } catch {
    const bare = url.replace(/[?#][\s\S]*$/, (rest) => (rest ? '?…' : ''));
    return bare.length > 60 ? `${bare.slice(0, 60)}…` : bare;
  }
}

/** The URL a source names, normalized (one copy however it is spelled); throws for no URL. */
export function remoteHref(source: string): string {
  return new URL(source.startsWith('//') ? `https:${source}` : source).href;
}

export interface CopyMeta {
  url: string;
  etag?: string;
  file: string;
}

/** The directory of a URL's copy. */
export function copyRoot(cacheDir: string, href: string): string {
  return join(cacheDir, createHash('sha256').update(href).digest('hex').slice(0, 32));
}

/** The file name of a copy: its extension tells the reader JSON from YAML; none means "look at the text". */
export function copyName(url: URL): string {
  const ext = /\.(json|ya?ml)$/i.exec(url.pathname)?.[1]?.toLowerCase();
  return ext ? `openapi.${ext}` : 'openapi';
}

export async function readCopyMeta(root: string): Promise<CopyMeta | undefined> {
  try {
    return JSON.parse(await readFile(join(root, 'meta.json'), 'utf8')) as CopyMeta;
  } catch {
    return undefined;
  }
}

/** Writes a document and its meta as the copy of a URL; each file replaced whole. */
export async function storeCopy(root: string, meta: CopyMeta, body: Buffer): Promise<RemoteSpecCopy> {
  await mkdir(root, { recursive: true });
  await writeAtomically(join(root, meta.file), body);
  await writeAtomically(join(root, 'meta.json'), JSON.stringify(meta));
  return { root, file: meta.file };
}

async function writeAtomically(path: string, data: string | Buffer): Promise<void> {
  const temporary = `${path}.${randomUUID()}.tmp`;
  await writeFile(temporary, data);
  await rename(temporary, path);
}

/** The copy an earlier fetch kept, without the network (render threads read what loading fetched). */
export async function cachedRemoteSpec(source: string, options: RemoteSpecOptions): Promise<RemoteSpecCopy> {
  let href: string | undefined;
  try {
    href = remoteHref(source);
  } catch {
    // Not a URL: it was never fetched either.
  }
  const meta = href ? await readCopyMeta(copyRoot(options.cacheDir, href)) : undefined;
  if (!href || !meta)
    throw new OpenApiError(shownUrl(source), `OpenAPI URL "${shownUrl(source)}" was not fetched.`);
  return { root: copyRoot(options.cacheDir, href), file: meta.file };
}

/**
 * The document a page or navigation names: a repository file, or (when the export opted in) a
 * remote one, fetched with `fetch` when given and read from its copy otherwise.
 */
export async function loadSpecSource(
  source: string,
  options: { repoRoot: string; maxDepth?: number; remote?: RemoteSpecOptions; fetch?: FetchRemoteSpec },
): Promise<OpenApiSpec> {
  if (!options.remote || !isHttpUrl(source)) return loadOpenApi(source, options);
  const copy = options.fetch
    ? await options.fetch(source, options.remote)
    : await cachedRemoteSpec(source, options.remote);
  const spec = await loadOpenApi(copy.file, { repoRoot: copy.root, maxDepth: options.maxDepth });
  return { ...spec, file: shownUrl(source) };
}
