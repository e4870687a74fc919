import type { Element, Nodes, Properties } from 'hast';

/**
 * The one URL policy of an export. Every href and src of a page, whoever wrote it (Markdown, HTML,
 * components, OpenAPI descriptions, docs.json, frontmatter), is held to it:
 *
 * - links may be http, https, mailto, tel, relative or a #fragment;
 * - images may also be data:image/…;
 * - everything else a page loads (frames, media, scripts, stylesheets) may be http, https or
 *   relative.
 *
 * Everything else — javascript:, vbscript:, data:text/html, file:, blob: … — is refused: followed
 * or loaded, it can run script on the site's origin or read the reader's files. Whether a URL may
 * point to another origin at all is a separate question, the deployment's (pages/air-gap.ts).
 */
export type UrlUse = 'link' | 'image' | 'resource';

const SCHEMES: Record<UrlUse, ReadonlySet<string>> = {
  link: new Set(['http', 'https', 'mailto', 'tel']),
  image: new Set(['http', 'https']),
  resource: new Set(['http', 'https']),
};

const DATA_IMAGE = /^data:image\/[a-z0-9.+-]+(?:[;,]|$)/i;

/** Strips what a browser strips before parsing a URL: tabs and newlines anywhere, controls and spaces at the ends. */
function asBrowserParses(url: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: C0 controls are exactly what browsers trim.
  return url.replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '');
}

/**
 * The scheme of a URL as a browser reads it, lowercased ("java\tscript:" is javascript), or
 * undefined for a relative URL or a fragment.
 */
export function urlScheme(url: string): string | undefined {
  return /^([a-z][a-z0-9+.-]*):/i.exec(asBrowserParses(url))?.[1]?.toLowerCase();
}

export function isAllowedUrl(url: string, use: UrlUse): boolean {
  if (!url.includes(':')) return true; // no scheme: relative, or a fragment
  const scheme = urlScheme(url);
  if (scheme === undefined || SCHEMES[use].has(scheme)) return true;
  return use === 'image' && DATA_IMAGE.test(asBrowserParses(url));
}

const ALLOWED_TEXT: Record<UrlUse, string> = {
  link: 'http, https, mailto, tel or relative links',
  image: 'http, https, data:image or relative images',
  resource: 'http, https or relative URLs',
};

/** The warning for a refused URL: what was refused, where, and what is allowed there. */
export function refusedUrlMessage(url: string, where: string, use: UrlUse): string {
  const shown = url.length > 60 ? `${url.slice(0, 60)}…` : url;
  return `refused URL ${JSON.stringify(shown)} in ${where}: only ${ALLOWED_TEXT[use]} are allowed`;
}

/**
 * How an element uses a URL attribute, or undefined when the attribute holds no URL. Attribute
 * names are hast property names.
 */
function useOf(element: Element, attribute: string): UrlUse | undefined {
  const tag = element.tagName;
  switch (attribute) {
    case 'href':
      if (tag === 'link') return /\bicon\b/.test(String(element.properties.rel ?? '')) ? 'image' : 'resource';
      return tag === 'image' || tag === 'use' ? 'resource' : 'link';
    case 'src':
    case 'srcSet':
      return tag === 'img' || tag === 'source' || tag === 'input' ? 'image' : 'resource';
    case 'poster':
    case 'background':
      return 'image';
    case 'data':
      return 'resource';
    case 'xLinkHref':
    case 'cite':
    case 'longDesc':
    case 'ping':
    case 'action':
    case 'formAction':
      return 'link';
    default:
      return undefined;
  }
}

/** The URLs of an attribute value: one, a list (ping), or a srcset's candidates. */
function urlsOf(attribute: string, value: Properties[string]): string[] {
  if (typeof value !== 'string' && !Array.isArray(value)) return [];
  if (attribute === 'srcSet') return srcsetUrls(Array.isArray(value) ? value.join(',') : value);
  return Array.isArray(value) ? value.map(String) : [value];
}

/**
 * The URLs of a srcset as the HTML standard splits it: a candidate's URL runs to the next
 * whitespace (so it may hold commas, as data: URLs do), then descriptors run to the next comma.
 */
function srcsetUrls(srcset: string): string[] {
  const urls: string[] = [];
  let at = 0;
  while (at < srcset.length) {
    while (at < srcset.length && /[\s,]/.test(srcset.charAt(at))) at++;
    const start = at;
    while (at < srcset.length && !/\s/.test(srcset.charAt(at))) at++;
    if (start === at) break;
    const url = srcset.slice(start, at);
    urls.push(url.replace(/,+$/, ''));
    if (url.endsWith(',')) continue;
    let depth = 0;
    for (; at < srcset.length; at++) {
      const c = srcset.charAt(at);
      if (c === ',' && depth === 0) break;
      if (c === '(') depth++;
      if (c === ')') depth = Math.max(0, depth - 1);
    }
  }
  return urls;
}

/** Every attribute (hast property name) that can hold a URL. */
const URL_ATTRIBUTES = new Set([
  'href',
  'src',
  'srcSet',
  'poster',
  'background',
  'data',
  'xLinkHref',
  'cite',
  'longDesc',
  'ping',
  'action',
  'formAction',
]);

/**
 * Holds every URL attribute of a tree to the policy: a refused one is removed (a link without
 * href is inert text) with a warning, prefixed with the source line when the element has one.
 * It runs on every page, layout included, so it walks the tree in one loop, reads only the
 * attributes that can hold a URL, and skips subtrees `checkedAlready`.
 */
export function enforceUrlPolicy(
  tree: Nodes,
  warn: (message: string) => void,
  checkedAlready: ReadonlySet<Nodes> = new Set(),
): void {
  const pending: Nodes[] = [tree];
  while (pending.length > 0) {
    const node = pending.pop() as Nodes;
    if (checkedAlready.has(node)) continue;
    if (node.type === 'element') {
      checkElement(node, warn);
      if (node.content) pending.push(node.content);
    }
    if ('children' in node)
      for (let i = node.children.length - 1; i >= 0; i--) pending.push(node.children[i] as Nodes);
  }
}

function checkElement(element: Element, warn: (message: string) => void): void {
  const properties = element.properties;
  for (const attribute in properties) {
    if (!URL_ATTRIBUTES.has(attribute)) continue;
    const value = properties[attribute];
    if (value === undefined || value === null) continue;
    const use = useOf(element, attribute);
    if (!use) continue;
    const refused = urlsOf(attribute, value).find((url) => !isAllowedUrl(url, use));
    if (refused === undefined) continue;
    delete properties[attribute];
    const line = element.position?.start.line;
    warn(
      `${line ? `line ${line}: ` : ''}${refusedUrlMessage(refused, `<${element.tagName} ${attribute}>`, use)}`,
    );
  }
}
