import type { Element, ElementContent, Nodes, Root } from 'hast';
import { h } from 'hastscript';
import type { Nodes as MdastNodes, Root as MdastRoot } from 'mdast';
import { toHast } from 'mdast-util-to-hast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import type { RenderContext } from '../render-context.ts';
import { isAllowedUrl } from '../url-policy.ts';
import type { OperationBudget } from './budget.ts';

/**
 * Descriptions in OpenAPI documents are CommonMark (+GFM). They are rendered without raw HTML
 * (mdast-util-to-hast drops `html` nodes unless told otherwise), links limited to safe protocols,
 * and images from other origins replaced by links in an air-gapped export.
 */

const parser = unified().use(remarkParse).use(remarkGfm).freeze();

// Shared schemas repeat the same descriptions on many pages; parsing is most of the rendering time.
// The cached trees are never mutated (toHast builds new nodes).
const MAX_CACHED = 4096;
const parsed = new Map<string, MdastRoot>();

function parse(markdown: string, budget: OperationBudget): MdastRoot {
  let tree = parsed.get(markdown);
  if (!tree) {
    if (parsed.size >= MAX_CACHED) parsed.clear();
    budget.checkDescription(markdown);
    tree = parser.parse(markdown);
    budget.checkDescriptionTree(tree);
    parsed.set(markdown, tree);
  }
  return tree;
}

// One line without any character Markdown gives meaning to is a plain paragraph: no parse needed.
const PLAIN = /^[^\\`*_[\]<>!#|~&:@\n]*$/;

function plainParagraphs(markdown: string): ElementContent[] | undefined {
  const text = markdown.trim();
  if (/^(?: {4}|\t)/.test(markdown)) return undefined;
  if (!PLAIN.test(text) || /^\s*(?:[-+=]|\d+[.)])/.test(text) || /www\./i.test(text)) return undefined;
  return [h('p', text)];
}

const HAS_PROTOCOL = /^[a-z][a-z0-9+.-]*:/i;

function isExternal(url: string): boolean {
  return HAS_PROTOCOL.test(url) || url.startsWith('//');
}

/**
 * The Markdown source with its raw HTML cut out, for the .md copy: the same content policy as
 * the HTML page, without re-serializing (and so reformatting) the author's Markdown.
 */
export function stripRawHtml(markdown: string, budget: OperationBudget): string {
  if (!markdown.includes('<')) return markdown.trim();
  const ranges: [number, number][] = [];
  const visit = (node: MdastNodes) => {
    if (
      node.type === 'html' &&
      node.position?.start.offset !== undefined &&
      node.position.end.offset !== undefined
    ) {
      ranges.push([node.position.start.offset, node.position.end.offset]);
    }
    if ('children' in node) for (const child of node.children) visit(child);
  };
  visit(parse(markdown, budget));
  let out = markdown;
  for (const [start, end] of ranges.reverse()) out = out.slice(0, start) + out.slice(end);
  return out.replace(/\n{3,}/g, '\n\n').trim();
}

function textOf(node: Nodes): string {
  if (node.type === 'text') return node.value;
  if ('children' in node) return node.children.map((c) => textOf(c)).join('');
  return '';
}

export interface DescriptionOptions {
  /**
   * Level for the description's top-level headings (2 under the page title); omit to turn
   * headings into bold paragraphs, for descriptions nested inside a field list.
   */
  headingLevel?: number;
  /** Prefix for footnote ids, unique per description on a page. */
  idPrefix: string;
  /** The operation's budget: a description is checked for nesting before it is parsed. */
  budget: OperationBudget;
}

export function renderDescription(
  markdown: string,
  ctx: RenderContext,
  options: DescriptionOptions,
): ElementContent[] {
  const plain = plainParagraphs(markdown);
  if (plain) return plain;
  const mdast = parse(markdown, options.budget);
  const root = toHast(mdast, {
    clobberPrefix: `${options.idPrefix}-`,
    footnoteLabelTagName: 'p',
  }) as Root;
  let minDepth = 7;
  const findDepth = (node: Nodes) => {
    if (node.type === 'element' && /^h[1-6]$/.test(node.tagName))
      minDepth = Math.min(minDepth, Number(node.tagName[1]));
    if ('children' in node) for (const c of node.children) findDepth(c);
  };
  findDepth(root);
  const fix = (node: ElementContent): ElementContent => {
    if (node.type !== 'element') return node;
    const element = node;
    element.children = element.children.map(fix);
    const tag = element.tagName;
    if (/^h[1-6]$/.test(tag)) {
      if (options.headingLevel === undefined) {
        return h('p', { className: ['ds-api-md-heading'] }, h('strong', element.children));
      }
      const level = Math.min(6, Number(tag[1]) - minDepth + options.headingLevel);
      element.tagName = `h${level}`;
      return element;
    }
    if (tag === 'a') {
      const href = String(element.properties.href ?? '');
      if (!isAllowedUrl(href, 'link')) delete element.properties.href;
      else if (href) element.properties.href = ctx.resolveHref(href);
      return element;
    }
    if (tag === 'img') return fixImage(element, ctx);
    if (tag === 'pre') {
      const code = element.children.find((c): c is Element => c.type === 'element' && c.tagName === 'code');
      if (code) {
        const classes = Array.isArray(code.properties.className) ? code.properties.className.map(String) : [];
        const language = classes.find((c) => c.startsWith('language-'))?.slice('language-'.length);
        return ctx.codeBlock(textOf(code).replace(/\n$/, ''), language);
      }
    }
    return element;
  };
  return root.children.filter((c): c is ElementContent => c.type !== 'doctype').map(fix);
}

function fixImage(element: Element, ctx: RenderContext): ElementContent {
  const src = String(element.properties.src ?? '');
  const alt = String(element.properties.alt ?? '');
  if (!src || !isAllowedUrl(src, 'image')) return { type: 'text', value: alt };
  if (isExternal(src)) {
    if (ctx.deployment === 'air-gapped') {
      ctx.warn(
        `OpenAPI description image ${src} is on another origin; an air-gapped export shows a link instead`,
      );
      return h('a', { href: src }, alt || src);
    }
    return element;
  }
  element.properties.src = ctx.resolveAsset(src);
  return element;
}
