import { randomBytes } from 'node:crypto';
import type { Element, ElementContent, Root as HastRoot, Properties } from 'hast';
import { raw } from 'hast-util-raw';
import type { Root as MdastRoot } from 'mdast';
import type { MdxJsxFlowElement, MdxJsxTextElement } from 'mdast-util-mdx-jsx';
import { defaultHandlers, type Handlers, type State, toHast } from 'mdast-util-to-hast';
import { SKIP, visit } from 'unist-util-visit';
import { sanitizeSvg } from '../assets/svg-policy.ts';
import { renderComponent } from '../components/index.ts';
import type { PropValue, RenderContext } from '../render-context.ts';
import { enforceUrlPolicy } from '../url-policy.ts';
import { describeRemovals, sanitizeAuthored } from './html-policy.ts';
import { expressionTree, jsxProps, literalExpression } from './literal-props.ts';
import { typeset } from './math.ts';
import { parseBody } from './parse.ts';

type JsxElement = MdxJsxFlowElement | MdxJsxTextElement;

/**
 * mdast → hast for one page. JSX elements with a capitalized name are components (rendered by
 * components/), lowercase ones are HTML and pass through the authored-HTML policy; `{expressions}`
 * are never executed (a literal string still shows). Code is highlighted at build time through
 * ctx.codeBlock. Every URL of the result is held to the URL policy, whatever produced it.
 */
export function mdastToHast(tree: MdastRoot, ctx: RenderContext, file: string): HastRoot {
  const hast = file.endsWith('.md') ? markdownPageToHast(tree, ctx) : mdxPageToHast(tree, ctx);
  enforceUrlPolicy(hast, ctx.warn);
  return hast;
}

function mdxPageToHast(tree: MdastRoot, ctx: RenderContext): HastRoot {
  const jsx = (state: State, node: JsxElement): ElementContent[] | Element | undefined => {
    const name = node.name;
    const inline = node.type === 'mdxJsxTextElement';
    // A fragment (<>…</>): micromark gives a null name, the native parser none at all.
    if (name === null || name === undefined) return state.all(node) as ElementContent[];
    const warn = warnAt(ctx, node);
    const markupProps: Record<string, ElementContent[]> = {};
    const props = jsxProps(node.attributes, warn, name, {
      render: (jsx) => jsxMarkup(jsx, ctx, warn),
      into: markupProps,
    });
    const childValue = /^[A-Z]/.test(name) ? literalChild(node) : undefined;
    const children = childValue === undefined ? (state.all(node) as ElementContent[]) : [];
    if (/^[a-z]/.test(name) && !name.includes('.'))
      return htmlElement(name, props, children, warn).map((e) => resolveUrls(e, ctx, warn));
    return renderComponent({
      name,
      props,
      children,
      ...(childValue === undefined ? {} : { childValue }),
      inline,
      ctx: { ...ctx, warn },
      ...(Object.keys(markupProps).length > 0 ? { markupProps } : {}),
    });
  };
  const expression = (_state: State, node: { value: string; data?: { estree?: unknown } } & Positioned) => {
    const value = literalExpression(expressionTree(node));
    // Literal strings and numbers render as text ({" "}, {"`"}); everything else needs JavaScript.
    if (typeof value === 'string' || typeof value === 'number')
      return { type: 'text', value: String(value) } as const;
    if (node.value.trim() && !/^\s*\/\*[\s\S]*\*\/\s*$/.test(node.value)) {
      warnAt(ctx, node)(`expression {${node.value.trim().slice(0, 60)}} is JavaScript and was not executed`);
    }
    return undefined;
  };
  return pageToHast(tree, {
    handlers: {
      ...linkHandlers(ctx),
      ...mathHandlers(ctx, (element) => element),
      code: (_state, node: CodeNode) =>
        ctx.codeBlock(node.value, node.lang ?? undefined, node.meta ?? undefined),
      mdxJsxFlowElement: jsx,
      mdxJsxTextElement: jsx,
      mdxFlowExpression: expression,
      mdxTextExpression: expression,
      mdxjsEsm: () => undefined, // imports were resolved into snippets before conversion
    },
  }) as HastRoot;
}

type CodeNode = { value: string; lang?: string | null; meta?: string | null };

const WRAPPED = 'docsnapPage';
type Definitions = Pick<State, 'definitionById' | 'footnoteById'>;

/**
 * toHast for a whole page, faster. Before converting, mdast-util-to-hast walks the entire tree
 * with unist-util-visit to find link and footnote definitions: measured, a fifth of the
 * conversion's time on large sites. The tree goes in wrapped in a node without children, which
 * hides it from that walk; the wrapper's handler finds the definitions with a plain loop (same
 * rule: document order, the first of an identifier wins) and converts the page.
 */
function pageToHast(tree: MdastRoot, options: { handlers: Handlers }): HastRoot {
  const wrapper = { type: 'root', children: [{ type: WRAPPED, tree }], position: tree.position };
  return toHast(wrapper as unknown as MdastRoot, {
    ...options,
    handlers: {
      ...options.handlers,
      [WRAPPED]: (state: State, node: { tree: MdastRoot }) => {
        collectDefinitions(node.tree, state);
        return state.all(node.tree);
      },
    } as Handlers,
  }) as HastRoot;
}

function collectDefinitions(tree: MdastRoot, state: Definitions): void {
  const stack: unknown[] = [tree];
  while (stack.length > 0) {
    const node = stack.pop() as { type: string; identifier?: string; children?: unknown[] };
    if (node.type === 'definition' || node.type === 'footnoteDefinition') {
      const map: Map<string, unknown> =
        node.type === 'definition' ? state.definitionById : state.footnoteById;
      const id = String(node.identifier).toUpperCase();
      if (!map.has(id)) map.set(id, node);
    }
    const children = node.children;
    if (children) for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
}

/** Links and images as written in Markdown point into the repository: resolved here, once. */
function linkHandlers(ctx: RenderContext): Handlers {
  // A broken link is reported with the line of the link.
  return {
    link: (state, node) => resolveUrls(defaultHandlers.link(state, node), ctx, warnAt(ctx, node)),
    linkReference: (state, node) =>
      resolveUrls(defaultHandlers.linkReference(state, node), ctx, warnAt(ctx, node)),
    image: (state, node) => resolveUrls(defaultHandlers.image(state, node), ctx, warnAt(ctx, node)),
    imageReference: (state, node) =>
      resolveUrls(defaultHandlers.imageReference(state, node), ctx, warnAt(ctx, node)),
  };
}

/**
 * A component's only child when it is an array or object literal (`<Graph>{[…]}</Graph>`): data for
 * the component, not text to show.
 */
function literalChild(node: JsxElement): PropValue | undefined {
  const content = node.children.filter(
    (child) =>
      !(child.type === 'text' && !child.value.trim()) &&
      !(child.type === 'paragraph' && child.children.length === 0),
  );
  const only = content.length === 1 ? content[0] : undefined;
  const expression = only?.type === 'paragraph' && only.children.length === 1 ? only.children[0] : only;
  if (expression?.type !== 'mdxFlowExpression' && expression?.type !== 'mdxTextExpression') return undefined;
  const value = literalExpression(expressionTree(expression));
  return value !== null && typeof value === 'object' ? value : undefined;
}

/** The page's warn for one node of the source: its messages start with the node's line. */
function warnAt(ctx: RenderContext, node: Positioned): (message: string) => void {
  const line = node.position?.start.line;
  return line === undefined ? ctx.warn : (message) => ctx.warn(`line ${line}: ${message}`);
}

type Positioned = { position?: { start: { line: number } } };

/**
 * A .md page: its raw HTML is parsed for real, then the whole page is held to the authored-HTML
 * policy. Code blocks are docsnap's own markup (with theme classes the policy refuses to authors),
 * so they wait outside as placeholders that carry a per-page secret nobody can write in advance,
 * and take their place once the page is sanitized.
 */
function markdownPageToHast(tree: MdastRoot, ctx: RenderContext): HastRoot {
  const secret = randomBytes(12).toString('hex');
  const codeBlocks: Element[] = [];
  const placeholder = (element: Element): Element => {
    codeBlocks.push(element);
    // Inline math waits in a <span>: the HTML parser would move a <pre> out of its paragraph.
    return {
      type: 'element',
      tagName: element.tagName === 'span' || element.tagName === 'code' ? 'span' : 'pre',
      properties: { dataCode: `${secret}-${codeBlocks.length - 1}` },
      children: [],
    };
  };
  const hast = toHast(tree, {
    allowDangerousHtml: true,
    handlers: {
      ...linkHandlers(ctx),
      // Typeset math, like code blocks, is docsnap's markup: it waits outside the sanitizer.
      ...mathHandlers(ctx, (element) => placeholder(element)),
      code: (_state, node: CodeNode) =>
        placeholder(ctx.codeBlock(node.value, node.lang ?? undefined, node.meta ?? undefined)),
    },
  }) as HastRoot;
  const parsed = raw(hast) as HastRoot;
  const removed = describeRemovals(parsed);
  if (removed.length > 0) ctx.warn(`removed from raw HTML: ${[...new Set(removed)].join(', ')}`);
  const safe = sanitizeAuthored(parsed);
  visit(safe, 'element', (element: Element, index, parent) => {
    const code = /^([0-9a-f]+)-(\d+)$/.exec(String(element.properties.dataCode ?? ''));
    const block = code?.[1] === secret ? codeBlocks[Number(code[2])] : undefined;
    if (block && parent && index !== undefined) {
      parent.children[index] = block;
      return SKIP;
    }
    if (element.tagName === 'a' || URL_ATTRIBUTES[element.tagName]) resolveUrls(element, ctx);
  });
  return safe;
}

/** `$$…$$` and `$…$`: typeset with KaTeX (math.ts), warnings with the line of the formula. */
function mathHandlers(ctx: RenderContext, place: (element: Element) => Element): Handlers {
  return {
    math: (_state, node: { value: string } & Positioned) =>
      place(typeset(node.value, true, warnAt(ctx, node))),
    inlineMath: (_state, node: { value: string } & Positioned) =>
      place(typeset(node.value, false, warnAt(ctx, node))),
  };
}

/**
 * JSX given as a prop's value, as static markup: an inline `<svg>` through the SVG policy (the one
 * the repository's SVG files go through), anything else parsed as MDX and converted like the
 * page, through the authored-HTML policy. Undefined when it does not parse.
 */
function jsxMarkup(
  jsx: string,
  ctx: RenderContext,
  warn: (message: string) => void,
): ElementContent[] | undefined {
  if (/^<svg[\s>]/i.test(jsx)) {
    const outcome = sanitizeSvg(new TextEncoder().encode(svgFromJsx(jsx)));
    if ('refused' in outcome) {
      warn(`an inline <svg> prop: ${outcome.refused}`);
      return undefined;
    }
    return [{ type: 'raw', value: outcome.svg }];
  }
  let tree: MdastRoot;
  try {
    tree = parseBody(jsx.replace(/^<>|<\/>$/g, ''), 'prop.mdx');
  } catch {
    return undefined;
  }
  const nodes = mdxPageToHast(tree, ctx).children as ElementContent[];
  // A single paragraph is unwrapped: a prop's markup is inline more often than not.
  const only = nodes.filter((n) => !(n.type === 'text' && !n.value.trim()));
  return only.length === 1 && only[0]?.type === 'element' && only[0].tagName === 'p'
    ? only[0].children
    : only;
}

/** JSX spellings of SVG attributes as SVG spells them (`strokeWidth` → `stroke-width`, `className` → `class`). */
function svgFromJsx(jsx: string): string {
  return jsx
    .replace(/\bclassName=/g, 'class=')
    .replace(
      /\b(stroke|fill|clip|stop|font|text|marker|color)([A-Z][a-zA-Z]*)=/g,
      (_, head: string, tail: string) => `${head}${tail.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}=`,
    )
    .replace(/=\{(["'])(.*?)\1\}/g, '=$1$2$1')
    .replace(/=\{(-?\d+(?:\.\d+)?)\}/g, '="$1"');
}

/** Attributes that hold a file of the site, by element. */
const URL_ATTRIBUTES: Record<string, string[]> = {
  img: ['src'],
  video: ['src', 'poster'],
  audio: ['src'],
  source: ['src'],
  track: ['src'],
  iframe: ['src'],
};

/** Rewrites an authored element's own link (a href) and file (src, poster) through the context. */
function resolveUrls<T extends ElementContent | ElementContent[] | undefined>(
  node: T,
  ctx: RenderContext,
  warn?: (message: string) => void,
): T {
  const element = node as ElementContent | undefined;
  if (element?.type !== 'element') return node;
  const href = element.properties.href;
  if (element.tagName === 'a' && typeof href === 'string')
    element.properties.href = ctx.resolveHref(href, warn);
  for (const attribute of URL_ATTRIBUTES[element.tagName] ?? []) {
    const value = element.properties[attribute];
    if (typeof value === 'string') element.properties[attribute] = ctx.resolveAsset(value, warn);
  }
  return node;
}

/** A lowercase JSX tag as an HTML element, held to the authored-HTML policy (its children are already safe). */
function htmlElement(
  tagName: string,
  props: Record<string, PropValue | undefined>,
  children: ElementContent[],
  warn: (m: string) => void,
): ElementContent[] {
  const properties: Properties = {};
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null) continue;
    // `<img noZoom>`: the platform's opt-out of click-to-zoom, kept as data the script reads.
    const name =
      key === 'class' ? 'className' : key === 'for' ? 'htmlFor' : key === 'noZoom' ? 'dataNoZoom' : key;
    if (name === 'style' && typeof value === 'object')
      properties.style = styleText(value as Record<string, PropValue>);
    else if (name === 'className' && typeof value === 'string')
      properties.className = value.split(/\s+/).filter(Boolean);
    else if (typeof value === 'object') continue;
    else properties[name] = value;
  }
  const shell: Element = { type: 'element', tagName, properties, children: [] };
  const removed = describeRemovals(shell);
  if (removed.length > 0)
    warn(`removed ${removed.join(', ')}: exported pages run only docsnap's own scripts`);
  const safe = sanitizeAuthored({ type: 'root', children: [shell] }).children[0];
  if (safe?.type !== 'element') return [];
  safe.children = children;
  if (safe.tagName === 'img' && safe.properties.alt === undefined) {
    warn(
      `<img src="${String(safe.properties.src ?? '')}"> has no alt text; add alt (alt="" if it is decorative)`,
    );
  }
  if (safe.tagName === 'iframe' && !safe.properties.title) {
    // A frame needs an accessible name; the host of the embed is the best one we have.
    const host = /^(?:https?:)?\/\/([^/]+)/.exec(String(safe.properties.src ?? ''))?.[1];
    safe.properties.title = host ? `Embedded content from ${host}` : 'Embedded content';
  }
  return [safe];
}

/** `style={{ maxWidth: 300, color: "red" }}` → "max-width: 300px; color: red". */
function styleText(style: Record<string, PropValue>): string {
  const unitless = new Set([
    'opacity',
    'zIndex',
    'fontWeight',
    'lineHeight',
    'flex',
    'flexGrow',
    'flexShrink',
    'order',
    'zoom',
  ]);
  return Object.entries(style)
    .filter(([, v]) => typeof v === 'string' || typeof v === 'number')
    .map(([k, v]) => {
      const property = k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
      return `${property}: ${typeof v === 'number' && !unitless.has(k) && v !== 0 ? `${v}px` : v}`;
    })
    .join('; ');
}
