import { ExportError } from '../errors.ts';

/**
 * Routes and the names of output files. A repository names pages and files in many places
 * (navigation, redirects, frontmatter, file names, OpenAPI operations); every route made from
 * any of them goes through `toRoute`, and every name is checked again where it is written
 * (`assertOutputName`), so nothing a repository says can name a file outside the output or
 * show one name to a reader while meaning another.
 */

/** C0 and C1 control characters and DEL: never part of a file name a reader can see. */
const CONTROL = /\p{Cc}/u;
/** Bidirectional overrides, isolates and marks: they make a name read differently from what it is. */
const BIDI = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;

/** Why a relative output name ("guide/intro.html") is unsafe, or undefined when it is fine. */
export function unsafeNameReason(name: string): string | undefined {
  if (name === '') return 'it is empty';
  if (CONTROL.test(name)) return 'it contains a control character';
  if (BIDI.test(name)) return 'it contains a bidirectional text override';
  if (name.includes('\\')) return 'it contains a backslash';
  if (name.startsWith('/') || /^[a-z]:/i.test(name)) return 'it is an absolute path';
  for (const segment of name.split('/')) {
    if (segment === '..') return 'it leaves the output directory (..)';
    if (segment === '' || segment === '.') return 'it has an empty or "." path segment';
  }
  return undefined;
}

/** Throws unless `name` is safe to write inside an output directory or archive. */
export function assertOutputName(name: string): void {
  const reason = unsafeNameReason(name);
  if (reason) throw new ExportError(`refused to write ${JSON.stringify(name)}: ${reason}`, []);
}

/** "quickstart/index" and "/quickstart/" → "quickstart"; "index" → "". Lenient: for lookups only. */
export function routeOf(reference: string): string {
  const clean = reference.replace(/^\/+|\/+$/g, '').replace(/\.(mdx|md)$/, '');
  return clean === 'index' ? '' : clean.replace(/\/index$/, '');
}

/**
 * The route of a page named by `reference`, refused with an error naming `field` (for example
 * `docs.json: redirects[2].source`) when it could escape the output or mislead: `..`, an absolute
 * or drive path, backslashes, control characters, bidirectional overrides, colons.
 */
export function toRoute(reference: string, field: string): string {
  const route = routeOf(reference);
  if (route === '') return route;
  const reason =
    unsafeNameReason(route) ??
    (route.includes(':') ? 'it contains a colon (read as a URL scheme)' : undefined);
  if (reason) throw new ExportError(`${field}: route ${JSON.stringify(reference)} refused: ${reason}`, []);
  return route;
}

export function outputFor(route: string): string {
  return route === '' ? 'index.html' : `${route}.html`;
}
