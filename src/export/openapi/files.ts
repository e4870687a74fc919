import { readFile, realpath, stat } from 'node:fs/promises';
import { extname, isAbsolute, resolve, sep } from 'node:path';
import { parse as parseYaml, YAMLParseError } from 'yaml';
import { isStackOverflow } from '../budgets.ts';
import { ExportError, lineAndColumn } from '../errors.ts';
import { isInside } from '../source/repository.ts';

/** A problem with an OpenAPI file; `file` is the name as the site wrote it. */
export class OpenApiError extends Error {
  readonly file: string;
  constructor(file: string, message: string) {
    super(message);
    this.name = 'OpenApiError';
    this.file = file;
  }
}

/** "https://…", "file:///…", "//host/…": anything that names another place than a repository path. */
export function isUrl(text: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(text) || text.startsWith('//');
}

export function isHttpUrl(text: string): boolean {
  return /^https?:/i.test(text) || text.startsWith('//');
}

export function remoteRefusal(file: string): string {
  return (
    `OpenAPI file "${file}" is a remote URL, which is never fetched: exports run without network access ` +
    '(air-gapped) and must not wait on one. Download the file into the repository and point the "openapi" ' +
    'setting in docs.json (or the page\'s openapi frontmatter) at the local copy, e.g. "openapi": "openapi.json".'
  );
}

export interface FileStamp {
  path: string;
  mtimeMs: number;
  size: number;
}

export async function stampOf(path: string): Promise<FileStamp | undefined> {
  try {
    const s = await stat(path);
    return { path, mtimeMs: s.mtimeMs, size: s.size };
  } catch {
    return undefined;
  }
}

/**
 * Maps a repository path to the real path of a regular file inside the repository, or throws.
 * `base` is the directory that relative paths start from; a leading "/" means the repository root.
 * Symbolic links are followed with realpath so that one pointing out of the repository is refused.
 */
export async function resolveRepoFile(
  root: string,
  file: string,
  base: string,
  display: string = file,
): Promise<{ real: string; stamp: FileStamp }> {
  if (isUrl(file)) {
    throw new OpenApiError(
      display,
      isHttpUrl(file) ? remoteRefusal(file) : `OpenAPI file "${display}" is not a repository path.`,
    );
  }
  let candidate: string;
  if (isAbsolute(file) && isInside(root, file)) candidate = file;
  else if (file.startsWith('/') || file.startsWith('\\'))
    candidate = resolve(root, `.${sep}${file.replace(/^[\\/]+/, '')}`);
  else candidate = resolve(base, file);
  if (!isInside(root, candidate)) {
    throw new OpenApiError(
      display,
      `OpenAPI file "${display}" is outside the repository (${root}); it was not read.`,
    );
  }
  let real: string;
  try {
    real = await realpath(candidate);
  } catch {
    throw new OpenApiError(display, `OpenAPI file "${display}" not found (looked for ${candidate}).`);
  }
  if (!isInside(root, real)) {
    throw new OpenApiError(
      display,
      `OpenAPI file "${display}" is a symbolic link to ${real}, outside the repository (${root}); it was not read.`,
    );
  }
  const s = await stat(real);
  // A FIFO or device would block the read forever; a directory is a mistake worth naming.
  if (!s.isFile())
    throw new OpenApiError(display, `OpenAPI file "${display}" is not a regular file (${real}).`);
  return { real, stamp: { path: real, mtimeMs: s.mtimeMs, size: s.size } };
}

/** Parses JSON or YAML (chosen by extension, then by the first character), with the line of a syntax error. */
export function parseDocumentText(text: string, path: string, display: string): unknown {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const ext = extname(path).toLowerCase();
  const asJson = ext === '.json' || (ext !== '.yaml' && ext !== '.yml' && /^\s*[{[]/.test(source));
  if (asJson) {
    try {
      return JSON.parse(source);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const at = /position (\d+)/.exec(message);
      const where = at?.[1] === undefined ? undefined : lineAndColumn(source, Number(at[1]));
      const location = where ? ` at line ${where.line}, column ${where.column}` : '';
      const reason = message.replace(/ in JSON at position \d+.*$/, '');
      throw new OpenApiError(display, `OpenAPI file "${display}": invalid JSON${location}: ${reason}`);
    }
  }
  try {
    return parseYaml(source, { merge: true, prettyErrors: true });
  } catch (error) {
    // The YAML parser recurses per level of nesting.
    if (isStackOverflow(error)) throw ExportError.at({ file: display }, 'YAML nested too deep to be read');
    if (error instanceof YAMLParseError) {
      const pos = error.linePos?.[0];
      const location = pos ? ` at line ${pos.line}, column ${pos.col}` : '';
      const reason = error.message.split('\n')[0]?.replace(/ at line \d+, column \d+:?$/, '') ?? '';
      throw new OpenApiError(display, `OpenAPI file "${display}": invalid YAML${location}: ${reason}`);
    }
    const message = error instanceof Error ? error.message : String(error);
    throw new OpenApiError(display, `OpenAPI file "${display}": invalid YAML: ${message}`);
  }
}

/**
 * How deeply objects and arrays nest in a parsed document, walked without recursion (it may be
 * deeper than the call stack). Before `$ref` resolution a document is a tree (YAML aliases may
 * share nodes; the YAML parser bounds how much they expand).
 */
export function documentDepth(document: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[document, 0]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop() as [unknown, number];
    if (typeof value !== 'object' || value === null) continue;
    if (depth + 1 > deepest) deepest = depth + 1;
    for (const child of Array.isArray(value) ? value : Object.values(value)) stack.push([child, depth + 1]);
  }
  return deepest;
}

export async function readDocument(real: string, display: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(real, 'utf8');
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new OpenApiError(display, `OpenAPI file "${display}" could not be read: ${message}`);
  }
  return parseDocumentText(text, real, display);
}
