import { posix } from 'node:path';
import postcss, { type AtRule, type Declaration, type Root } from 'postcss';
import valueParser from 'postcss-value-parser';
import { isExternal, relativeUrl } from '../pages/links.ts';
import { isAllowedUrl } from '../url-policy.ts';

/**
 * The policy for the repository's own stylesheets, which the platform loads on every page. CSS
 * runs no script in today's browsers, but it loads: `@import`, `url()` and the image functions
 * fetch from wherever they point. So every stylesheet is parsed (PostCSS) and written back with:
 *
 * - each URL it loads held to the URL policy (http, https, relative; `data:` images and fonts);
 * - in air-gapped exports, no URL to another origin (the declaration or `@import` is removed);
 * - root-relative URLs ("/images/bg.png") made relative to the stylesheet, so the site works
 *   under any path prefix; relative URLs to files the repository does not have reported;
 * - escaped function names (`\75 rl(` is `url(`) and legacy script hooks (`behavior`,
 *   `-moz-binding`, `expression()`) removed.
 *
 * A stylesheet that does not parse, is too large or nests absurdly deep is left out, with a
 * warning naming the file.
 */

export interface StylesheetContext {
  /** Repository-relative path of the stylesheet (also its path in the export). */
  file: string;
  airGapped: boolean;
  /** Repository files the export publishes (assets and stylesheets), for relative URLs. */
  published: ReadonlySet<string>;
}

export type StylesheetOutcome = { css: string; warnings: string[] } | { refused: string };

/** Larger stylesheets are refused rather than parsed (generated ones stay well below). */
export const MAX_STYLESHEET_BYTES = 8 * 1024 * 1024;
export const TOO_LARGE = `a stylesheet of more than ${MAX_STYLESHEET_BYTES / 1024 / 1024} MiB is not published`;
/** Rules nest a few levels (media, supports, nesting); PostCSS walks them recursively. */
const MAX_DEPTH = 64;

/** Functions whose arguments are URLs to load (strings, for the image functions). */
const URL_FUNCTIONS = new Set(['url', 'src']);
const IMAGE_FUNCTIONS = new Set([
  'image-set',
  '-webkit-image-set',
  'image',
  'cross-fade',
  '-webkit-cross-fade',
]);
const LOADING_FUNCTION = /(?:url|src|image|image-set|cross-fade|element)\s*\(/i;
const SCRIPT_HOOKS = /^(?:behavior|-moz-binding)$/i;
const DATA_RESOURCE = /^data:(?:image|font|application\/(?:x-)?font)[a-z0-9.+/-]*[;,]/i;

export function sanitizeStylesheet(source: string, context: StylesheetContext): StylesheetOutcome {
  if (Buffer.byteLength(source) > MAX_STYLESHEET_BYTES) return { refused: TOO_LARGE };
  const depth = nestingDepth(source);
  if (depth > MAX_DEPTH) return { refused: `rules nested ${depth} deep exceed the limit of ${MAX_DEPTH}` };
  let root: Root;
  try {
    root = postcss.parse(source, { from: undefined });
  } catch (error) {
    const { reason, line } = error as { reason?: string; line?: number };
    return {
      refused: `not valid CSS${line ? ` (line ${line})` : ''}: ${reason ?? (error as Error).message}`,
    };
  }
  const warnings: string[] = [];
  root.walkAtRules((rule) => checkAtRule(rule, context, warnings));
  root.walkDecls((declaration) => checkDeclaration(declaration, context, warnings));
  return { css: root.toString(), warnings };
}

function checkAtRule(rule: AtRule, context: StylesheetContext, warnings: string[]): void {
  if (decodeEscapes(rule.name).toLowerCase() !== 'import') return;
  const parsed = valueParser(rule.params);
  const first = parsed.nodes.find((node) => node.type !== 'space' && node.type !== 'comment');
  const url =
    first?.type === 'string'
      ? first
      : first?.type === 'function' && first.value === 'url'
        ? first.nodes[0]
        : undefined;
  const verdict =
    url && !rule.params.includes('\\') ? judge(url.value, context) : { refused: 'an @import it cannot read' };
  if ('refused' in verdict) {
    warnings.push(`${lineOf(rule)}@import removed: ${verdict.refused}`);
    rule.remove();
    return;
  }
  if (verdict.note) warnings.push(`${lineOf(rule)}@import: ${verdict.note}`);
  if (url && verdict.url !== url.value) {
    url.value = verdict.url;
    rule.params = valueParser.stringify(parsed.nodes);
  }
}

function checkDeclaration(declaration: Declaration, context: StylesheetContext, warnings: string[]): void {
  const where = `${lineOf(declaration)}${declaration.prop}`;
  if (
    SCRIPT_HOOKS.test(decodeEscapes(declaration.prop)) ||
    /expression\s*\(/i.test(decodeEscapes(declaration.value))
  ) {
    warnings.push(`${where} removed: a legacy script hook`);
    declaration.remove();
    return;
  }
  if (!/[(\\]/.test(declaration.value)) return; // no function and no escape: loads nothing
  const outsideStrings = declaration.value.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/gs, '""');
  if (outsideStrings.includes('\\') && LOADING_FUNCTION.test(decodeEscapes(outsideStrings))) {
    warnings.push(`${where} removed: an escaped function name`);
    declaration.remove();
    return;
  }
  const parsed = valueParser(declaration.value);
  let refused: string | undefined;
  let changed = false;
  parsed.walk((node) => {
    if (refused || node.type !== 'function') return;
    const name = node.value.toLowerCase();
    const urls = URL_FUNCTIONS.has(name)
      ? node.nodes.slice(0, 1)
      : IMAGE_FUNCTIONS.has(name)
        ? node.nodes.filter((arg) => arg.type === 'string')
        : [];
    for (const url of urls) {
      const verdict = judge(url.value, context);
      if ('refused' in verdict) {
        refused ??= verdict.refused;
        continue;
      }
      if (verdict.note) warnings.push(`${where}: ${verdict.note}`);
      if (verdict.url !== url.value) {
        url.value = verdict.url;
        changed = true;
      }
    }
  });
  if (refused) {
    warnings.push(`${where} removed: ${refused}`);
    declaration.remove();
  } else if (changed) declaration.value = valueParser.stringify(parsed.nodes);
}

/** What a URL a stylesheet loads becomes: the URL to write (relative ones rebased), or why it is refused. */
function judge(
  raw: string,
  context: StylesheetContext,
): { url: string; note?: string } | { refused: string } {
  const url = raw.trim();
  if (url === '' || url.startsWith('#')) return { url: raw };
  // A browser decodes escapes in URLs (`java\73 cript:`): judge no URL by a form it does not load.
  if (url.includes('\\')) return { refused: `the escaped URL ${shorten(url)}` };
  if (url.startsWith('data:'))
    return DATA_RESOURCE.test(url) ? { url: raw } : { refused: 'a data: URL that is not an image or a font' };
  if (!isAllowedUrl(url, 'resource'))
    return { refused: `the URL ${shorten(url)} (only http, https or relative)` };
  if (isExternal(url))
    return context.airGapped
      ? {
          refused: `${shorten(url)} is on another origin, and an air-gapped export loads nothing from elsewhere`,
        }
      : { url: raw };
  const [path = '', suffix = ''] = /^([^?#]*)(.*)$/s.exec(url)?.slice(1) ?? [];
  const target = posix.normalize(
    path.startsWith('/') ? path.slice(1) : posix.join(posix.dirname(context.file), path),
  );
  if (target.startsWith('../') || target === '..')
    return { refused: `${shorten(url)} leaves the repository` };
  const rebased = path.startsWith('/') ? relativeUrl(context.file, target) + suffix : raw;
  if (!context.published.has(safeDecode(target)))
    return { url: rebased, note: `${shorten(url)} is not a file the export publishes (it will not load)` };
  return { url: rebased };
}

function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** CSS text with its escapes decoded (`\\75 rl` is `url`), to see what a browser sees. */
function decodeEscapes(css: string): string {
  if (!css.includes('\\')) return css;
  return css
    .replace(/\\([0-9a-f]{1,6})[ \t\n]?/gi, (_, hex: string) => {
      const code = Number.parseInt(hex, 16);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd';
    })
    .replace(/\\(.)/gs, '$1');
}

/** The deepest `{` nesting outside strings and comments, counted without parsing. */
function nestingDepth(css: string): number {
  let depth = 0;
  let deepest = 0;
  let quote: string | undefined;
  for (let i = 0; i < css.length; i++) {
    const c = css[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '/' && css[i + 1] === '*') {
      const end = css.indexOf('*/', i + 2);
      i = end < 0 ? css.length : end + 1;
    } else if (c === '{') deepest = Math.max(deepest, ++depth);
    else if (c === '}') depth = Math.max(0, depth - 1);
  }
  return deepest;
}

const lineOf = (node: AtRule | Declaration) => (node.source?.start ? `line ${node.source.start.line}: ` : '');
const shorten = (url: string) => JSON.stringify(url.length > 60 ? `${url.slice(0, 60)}…` : url);
