import type { Element, Nodes } from 'hast';
import { defaultSchema, type Schema, sanitize } from 'hast-util-sanitize';
import { visit } from 'unist-util-visit';

/**
 * The policy for HTML that authors write themselves (lowercase JSX tags in MDX, raw HTML in .md):
 *
 * - GitHub's sanitizing rules (hast-util-sanitize's default schema), widened for what docs use:
 *   classes, ids (kept as written, so anchors work), inline styles, ARIA and data attributes,
 *   media (video, audio, picture) and iframes for embeds;
 * - never kept: <script>, <style>, <link>, <meta>, <base>, <object>, <embed>, forms, event handler
 *   attributes and javascript: URLs. Exported pages run only docsnap's own scripts.
 *
 * Whether a URL may load from another origin is decided later for the whole page (air-gap.ts),
 * because components can produce such URLs too.
 */

const everywhere = [
  'className',
  'id',
  'style',
  'title',
  'role',
  'lang',
  'dir',
  'hidden',
  'tabIndex',
  'data*',
  'ariaLabel',
  'ariaLabelledBy',
  'ariaDescribedBy',
  'ariaHidden',
  'ariaExpanded',
  'ariaControls',
  'ariaCurrent',
  'ariaLive',
];

export const authoredHtmlSchema: Schema = {
  ...defaultSchema,
  clobberPrefix: '',
  clobber: [],
  tagNames: [
    ...(defaultSchema.tagNames ?? []),
    'video',
    'audio',
    'source',
    'track',
    'picture',
    'figure',
    'figcaption',
    'iframe',
    'mark',
    'u',
    'small',
    'abbr',
    'center',
    'span',
    'section',
    'article',
    'aside',
    'header',
    'footer',
    'nav',
    'main',
  ],
  attributes: {
    ...defaultSchema.attributes,
    '*': [...(defaultSchema.attributes?.['*'] ?? []).filter((a) => a !== 'id'), ...everywhere],
    a: [...(defaultSchema.attributes?.a ?? []), 'target', 'rel', 'download'],
    img: [
      ...(defaultSchema.attributes?.img ?? []),
      'alt',
      'width',
      'height',
      'loading',
      'srcSet',
      'sizes',
      'decoding',
    ],
    video: [
      'src',
      'poster',
      'controls',
      'autoPlay',
      'loop',
      'muted',
      'playsInline',
      'width',
      'height',
      'preload',
    ],
    audio: ['src', 'controls', 'autoPlay', 'loop', 'muted', 'preload'],
    source: ['src', 'srcSet', 'type', 'media', 'sizes'],
    track: ['src', 'kind', 'srcLang', 'label', 'default'],
    iframe: [
      'src',
      'width',
      'height',
      'allow',
      'allowFullScreen',
      'loading',
      'frameBorder',
      'referrerPolicy',
    ],
    td: [...(defaultSchema.attributes?.td ?? []), 'colSpan', 'rowSpan', 'align'],
    th: [...(defaultSchema.attributes?.th ?? []), 'colSpan', 'rowSpan', 'align', 'scope'],
    code: ['className'],
    pre: ['className'],
    li: ['className'],
    ol: ['className', 'start', 'type', 'reversed'],
    ul: ['className'],
    input: [['disabled', true], ['type', 'checkbox'], 'checked'],
  },
  protocols: {
    ...defaultSchema.protocols,
    src: ['http', 'https', 'data'],
    srcSet: ['http', 'https'],
    poster: ['http', 'https'],
    href: ['http', 'https', 'mailto', 'tel', 'irc', 'ircs', 'xmpp'],
  },
  strip: ['script', 'style'],
};

const NEVER_KEPT = new Set([
  'script',
  'style',
  'link',
  'meta',
  'base',
  'object',
  'embed',
  'form',
  'applet',
  'frame',
  'frameset',
]);

/** Names what the policy removes from a tree, so the author learns about it. */
export function describeRemovals(tree: Nodes): string[] {
  const removed: string[] = [];
  visit(tree, 'element', (node: Element) => {
    if (NEVER_KEPT.has(node.tagName)) removed.push(`<${node.tagName}>`);
    for (const [name, value] of Object.entries(node.properties)) {
      if (/^on[A-Z]/.test(name) || /^on[a-z]/.test(name))
        removed.push(`${name} attribute on <${node.tagName}>`);
      if (typeof value === 'string' && /^\s*javascript:/i.test(value))
        removed.push(`javascript: URL on <${node.tagName}>`);
    }
  });
  return removed;
}

/** Applies the policy to a tree of authored HTML. */
export function sanitizeAuthored<T extends Nodes>(tree: T): T {
  return sanitize(tree, authoredHtmlSchema) as T;
}
