import type { ElementContent } from 'hast';
import { h } from 'hastscript';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { toHast } from 'mdast-util-to-hast';

/** The inline Markdown a one-line setting may hold (a banner, a caption): links, bold, italic, code. */
const INLINE_TAGS = new Set(['a', 'strong', 'em', 'code', 'del', 'br']);

/**
 * One line of Markdown from a setting or prop as inline markup: the inline elements above kept
 * (a link's href as `href` resolves it; a link it refuses keeps its text only), everything else
 * unwrapped to its text. No HTML passes: the Markdown parser reads it as text here.
 */
export function inlineMarkdown(text: string, href: (url: string) => string | undefined): ElementContent[] {
  const tree = toHast(fromMarkdown(text));
  return ('children' in tree ? (tree.children as ElementContent[]) : []).flatMap((node) =>
    inline(node, href),
  );
}

function inline(node: ElementContent, href: (url: string) => string | undefined): ElementContent[] {
  if (node.type === 'text') return [node];
  if (node.type !== 'element') return [];
  const children = node.children.flatMap((child) => inline(child, href));
  if (!INLINE_TAGS.has(node.tagName)) return children;
  if (node.tagName === 'a') {
    const target = href(typeof node.properties.href === 'string' ? node.properties.href : '');
    return target === undefined ? children : [h('a', { href: target }, children)];
  }
  return [h(node.tagName, children)];
}
