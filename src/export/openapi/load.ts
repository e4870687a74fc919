import { realpath } from 'node:fs/promises';
import { relative, sep } from 'node:path';
import { DEFAULT_BUDGETS, overBudget } from '../budgets.ts';
import { type FileStamp, isUrl, OpenApiError, readDocument, resolveRepoFile, stampOf } from './files.ts';
import { isObject, type ResolveResult, resolveDocument } from './resolve.ts';
import type { OpenApiSpec } from './types.ts';

export interface LoadOpenApiOptions {
  /** The documentation repository; the file is resolved inside it and nothing outside is read. */
  repoRoot: string;
  /** Nesting allowed in the file and the files it references (budgets.documentDepth). */
  maxDepth?: number;
}

interface Loaded {
  spec: OpenApiSpec;
  stamps: FileStamp[];
  deepest: ResolveResult['deepest'];
}

interface CacheEntry {
  promise: Promise<Loaded>;
}

// Every page of an API tab names the same file, so a spec is read and resolved once. Entries are
// checked against the files' mtime and size, so a long-running process (the API server, the
// operator's embedded pipeline) never renders from a stale copy.
const MAX_CACHED = 16;
const cache = new Map<string, CacheEntry>();

/** Forgets every loaded spec (tests, or a process that wants the memory back). */
export function clearOpenApiCache(): void {
  cache.clear();
}

async function unchanged(stamps: FileStamp[]): Promise<boolean> {
  for (const stamp of stamps) {
    const now = await stampOf(stamp.path);
    if (!now || now.mtimeMs !== stamp.mtimeMs || now.size !== stamp.size) return false;
  }
  return true;
}

/**
 * Reads an OpenAPI 3.x file (JSON or YAML) from the repository and resolves its `$ref`s.
 * `file` is relative to the repository root ("openapi.json", "/specs/api.yaml"). Throws an
 * OpenApiError naming the file for a remote URL (never fetched), a path outside the repository,
 * invalid JSON/YAML, or a document that is not OpenAPI 3.x; an ExportError for one nested deeper
 * than `options.maxDepth`.
 */
export async function loadOpenApi(file: string, options: LoadOpenApiOptions): Promise<OpenApiSpec> {
  // A URL is refused before touching the file system, let alone the network.
  if (isUrl(file)) await resolveRepoFile('/', file, '/', file);
  const root = await realpath(options.repoRoot);
  const { real, stamp } = await resolveRepoFile(root, file, root, file);
  for (;;) {
    const entry = cache.get(real);
    if (!entry) break;
    let loaded: Loaded | undefined;
    try {
      loaded = await entry.promise;
    } catch {
      // A failed load is not kept: the next call reads the (maybe fixed) file again.
    }
    if (loaded && (await unchanged(loaded.stamps))) return checked(loaded, options);
    if (cache.get(real) === entry) cache.delete(real);
  }
  const promise = load(root, real, stamp, file);
  cache.set(real, { promise });
  if (cache.size > MAX_CACHED) cache.delete(cache.keys().next().value as string);
  promise.catch(() => {
    if (cache.get(real)?.promise === promise) cache.delete(real);
  });
  return checked(await promise, options);
}

/**
 * The spec, if its files nest no deeper than the export allows: renderers recurse through
 * schemas and examples. Checked on every call, as one cached spec may serve exports with
 * different budgets.
 */
function checked(loaded: Loaded, options: LoadOpenApiOptions): OpenApiSpec {
  const limit = options.maxDepth ?? DEFAULT_BUDGETS.documentDepth;
  const { file, depth } = loaded.deepest;
  if (depth > limit)
    throw overBudget(
      { file },
      `objects and arrays nested ${depth} deep exceed the limit of ${limit}`,
      'documentDepth',
    );
  return loaded.spec;
}

async function load(root: string, real: string, stamp: FileStamp, file: string): Promise<Loaded> {
  const doc = await readDocument(real, file);
  checkVersion(doc, file);
  const resolved = await resolveDocument(root, real, doc, stamp);
  const document = resolved.document as Record<string, unknown>;
  const info = isObject(document.info) ? document.info : {};
  const spec: OpenApiSpec = {
    file: relative(root, real).split(sep).join('/'),
    version: String(document.openapi),
    ...(typeof info.title === 'string' ? { title: info.title } : {}),
    document,
    warnings: resolved.warnings,
  };
  return { spec, stamps: resolved.stamps, deepest: resolved.deepest };
}

function checkVersion(doc: unknown, file: string): asserts doc is Record<string, unknown> {
  if (!isObject(doc)) {
    throw new OpenApiError(
      file,
      `OpenAPI file "${file}" is not an OpenAPI document: its top level is not an object.`,
    );
  }
  if (doc.swagger !== undefined) {
    throw new OpenApiError(
      file,
      `OpenAPI file "${file}" is Swagger ${String(doc.swagger)}; only OpenAPI 3.x is supported. Convert it ` +
        '(for example with swagger2openapi) and point docs.json at the converted file.',
    );
  }
  if (typeof doc.openapi !== 'string' || !/^3\.\d+/.test(doc.openapi)) {
    const found =
      doc.openapi === undefined
        ? 'has no "openapi" field'
        : `declares "openapi": ${JSON.stringify(doc.openapi)}`;
    throw new OpenApiError(file, `OpenAPI file "${file}" is not an OpenAPI 3.x document: it ${found}.`);
  }
  if (doc.paths !== undefined && !isObject(doc.paths)) {
    throw new OpenApiError(file, `OpenAPI file "${file}": "paths" must be an object.`);
  }
}
