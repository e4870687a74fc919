import { dirname, relative, sep } from 'node:path';
import { documentDepth, type FileStamp, isHttpUrl, isUrl, readDocument, resolveRepoFile } from './files.ts';

/**
 * `$ref` resolution, in two phases: every referenced file inside the repository is read first
 * (async), then references are replaced in place (sync), memoized per target so that shared schemas
 * stay shared and recursive ones become object cycles instead of infinite copies. A reference that
 * cannot be followed (remote URL, missing file or pointer, outside the repository) becomes an
 * "unresolved" marker plus a warning, so one bad schema does not take every page down with it.
 */

/** Key of the marker object left where a `$ref` could not be resolved; the value is the reason. */
export const UNRESOLVED = 'x-docsnap-unresolved';
/** Key holding the original `$ref` text on an unresolved marker. */
export const UNRESOLVED_REF = 'x-docsnap-ref';

type JsonObject = Record<string, unknown>;

// Names of referenced schemas ("User" for #/components/schemas/User), for type labels and
// circular markers. A WeakMap keeps the document itself free of bookkeeping keys.
const refNames = new WeakMap<object, string>();

export function refName(node: object): string | undefined {
  return refNames.get(node);
}

// A `$ref` with sibling keywords becomes a refined copy of its target; cycle checks must see the
// copy as the target itself, or a recursive schema would be expanded once more through each copy.
const origins = new WeakMap<object, object>();

/** The schema a node stands for: the `$ref` target for a refined copy, else the node itself. */
export function canonical(node: object): object {
  return origins.get(node) ?? node;
}

// Keys whose values are literal data, where a "$ref" key is content, not a reference.
const LITERAL_KEYS = new Set(['example', 'default', 'enum', 'const']);

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isRefObject(value: unknown): value is JsonObject & { $ref: string } {
  return isObject(value) && typeof value.$ref === 'string';
}

function children(node: object): [string | number, unknown][] {
  return Array.isArray(node) ? node.map((v, i) => [i, v]) : Object.entries(node);
}

function splitRef(ref: string): { file: string; pointer: string } {
  const hash = ref.indexOf('#');
  return hash < 0 ? { file: ref, pointer: '' } : { file: ref.slice(0, hash), pointer: ref.slice(hash + 1) };
}

function decodeSegment(segment: string): string {
  let text = segment;
  try {
    text = decodeURIComponent(segment);
  } catch {
    // A stray "%" is kept literally.
  }
  return text.replace(/~1/g, '/').replace(/~0/g, '~');
}

interface LoadedFile {
  real: string;
  doc?: unknown;
  error?: string;
}

export interface ResolveResult {
  document: unknown;
  warnings: string[];
  stamps: FileStamp[];
  /** The most deeply nested of the files read, measured before resolution (budgets.documentDepth). */
  deepest: { file: string; depth: number };
}

export async function resolveDocument(
  root: string,
  rootReal: string,
  rootDoc: unknown,
  rootStamp: FileStamp,
): Promise<ResolveResult> {
  const display = (real: string) => relative(root, real).split(sep).join('/');
  const files = new Map<string, LoadedFile>(); // by the real path of the referencing base + ref text
  const byReal = new Map<string, LoadedFile>([[rootReal, { real: rootReal, doc: rootDoc }]]);
  const stamps: FileStamp[] = [rootStamp];
  const fileKey = (base: string, file: string) => `${base}\u0000${file}`;

  // Phase 1: read every file reachable through relative-file references.
  const queue: LoadedFile[] = [byReal.get(rootReal) as LoadedFile];
  while (queue.length > 0) {
    const current = queue.shift() as LoadedFile;
    for (const ref of collectRefs(current.doc)) {
      const { file } = splitRef(ref);
      if (file === '' || isUrl(file)) continue;
      const key = fileKey(current.real, file);
      if (files.has(key)) continue;
      let loaded: LoadedFile;
      const name = decodeSegment(file);
      try {
        const { real, stamp } = await resolveRepoFile(root, name, dirname(current.real), name);
        const known = byReal.get(real);
        if (known) loaded = known;
        else {
          loaded = { real, doc: await readDocument(real, display(real)) };
          byReal.set(real, loaded);
          stamps.push(stamp);
          queue.push(loaded);
        }
      } catch (error) {
        loaded = { real: name, error: error instanceof Error ? error.message : String(error) };
      }
      files.set(key, loaded);
    }
  }

  const deepest = { file: display(rootReal), depth: 0 };
  for (const file of byReal.values()) {
    const depth = documentDepth(file.doc);
    if (depth > deepest.depth) Object.assign(deepest, { file: display(file.real), depth });
  }

  // Phase 2: replace references in place.
  const warnings = new Set<string>();
  const memo = new Map<string, unknown>();
  const walked = new WeakSet<object>();
  const pending = new Map<object, { target: unknown; siblings: JsonObject }>();
  const stack: [object, string][] = [];

  const unresolved = (ref: string, from: string, reason: string): JsonObject => {
    const message = `$ref "${ref}" in ${display(from)}: ${reason}`;
    warnings.add(message);
    return { [UNRESOLVED]: message, [UNRESOLVED_REF]: ref };
  };

  const schedule = (node: unknown, file: string) => {
    if (typeof node === 'object' && node !== null && !walked.has(node)) stack.push([node, file]);
  };

  const child = (node: unknown, segment: string, file: string, chain: Set<string>): unknown => {
    let current = node;
    const merge = isObject(current) ? pending.get(current) : undefined;
    if (merge) {
      if (Object.hasOwn(merge.siblings, segment)) return merge.siblings[segment];
      current = merge.target;
    } else if (isRefObject(current)) {
      current = resolveRefObject(current, file, chain);
    }
    if (Array.isArray(current)) return /^\d+$/.test(segment) ? current[Number(segment)] : undefined;
    if (isObject(current) && Object.hasOwn(current, segment)) return current[segment];
    return undefined;
  };

  const resolveRef = (ref: string, from: string, chain: Set<string>): unknown => {
    const { file, pointer } = splitRef(ref);
    if (isUrl(file)) {
      return unresolved(
        ref,
        from,
        isHttpUrl(file)
          ? 'remote references are never fetched (exports run without network access); copy the schema into the repository'
          : 'only references to files inside the repository are followed',
      );
    }
    let target: LoadedFile | undefined = byReal.get(from);
    if (file !== '') target = files.get(fileKey(from, file));
    if (target?.doc === undefined) return unresolved(ref, from, target?.error ?? 'the file was not loaded');
    const key = `${target.real}#${pointer}`;
    if (memo.has(key)) return memo.get(key);
    if (chain.has(key)) return unresolved(ref, from, 'the reference points to itself');
    chain.add(key);
    let value: unknown = target.doc;
    const segments = pointer === '' || pointer === '/' ? [] : pointer.replace(/^\//, '').split('/');
    for (const segment of segments) {
      value = child(value, decodeSegment(segment), target.real, chain);
      if (value === undefined) break;
    }
    if (value === undefined)
      return unresolved(ref, from, `"#${pointer}" does not exist in ${display(target.real)}`);
    if (isRefObject(value)) value = resolveRefObject(value, target.real, chain);
    memo.set(key, value);
    const last = segments.at(-1);
    if (isObject(value) && last !== undefined && !refNames.has(value))
      refNames.set(value, decodeSegment(last));
    schedule(value, target.real);
    return value;
  };

  const resolveRefObject = (node: JsonObject & { $ref: string }, from: string, chain = new Set<string>()) => {
    const target = resolveRef(node.$ref, from, chain);
    const siblings: JsonObject = {};
    for (const [key, value] of Object.entries(node)) if (key !== '$ref') siblings[key] = value;
    if (Object.keys(siblings).length === 0 || !isObject(target) || UNRESOLVED in target) return target;
    // Keywords next to a $ref (description, nullable, …) refine the target. The merged copy is filled
    // in after the walk, when the target no longer holds unresolved references.
    const placeholder: JsonObject = {};
    pending.set(placeholder, { target, siblings });
    schedule(siblings, from);
    return placeholder;
  };

  if (isRefObject(rootDoc)) throw new Error('the document root is a $ref');
  schedule(rootDoc, rootReal);
  while (stack.length > 0) {
    const [node, file] = stack.pop() as [object, string];
    if (walked.has(node)) continue;
    walked.add(node);
    for (const [key, value] of children(node)) {
      if (!Array.isArray(node) && typeof key === 'string' && LITERAL_KEYS.has(key)) continue;
      if (isRefObject(value)) {
        (node as Record<string | number, unknown>)[key] = resolveRefObject(value, file);
      } else schedule(value, file);
    }
  }

  const filled = new WeakSet<object>();
  const fill = (placeholder: object) => {
    const merge = pending.get(placeholder);
    if (!merge || filled.has(placeholder)) return;
    filled.add(placeholder);
    if (isObject(merge.target)) {
      fill(merge.target);
      Object.assign(placeholder, merge.target, merge.siblings);
      origins.set(placeholder, origins.get(merge.target) ?? merge.target);
      const name = refNames.get(merge.target);
      if (name !== undefined) refNames.set(placeholder, name);
    }
  };
  for (const placeholder of pending.keys()) fill(placeholder);

  return { document: rootDoc, warnings: [...warnings], stamps, deepest };
}

function collectRefs(doc: unknown): Set<string> {
  const refs = new Set<string>();
  const seen = new Set<object>();
  const stack: unknown[] = [doc];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null || seen.has(node)) continue;
    seen.add(node);
    if (isRefObject(node)) refs.add(node.$ref);
    for (const [key, value] of children(node)) {
      if (typeof key === 'string' && !Array.isArray(node) && LITERAL_KEYS.has(key)) continue;
      stack.push(value);
    }
  }
  return refs;
}
