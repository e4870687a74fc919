import { parseDocument } from 'yaml';
import { isStackOverflow } from '../budgets.ts';
import { ExportError } from '../errors.ts';

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

/**
 * Splits a page into frontmatter and body. The body keeps the frontmatter's lines as blank lines,
 * so positions reported while parsing it are lines of the file.
 */
export function splitFrontmatter(text: string, file: string): { meta: PageMeta; body: string } {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const match = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(\r?\n|$)/.exec(source);
  if (!match) return { meta: {}, body: source };
  const yamlText = match[1] ?? '';
  const lines = match[0].split('\n').length - 1;
  const blank = '\n'.repeat(lines);
  const simple = flatFrontmatter(yamlText);
  if (simple) return { meta: toMeta(simple), body: blank + source.slice(match[0].length) };
  const document = parseDocument(yamlText, { prettyErrors: true, uniqueKeys: false });
  const error = document.errors[0];
  // The YAML parser recurses per level of nesting and reports running out of stack as an error.
  if (isStackOverflow(error))
    throw ExportError.at({ file, line: 2 }, 'frontmatter nested too deep to be read');
  if (error) {
    const line = (error.linePos?.[0]?.line ?? 1) + 1; // yaml counts from 1 inside the block; +1 for the opening ---
    throw new ExportError(`${file} has invalid frontmatter`, [
      { file, line, message: error.message.split('\n')[0] ?? error.message },
    ]);
  }
  const data: unknown = document.toJS();
  const body = blank + source.slice(match[0].length);
  if (data === null || data === undefined) return { meta: {}, body };
  if (typeof data !== 'object' || Array.isArray(data)) {
    throw new ExportError(`${file} has invalid frontmatter`, [
      { file, line: 2, message: 'expected key: value pairs' },
    ]);
  }
  return { meta: toMeta(data as Record<string, unknown>), body };
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
    else if (PLAIN_SCALAR.test(value) && !value.includes(': ') && value !== 'null' && value !== '~')
      result[key] = value;
    else return undefined;
  }
  return result;
}
