import type { Element } from 'hast';
import { h } from 'hastscript';
import hljs from 'highlight.js/lib/common';
import { iconElement } from '../components/icons.ts';
import { diagramBlock, diagramOptions } from '../diagrams/mermaid.ts';
import { CODE_BLOCK_CLASS } from '../render-context.ts';

declare module 'mdast-util-to-hast' {
  interface RawData {
    /** The plain text behind a raw HTML node we generated, for search. */
    text?: string;
  }
}

/*
 * Build-time syntax highlighting with highlight.js: the output is static spans styled by the
 * theme's CSS, so no highlighter runs in the browser. highlight.js emits HTML, which goes into the
 * page as a raw node: building a tree of every token only to serialize it again costs a large
 * share of the render time of a code-heavy site. The HTML holds nothing but escaped text and
 * <span class="hljs-…"> tokens.
 */

/** Names used in docs that highlight.js knows under another name. */
const ALIASES: Record<string, string> = {
  sh: 'bash',
  shell: 'bash',
  zsh: 'bash',
  console: 'bash',
  terminal: 'bash',
  js: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  ts: 'typescript',
  tsx: 'typescript',
  mts: 'typescript',
  py: 'python',
  rb: 'ruby',
  yml: 'yaml',
  md: 'markdown',
  mdx: 'markdown',
  kt: 'kotlin',
  rs: 'rust',
  cs: 'csharp',
  'c#': 'csharp',
  golang: 'go',
  html: 'xml',
  vue: 'xml',
  svelte: 'xml',
  jsonc: 'json',
  json5: 'json',
  dockerfile: 'dockerfile',
  docker: 'dockerfile',
  env: 'bash',
  text: 'plaintext',
  txt: 'plaintext',
  plain: 'plaintext',
};

export interface CodeMeta {
  title?: string;
  /** 1-based line numbers to highlight. */
  highlight: Set<number>;
  /** 1-based line numbers to focus (the others dimmed). */
  focus: Set<number>;
  lineNumbers: boolean;
  wrap: boolean;
  /** `expandable`: a long block shows its start until expanded. */
  expandable: boolean;
  /** `icon="…"`: an icon beside the title. */
  icon?: string;
}

/** Line ranges as the format writes them: "1,3-5". */
function lineSet(ranges: string, into: Set<number>): void {
  for (const range of ranges.split(',')) {
    const [from, to] = range.trim().split('-').map(Number);
    if (from === undefined || Number.isNaN(from)) continue;
    for (let n = from; n <= (to && !Number.isNaN(to) ? to : from) && n - from < 10_000; n++) into.add(n);
  }
}

/**
 * Parses a fence's meta: a title (bare words or `title="…"`), `{1,3-5}` or `highlight={1,3}`,
 * `focus={2}`, `lines`, `wrap`, `expandable`, `icon="…"`. Other `key=value` settings (a diagram's
 * `placement`, a `theme`) are not the title: they are set aside.
 */
export function parseCodeMeta(meta: string | undefined): CodeMeta {
  const result: CodeMeta = {
    highlight: new Set(),
    focus: new Set(),
    lineNumbers: false,
    wrap: false,
    expandable: false,
  };
  if (!meta) return result;
  let rest = meta;
  rest = rest.replace(
    /(highlight=|focus=)?\{([\d,\s-]+)\}/g,
    (_, key: string | undefined, ranges: string) => {
      lineSet(ranges, key === 'focus=' ? result.focus : result.highlight);
      return ' ';
    },
  );
  rest = rest.replace(
    /([A-Za-z][\w-]*)=(?:"([^"]*)"|'([^']*)'|\{([^}]*)\}|(\S+))/g,
    (_, key: string, ...values: Array<string | undefined>) => {
      const value = values.slice(0, 4).find((v) => v !== undefined) ?? '';
      if (key === 'title') result.title = value;
      else if (key === 'icon') result.icon = value;
      else if (key === 'lines' || key === 'wrap' || key === 'expandable') {
        const on = value !== 'false';
        if (key === 'lines') result.lineNumbers = on;
        else if (key === 'wrap') result.wrap = on;
        else result.expandable = on;
      }
      return ' ';
    },
  );
  rest = rest.replace(/(^|\s)(lines|wrap|expandable|twoslash)(?=\s|$)/g, (_, space: string, flag: string) => {
    if (flag === 'lines') result.lineNumbers = true;
    if (flag === 'wrap') result.wrap = true;
    if (flag === 'expandable') result.expandable = true;
    return space;
  });
  const title = rest.trim();
  if (!result.title && title) result.title = title;
  return result;
}

export function highlightLanguage(language: string | undefined): string | undefined {
  if (!language) return undefined;
  const lower = language.toLowerCase();
  const name = ALIASES[lower] ?? lower;
  return hljs.getLanguage(name) ? name : undefined;
}

/** A code block element in the shape described by render-context.ts. */
export function codeBlock(code: string, language?: string, meta?: string): Element {
  if (language?.toLowerCase() === 'mermaid') return diagramBlock(code, diagramOptions(meta));
  const options = parseCodeMeta(meta);
  const grammar = highlightLanguage(language);
  const text = code.replace(/\n$/, '');
  const html = grammar
    ? hljs.highlight(text, { language: grammar, ignoreIllegals: true }).value
    : escapeHtml(text);
  // One line element per source line, joined by newlines so copying the text keeps its layout.
  const lines = splitHtmlLines(html)
    .map((line, i) => `<span class="${lineClass(options, i + 1)}">${line}</span>`)
    .join('\n');
  const lang = language?.toLowerCase();
  return h(
    'div',
    {
      className: [
        CODE_BLOCK_CLASS,
        ...(options.lineNumbers ? ['ds-code-lines'] : []),
        ...(options.wrap ? ['ds-code-wrap'] : []),
        ...(options.focus.size > 0 ? ['ds-code-focus'] : []),
        ...(options.expandable ? ['ds-code-expandable'] : []),
      ],
      dataLanguage: lang,
      dataTitle: options.title,
    },
    [
      ...(options.title
        ? [
            h('div', { className: ['ds-code-title'] }, [
              ...(options.icon
                ? [iconElement(options.icon, { library: 'fontawesome', className: 'ds-code-icon' })].filter(
                    (e) => e !== undefined,
                  )
                : []),
              options.title,
            ]),
          ]
        : []),
      h('pre', { tabIndex: 0 }, [
        h('code', { className: ['hljs', ...(grammar ? [`language-${grammar}`] : [])] }, [
          { type: 'raw', value: lines, data: { text } },
        ]),
      ]),
    ],
  );
}

function lineClass(options: CodeMeta, line: number): string {
  // Most blocks mark no line: no work per line for them.
  if (options.highlight.size === 0 && options.focus.size === 0) return 'line';
  const highlighted = options.highlight.has(line) ? ' highlighted' : '';
  return `line${highlighted}${options.focus.has(line) ? ' focused' : ''}`;
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#x27;',
};

/** Text as HTML, escaped the way highlight.js escapes its tokens. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] as string);
}

/**
 * Splits highlighted HTML into lines: a token span that crosses a newline is closed at the end of
 * the line and reopened on the next, so every line is well-formed on its own.
 */
function splitHtmlLines(html: string): string[] {
  const lines: string[] = [];
  const open: string[] = [];
  let line = '';
  let from = 0;
  for (const match of html.matchAll(/<span[^>]*>|<\/span>|\n/g)) {
    line += html.slice(from, match.index);
    from = match.index + match[0].length;
    if (match[0] === '\n') {
      lines.push(withoutEmptySpans(line + '</span>'.repeat(open.length)));
      line = open.join('');
    } else {
      if (match[0] === '</span>') open.pop();
      else open.push(match[0]);
      line += match[0];
    }
  }
  lines.push(withoutEmptySpans(line + html.slice(from)));
  return lines;
}

/** A token reopened on a line where it has no text (a blank line in a comment) is dropped. */
function withoutEmptySpans(line: string): string {
  let result = line;
  while (result.includes('></span>')) {
    const next = result.replace(/<span[^>]*><\/span>/g, '');
    if (next === result) break;
    result = next;
  }
  return result;
}
