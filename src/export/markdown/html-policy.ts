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
 *   attributes, `name` attributes (they can shadow properties of `document` that the theme's
 *   scripts read), and ids and classes in the theme's namespace (`ds-…`, `docsnap…`: the theme's
 *   scripts find their own elements by them). Exported pages run only docsnap's own scripts.
 *
 * Which URLs a page may hold is decided for the whole page by url-policy.ts, and whether a URL
 * may load from another origin by air-gap.ts, because components and the layout produce URLs too.
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
    '*': [
      ...(defaultSchema.attributes?.['*'] ?? []).filter((a) => a !== 'id' && a !== 'name'),
      ...everywhere,
    ],
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
  // URLs are judged by url-policy.ts, on the whole page: one policy for every source of URLs.
  protocols: {},
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

/** Ids and classes the theme's scripts and stylesheet look up: authors may not use them. */
const THEME_NAME = /^(?:ds-|docsnap)/i;

function classList(element: Element): string[] {
  // Typed as a list, but nodes built by hand may carry a space-separated string.
  const className: unknown = element.properties.className;
  if (Array.isArray(className)) return className.map(String);
  return typeof className === 'string' ? className.split(/\s+/).filter(Boolean) : [];
}

function themeNames(element: Element): { id?: string; classes: string[] } {
  const id = element.properties.id;
  const classes = classList(element);
  return {
    ...(typeof id === 'string' && THEME_NAME.test(id) ? { id } : {}),
    classes: classes.filter((name) => THEME_NAME.test(name)),
  };
}

/** Names what the policy removes from a tree, so the author learns about it. */
export function describeRemovals(tree: Nodes): string[] {
  const removed: string[] = [];
  visit(tree, 'element', (node: Element) => {
    if (NEVER_KEPT.has(node.tagName)) removed.push(`<${node.tagName}>`);
    for (const name of Object.keys(node.properties)) {
      if (/^on[A-Z]/.test(name) || /^on[a-z]/.test(name))
        removed.push(`${name} attribute on <${node.tagName}>`);
      if (name === 'name') removed.push(`name attribute on <${node.tagName}>`);
    }
    const reserved = themeNames(node);
    if (reserved.id) removed.push(`id "${reserved.id}" (reserved for the theme)`);
    for (const name of reserved.classes) removed.push(`class "${name}" (reserved for the theme)`);
  });
  return removed;
}

/** Applies the policy to a tree of authored HTML. */
export function sanitizeAuthored<T extends Nodes>(tree: T): T {
  const safe = sanitize(tree, authoredHtmlSchema) as T;
  visit(safe, 'element', (node: Element) => {
    const reserved = themeNames(node);
    if (reserved.id) delete node.properties.id;
    if (reserved.classes.length > 0) {
      const kept = classList(node).filter((name) => !reserved.classes.includes(name));
      if (kept.length > 0) node.properties.className = kept;
      else delete node.properties.className;
    }
  });
  return safe;
}
