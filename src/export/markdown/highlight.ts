import type { Element, ElementContent, Text } from 'hast';
import { h } from 'hastscript';
import { common, createLowlight } from 'lowlight';
import { CODE_BLOCK_CLASS } from '../render-context.ts';

/**
 * Build-time syntax highlighting with lowlight (highlight.js grammars): the output is static
 * spans styled by the theme's CSS, so no highlighter runs in the browser.
 */
const lowlight = createLowlight(common);

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
  lineNumbers: boolean;
  wrap: boolean;
}

/** Parses a fence's meta: a title, `{1,3-5}` or `highlight={1,3}`, `lines`, `wrap`, `title="…"`. */
export function parseCodeMeta(meta: string | undefined): CodeMeta {
  const result: CodeMeta = { highlight: new Set(), lineNumbers: false, wrap: false };
  if (!meta) return result;
  let rest = meta;
  rest = rest.replace(/(?:highlight=)?\{([\d,\s-]+)\}/g, (_, ranges: string) => {
    for (const range of ranges.split(',')) {
      const [from, to] = range.trim().split('-').map(Number);
      if (from === undefined || Number.isNaN(from)) continue;
      for (let n = from; n <= (to && !Number.isNaN(to) ? to : from) && n - from < 10_000; n++)
        result.highlight.add(n);
    }
    return ' ';
  });
  rest = rest.replace(/title=(?:"([^"]*)"|'([^']*)')/, (_, a?: string, b?: string) => {
    result.title = a ?? b;
    return ' ';
  });
  rest = rest.replace(/(^|\s)(lines|wrap|expandable|twoslash)(?=\s|$)/g, (_, space: string, flag: string) => {
    if (flag === 'lines') result.lineNumbers = true;
    if (flag === 'wrap') result.wrap = true;
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
  return lowlight.registered(name) ? name : undefined;
}

/** A code block element in the shape described by render-context.ts. */
export function codeBlock(code: string, language?: string, meta?: string): Element {
  const options = parseCodeMeta(meta);
  const grammar = highlightLanguage(language);
  const text = code.replace(/\n$/, '');
  const highlighted: ElementContent[] = grammar
    ? (lowlight.highlight(grammar, text).children as ElementContent[])
    : [{ type: 'text', value: text }];
  const lines = splitLines(highlighted).map((children, i) =>
    h('span', { className: options.highlight.has(i + 1) ? ['line', 'highlighted'] : ['line'] }, children),
  );
  // One line element per source line, joined by newlines so copying the text keeps its layout.
  const codeChildren: ElementContent[] = [];
  lines.forEach((line, i) => {
    if (i > 0) codeChildren.push({ type: 'text', value: '\n' });
    codeChildren.push(line);
  });
  const lang = language?.toLowerCase();
  return h(
    'div',
    {
      className: [
        CODE_BLOCK_CLASS,
        ...(options.lineNumbers ? ['ds-code-lines'] : []),
        ...(options.wrap ? ['ds-code-wrap'] : []),
      ],
      dataLanguage: lang,
      dataTitle: options.title,
    },
    [
      ...(options.title ? [h('div', { className: ['ds-code-title'] }, options.title)] : []),
      h('pre', { tabIndex: 0 }, [
        h('code', { className: ['hljs', ...(grammar ? [`language-${grammar}`] : [])] }, codeChildren),
      ]),
    ],
  );
}

/**
 * Splits highlighted hast into lines: a token span that crosses a newline is closed at the end of
 * the line and reopened on the next, so every line is a well-formed element.
 */
export function splitLines(nodes: ElementContent[]): ElementContent[][] {
  const lines: ElementContent[][] = [[]];
  const walk = (node: ElementContent, wrap: (child: ElementContent) => ElementContent) => {
    if (node.type === 'text') {
      const parts = node.value.split('\n');
      parts.forEach((part, i) => {
        if (i > 0) lines.push([]);
        if (part) lines[lines.length - 1]?.push(wrap({ type: 'text', value: part } satisfies Text));
      });
    } else if (node.type === 'element') {
      for (const child of node.children) {
        walk(child, (inner) => wrap({ ...node, children: [inner] }));
      }
    }
  };
  for (const node of nodes) walk(node, (n) => n);
  return lines.map(mergeAdjacent);
}

/** Re-joins pieces of the same token that splitting produced side by side. */
function mergeAdjacent(line: ElementContent[]): ElementContent[] {
  const merged: ElementContent[] = [];
  for (const node of line) {
    const last = merged[merged.length - 1];
    if (last && last.type === 'text' && node.type === 'text') last.value += node.value;
    else if (last && last.type === 'element' && node.type === 'element' && sameElement(last, node)) {
      last.children = mergeAdjacent([...last.children, ...node.children]);
    } else merged.push(node.type === 'element' ? { ...node, children: [...node.children] } : { ...node });
  }
  return merged;
}

function sameElement(a: Element, b: Element): boolean {
  return a.tagName === b.tagName && JSON.stringify(a.properties) === JSON.stringify(b.properties);
}
