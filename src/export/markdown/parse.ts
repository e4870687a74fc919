import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { mathFromMarkdown } from 'mdast-util-math';
import { mdxFromMarkdown } from 'mdast-util-mdx';
import { gfm } from 'micromark-extension-gfm';
import { math } from 'micromark-extension-math';
import { mdxjs } from 'micromark-extension-mdxjs';
import { DEFAULT_BUDGETS, type ExportBudgets, isStackOverflow } from '../budgets.ts';
import { ExportError } from '../errors.ts';
import { applyCustomHeadingIds, takeCustomHeadingIds } from './custom-heading-ids.ts';
import { checkNesting } from './nesting.ts';
import { checkTreeDepth } from './tree-size.ts';

// Built once: the extensions are pure configuration and are reused for every page.
// Math ($…$, $$…$$) as the platform reads it, in both kinds of page.
const mdxOptions = {
  extensions: [mdxjs(), gfm(), math()],
  mdastExtensions: [mdxFromMarkdown(), gfmFromMarkdown(), mathFromMarkdown()],
};
const mdOptions = { extensions: [gfm(), math()], mdastExtensions: [gfmFromMarkdown(), mathFromMarkdown()] };

/**
 * The native parser (native/markdown, markdown-rs as a Node-API addon), when it was built:
 * several times faster than micromark, with the same mdast. DOCSNAP_MARKDOWN_PARSER=js forces
 * micromark; =native fails when the addon is missing.
 */
const NATIVE_ADDON = new URL('../../../native/markdown/docsnap-markdown.node', import.meta.url);
const native = loadNative();

function loadNative(): { parse(source: string, mdx: boolean): string } | undefined {
  const wanted = process.env.DOCSNAP_MARKDOWN_PARSER;
  if (wanted === 'js') return undefined;
  if (!existsSync(NATIVE_ADDON)) {
    if (wanted === 'native')
      throw new Error(
        `DOCSNAP_MARKDOWN_PARSER=native, but ${NATIVE_ADDON.pathname} was not built (npm run native:build)`,
      );
    return undefined;
  }
  return createRequire(import.meta.url)(NATIVE_ADDON.pathname);
}

/** Which parser this process uses, for diagnostics and benchmarks. */
export const markdownParser: 'native' | 'js' = native ? 'native' : 'js';

/**
 * Parses a page body (frontmatter already blanked out) into mdast: MDX for .mdx files (JSX,
 * expressions, import/export), CommonMark + GFM with raw HTML for .md files. Syntax errors become
 * an ExportError naming the file, line and column. Nesting deeper than the budget is refused
 * before parsing (both parsers slow down faster than depth grows) and checked again on the tree
 * before anything recurses through it.
 */
export function parseBody(
  body: string,
  file: string,
  budgets: Pick<ExportBudgets, 'nestingDepth'> = DEFAULT_BUDGETS,
): Root {
  const markdown = file.endsWith('.md');
  const custom = takeCustomHeadingIds(body);
  checkNesting(custom.body, file, markdown ? 'md' : 'mdx', budgets.nestingDepth);
  let tree = native ? parseNative(custom.body, file, budgets.nestingDepth) : undefined;
  if (!tree) {
    tree = parseJs(custom.body, file, markdown);
    checkTreeDepth(tree, file, budgets.nestingDepth);
  }
  applyCustomHeadingIds(tree, custom.ids);
  return tree;
}

function parseJs(body: string, file: string, markdown: boolean): Root {
  try {
    return fromMarkdown(body, markdown ? mdOptions : mdxOptions);
  } catch (error) {
    // micromark recurses on some inline nesting (emphasis) that the scan before parsing does not measure.
    if (isStackOverflow(error)) throw ExportError.at({ file }, 'content nested too deep to be parsed');
    const e = error as {
      reason?: string;
      message: string;
      line?: number;
      column?: number;
      place?: { line?: number; column?: number; start?: { line: number; column: number } };
    };
    const place = e.place && 'start' in e.place ? e.place.start : e.place;
    const reason = e.reason ?? e.message;
    // Some errors of the JSX tree builder carry their position only in the text: "… (5:1-5:17)".
    const inText = /\((\d+):(\d+)(?:-\d+:\d+)?\)/.exec(reason);
    throw new ExportError(`${file} is not valid MDX`, [
      {
        file,
        line: e.line ?? place?.line ?? (inText ? Number(inText[1]) : undefined),
        column: e.column ?? place?.column ?? (inText ? Number(inText[2]) : undefined),
        message: reason.replace(/\s*\(\d+:\d+(?:-\d+:\d+)?\)/, ''),
      },
    ]);
  }
}

/** The tree from markdown-rs; undefined when markdown-rs gave up on the file (see below). */
function parseNative(body: string, file: string, nestingDepth: number): Root | undefined {
  let json: string;
  try {
    json = native?.parse(body, !file.endsWith('.md')) ?? '';
  } catch (error) {
    // markdown-rs panics on some valid input ("* <!--\n2."); the addon catches the panic, which
    // would abort the process, and micromark parses the file instead.
    if ((error as Error).message.startsWith('panicked: ')) return undefined;
    // The addon reports "line:column: reason".
    const match = /^(\d+):(\d+): ([\s\S]*)$/.exec((error as Error).message);
    const line = match && Number(match[1]) > 0 ? Number(match[1]) : undefined;
    const column = match && Number(match[2]) > 0 ? Number(match[2]) : undefined;
    throw new ExportError(`${file} is not valid MDX`, [
      { file, line, column, message: match?.[3] ?? (error as Error).message },
    ]);
  }
  const tree = JSON.parse(json) as Root;
  checkTreeDepth(tree, file, nestingDepth);
  respreadLists(tree);
  unnestLinks(tree, false);
  return tree;
}

/**
 * markdown-rs applies GFM autolink literals inside link text (`[https://x](https://x)` becomes a
 * link in a link); micromark does not, and HTML cannot nest links: keep the outer one.
 */
function unnestLinks(node: { type: string; children?: unknown[] }, inLink: boolean): void {
  if (!node.children) return;
  const children = node.children as Array<{ type: string; children?: unknown[] }>;
  node.children = children.flatMap((child) =>
    inLink && child.type === 'link'
      ? ((child.children ?? []) as Array<{ type: string; children?: unknown[] }>)
      : [child],
  );
  for (const child of node.children as Array<{ type: string; children?: unknown[] }>)
    unnestLinks(child, inLink || child.type === 'link');
}

type Positioned = {
  position?: { start: { line: number }; end: { line: number } };
  children?: Positioned[];
  type: string;
  spread?: boolean | null;
};

/**
 * List looseness as micromark decides it (mdast-util-to-hast wraps items in <p> by it): an item is
 * spread when a blank line separates two of its children, a list when a blank line separates two
 * items or an item is spread. markdown-rs also counts blank lines that only trail a list.
 */
function respreadLists(node: Positioned): void {
  // markdown-rs lists and list items end after their trailing blank lines: their end that counts
  // is that of their last child.
  const endLine = (n: Positioned): number => {
    const last = n.children?.at(-1);
    return (n.type === 'list' || n.type === 'listItem') && last ? endLine(last) : (n.position?.end.line ?? 0);
  };
  const gap = (a: Positioned | undefined, b: Positioned | undefined) =>
    a !== undefined && b?.position !== undefined && b.position.start.line > endLine(a) + 1;
  if (node.type === 'list' && node.children) {
    let spread = false;
    node.children.forEach((item, i) => {
      const children = item.children ?? [];
      item.spread = children.some((child, j) => j > 0 && gap(children[j - 1], child));
      if (item.spread || gap(item, node.children?.[i + 1])) spread = true;
    });
    node.spread = spread;
  }
  for (const child of node.children ?? []) respreadLists(child);
}
