import { parseDocument } from 'yaml';
import { isStackOverflow } from '../budgets.ts';
import { ExportError, type SourceProblem } from '../errors.ts';

/** Page settings from frontmatter that docsnap uses; other keys are accepted and ignored. */
export interface PageMeta {
  title?: string;
  sidebarTitle?: string;
  description?: string;
  icon?: string;
  mode?: string;
  hidden?: boolean;
  noindex?: boolean;
  /** An external URL: the navigation entry links there instead of to a page. */
  url?: string;
  /** "METHOD /path" or "file METHOD /path": the page is an API reference page. */
  openapi?: string;
  tag?: string;
  deprecated?: boolean;
}

/** A page split into its settings and its body, with the reason its frontmatter was not read. */
export interface Frontmatter {
  meta: PageMeta;
  body: string;
  /** Set when the frontmatter is not valid YAML: the page is built without it, as the platform does. */
  problem?: SourceProblem;
}

/**
 * Splits a page into frontmatter and body. The body keeps the frontmatter's lines as blank lines,
 * so positions reported while parsing it are lines of the file. Frontmatter that is not YAML
 * (even with the platform's leniency, see relaxQuotedScalars) is a problem returned with its line,
 * not an error: the page is built without it.
 */
export function splitFrontmatter(text: string, file: string): Frontmatter {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const match = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(\r?\n|$)/.exec(source);
  if (!match) return { meta: {}, body: source };
  const yamlText = match[1] ?? '';
  const lines = match[0].split('\n').length - 1;
  const body = '\n'.repeat(lines) + source.slice(match[0].length);
  // Built without its frontmatter, as the platform does, with the reason and the file's line.
  const without = (line: number, reason: string): Frontmatter => ({
    meta: {},
    body,
    problem: { file, line, message: `invalid frontmatter, the page is built without it: ${reason}` },
  });
  if (yamlText.length > MAX_FRONTMATTER_CHARS)
    return without(2, `longer than ${MAX_FRONTMATTER_CHARS / 1024} KiB`);
  const simple = flatFrontmatter(yamlText);
  if (simple) return { meta: toMeta(simple), body };
  const parsed = parseYaml(yamlText, file);
  // yaml counts lines from 1 inside the block; +1 for the opening ---
  if ('line' in parsed) return without(parsed.line + 1, parsed.message);
  const data = parsed.data;
  if (data === null || data === undefined) return { meta: {}, body };
  if (typeof data !== 'object' || Array.isArray(data)) return without(2, 'expected key: value pairs');
  return { meta: toMeta(data as Record<string, unknown>), body };
}

/** The YAML of a frontmatter block, or where and why it cannot be read. */
function parseYaml(yamlText: string, file: string): { data: unknown } | { line: number; message: string } {
  const strict = readYaml(yamlText, file);
  if (!('line' in strict)) return strict;
  const relaxed = relaxQuotedScalars(yamlText);
  if (relaxed !== yamlText) {
    const second = readYaml(relaxed, file);
    if (!('line' in second)) return second;
  }
  return strict;
}

function readYaml(yamlText: string, file: string): { data: unknown } | { line: number; message: string } {
  const document = parseDocument(yamlText, { prettyErrors: true, uniqueKeys: false });
  const error = document.errors[0];
  // The YAML parser recurses per level of nesting and reports running out of stack as an error.
  if (isStackOverflow(error))
    throw ExportError.at({ file, line: 2 }, 'frontmatter nested too deep to be read');
  if (!error) {
    try {
      return { data: document.toJS() };
    } catch (aliases) {
      // yaml refuses to expand more than 100 aliases (a "billion laughs" document).
      if (!(aliases instanceof ReferenceError)) throw aliases;
      return { line: 1, message: aliases.message };
    }
  }
  return {
    line: error.linePos?.[0]?.line ?? 1,
    // The parser's own "at line N, column M" counts inside the block: the caller gives the file's line.
    message: (error.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, ''),
  };
}

/**
 * The platform's leniency: a quoted value that runs over several lines is read even when its
 * continuation lines are not indented (YAML asks for at least one space). Those lines are
 * indented here, and nothing else changes; the value is folded as YAML folds it.
 */
export function relaxQuotedScalars(yamlText: string): string {
  const lines = yamlText.split('\n');
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (quote) {
      if (!line.startsWith(' ') && line.trim() !== '') lines[i] = `  ${line}`;
      if (closesQuote(line, 0, quote) >= 0) quote = undefined;
      continue;
    }
    const opening = /^[A-Za-z_][\w-]*:[ \t]+(["'])/.exec(line);
    if (!opening) continue;
    const open = opening[1] as '"' | "'";
    if (closesQuote(line, opening[0].length, open) < 0) quote = open;
  }
  return lines.join('\n');
}

/** Index of the quote closing a quoted scalar in `line` from `start`, or -1 when it stays open. */
function closesQuote(line: string, start: number, quote: '"' | "'"): number {
  for (let i = start; i < line.length; i++) {
    const c = line[i];
    if (quote === '"' && c === '\\') i++;
    else if (quote === "'" && c === "'" && line[i + 1] === "'") i++;
    else if (c === quote) return i;
  }
  return -1;
}

/** The settings docsnap reads, from parsed frontmatter. */
function toMeta(raw: Record<string, unknown>): PageMeta {
  const stringValue = (key: string) =>
    typeof raw[key] === 'string'
      ? (raw[key] as string)
      : typeof raw[key] === 'number'
        ? String(raw[key])
        : undefined;
  const bool = (key: string) => raw[key] === true || raw[key] === 'true';
  return {
    title: stringValue('title'),
    sidebarTitle: stringValue('sidebarTitle'),
    description: stringValue('description'),
    icon: stringValue('icon'),
    mode: stringValue('mode'),
    hidden: bool('hidden'),
    noindex: bool('noindex'),
    url: stringValue('url'),
    openapi: stringValue('openapi'),
    tag: stringValue('tag'),
    deprecated: bool('deprecated'),
  };
}

/** Real frontmatter is a few hundred bytes; a parse of a broken one costs seconds per MiB. */
const MAX_FRONTMATTER_CHARS = 64 * 1024;
const FLAT_LINE = /^([A-Za-z_][\w-]*):[ \t]*(.*?)[ \t]*$/;
const PLAIN_SCALAR = /^[^\s"'#&*!|>%@`{}[\],?:-][^#]*$/;

/**
 * Most frontmatter is flat `key: value` lines with plain or double-quoted strings; reading those
 * directly is many times faster than a YAML parse, which matters on sites of thousands of pages.
 * Anything else (nesting, lists, single quotes, comments, multi-line values) returns undefined
 * and goes to the YAML parser.
 */
function flatFrontmatter(text: string): Record<string, unknown> | undefined {
  const result: Record<string, unknown> = {};
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '') continue;
    const match = FLAT_LINE.exec(line);
    if (!match) return undefined;
    const [, key = '', value = ''] = match;
    if (value.startsWith('"')) {
      try {
        const parsed: unknown = JSON.parse(value);
        if (typeof parsed !== 'string') return undefined;
        result[key] = parsed;
      } catch {
        return undefined; // a YAML-only escape: let the YAML parser decide
      }
    } else if (value === 'true' || value === 'false') result[key] = value === 'true';
    else if (/^-?\d+(\.\d+)?$/.test(value)) result[key] = Number(value);
    else if (/^[-+]?\.?\d/.test(value))
      return undefined; // 0x1F, 1e3, .5, +1: numbers YAML reads its own way
    else if (PLAIN_SCALAR.test(value) && !value.includes(': ') && value !== 'null' && value !== '~')
      result[key] = value;
    else return undefined;
  }
  return result;
}
