import type { Element, ElementContent, Properties } from 'hast';
import { h } from 'hastscript';
import { ComponentIds } from '../pages/anchor-ids.ts';
import type { ComponentInput, IconLibrary, PropValue, RenderContext } from '../render-context.ts';
import { isAllowedUrl, refusedUrlMessage, urlScheme } from '../url-policy.ts';

/** Reads a string prop; numbers and booleans are written as text, anything else is ignored with a warning. */
export function stringProp(input: ComponentInput, name: string): string | undefined {
  const value = input.props[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  input.ctx.warn(`<${input.name}> prop ${name} should be text: ignored`);
  return undefined;
}

/** Reads a boolean prop: `defaultOpen` (bare, arrives as true), `defaultOpen={false}` or `defaultOpen="true"`. */
export function boolProp(input: ComponentInput, name: string, fallback = false): boolean {
  const value = input.props[name];
  if (value === undefined) return fallback;
  if (value === true || value === 'true' || value === '') return true;
  if (value === false || value === 'false' || value === null) return false;
  input.ctx.warn(`<${input.name}> prop ${name} should be true or false: using ${fallback}`);
  return fallback;
}

/** Reads an integer prop (`cols={2}` or `cols="2"`) within [min, max]; out of range or not a number warns. */
export function intProp(
  input: ComponentInput,
  name: string,
  range: { min: number; max: number; fallback: number },
): number {
  const value = input.props[name];
  if (value === undefined || value === null) return range.fallback;
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value.trim()) : Number.NaN;
  if (!Number.isInteger(n) || n < range.min || n > range.max) {
    input.ctx.warn(
      `<${input.name}> prop ${name}=${JSON.stringify(value)} is not a whole number from ${range.min} to ${range.max}: using ${range.fallback}`,
    );
    return range.fallback;
  }
  return n;
}

/** A literal prop value as text for display (`default={5}`, `default={["a"]}`). */
export function displayValue(value: PropValue | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

export function isElement(node: ElementContent | undefined): node is Element {
  return node?.type === 'element';
}

/** Whitespace text and comments between JSX children carry no content. */
export function isBlank(node: ElementContent): boolean {
  return node.type === 'comment' || (node.type === 'text' && node.value.trim() === '');
}

export function classes(node: Element): string[] {
  // Typed as a list, but nodes built by hand may carry a space-separated string.
  const value: unknown = node.properties.className;
  if (Array.isArray(value)) return value.map(String);
  if (typeof value === 'string') return value.split(/\s+/).filter(Boolean);
  return [];
}

export function hasClass(node: ElementContent | undefined, name: string): node is Element {
  return isElement(node) && classes(node).includes(name);
}

/** A property written either the hast way (`dataTitle`) or as a raw attribute name (`data-title`). */
export function attribute(node: Element, hastName: string, htmlName: string): string | undefined {
  const value = node.properties[hastName] ?? node.properties[htmlName];
  if (value === undefined || value === null || value === false) return undefined;
  return Array.isArray(value) ? value.join(' ') : String(value);
}

export function textContent(node: ElementContent): string {
  if (node.type === 'text') return node.value;
  if (node.type === 'element') return node.children.map(textContent).join('');
  return '';
}

export function containsTag(nodes: readonly ElementContent[], tagName: string): boolean {
  return nodes.some(
    (node) => node.type === 'element' && (node.tagName === tagName || containsTag(node.children, tagName)),
  );
}

/**
 * Block components used on one line (`<Note>text</Note>`) reach us as inline elements inside a paragraph, where a
 * `<div>` would be invalid; there the wrappers become `<span>`s that the CSS lays out as blocks.
 */
export function blockTag(input: ComponentInput, tag = 'div'): string {
  return input.inline ? 'span' : tag;
}

export function el(tag: string, properties: Properties, children: ElementContent[] = []): Element {
  return h(tag, properties, children);
}

/** What a page being rendered keeps while its components render: the ids it has issued. */
interface PageIds {
  counts: Map<string, number>;
  issued: Set<string>;
  /** The platform's anchor ids (anchor-ids.ts). */
  anchors: ComponentIds;
}
const pageIds = new WeakMap<object, PageIds>();

/**
 * The ids of the page being rendered. The renderer may hand each component a copy of the page's
 * context (to add line numbers to warnings), so the page is recognised by its resolveHref, which is
 * bound to one page by nature (its links are relative to that page). Ids therefore restart on every
 * page and come out the same from one export to the next.
 */
function idsOf(ctx: RenderContext): PageIds {
  const page: object = ctx.resolveHref;
  let ids = pageIds.get(page);
  if (!ids) {
    ids = { counts: new Map(), issued: new Set(), anchors: new ComponentIds() };
    pageIds.set(page, ids);
  }
  return ids;
}

/** An id unique within the page being rendered: `base` the first time, then `base-2`, `base-3`… */
export function uniqueId(ctx: RenderContext, base: string): string {
  const ids = idsOf(ctx);
  let count = ids.counts.get(base) ?? 0;
  let id: string;
  do {
    count++;
    id = count === 1 ? base : `${base}-${count}`;
  } while (ids.issued.has(id));
  ids.counts.set(base, count);
  ids.issued.add(id);
  return id;
}

/** The platform's ids for the components of the page being rendered (anchors authors link to; see anchor-ids.ts). */
export function componentIds(ctx: RenderContext): ComponentIds {
  return idsOf(ctx).anchors;
}

/** `ds-tabs-1`, `ds-tabs-2`…: ids for widgets, which nobody links to. */
export function widgetId(ctx: RenderContext, kind: string): string {
  const id = uniqueId(ctx, `ds-${kind}`);
  return id === `ds-${kind}` ? `${id}-1` : id;
}

const NAMED_COLOR = /^[a-z]{3,30}$/i;
const HEX_COLOR = /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
const FUNCTION_COLOR = /^(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch)\([\d\s.,%/+-]+\)$/i;

/**
 * A CSS color from a prop, or undefined with a warning. Only plain color syntax passes, because the value lands
 * in a style attribute where `url(…)` would load from another origin.
 */
export function colorProp(input: ComponentInput, name: string): string | undefined {
  const value = stringProp(input, name)?.trim();
  if (!value) return undefined;
  if (isCssColor(value)) return value;
  input.ctx.warn(`<${input.name}> prop ${name}="${value}" is not a CSS color: ignored`);
  return undefined;
}

/** Plain color syntax only (hex, a name, a color function of numbers): safe in a style attribute. */
export function isCssColor(value: string): boolean {
  return HEX_COLOR.test(value) || NAMED_COLOR.test(value) || FUNCTION_COLOR.test(value);
}

const EXTERNAL = /^(?:[a-z][a-z0-9+.-]*:)?\/\//i;

export function isExternal(url: string): boolean {
  return EXTERNAL.test(url);
}

/**
 * The `src` to write for an image named in a prop, held to the URL policy: a site path goes through
 * ctx.resolveAsset, a data:image URI stays, an http(s) URL stays except in an air-gapped export, which must load
 * nothing from another origin.
 */
export function imageSrc(input: ComponentInput, src: string, what: string): string | undefined {
  const { ctx } = input;
  if (!isAllowedUrl(src, 'image')) {
    ctx.warn(`<${input.name}> ${what} left out: ${refusedUrlMessage(src, 'a component prop', 'image')}`);
    return undefined;
  }
  if (isExternal(src)) {
    if (ctx.deployment === 'air-gapped') {
      ctx.warn(
        `<${input.name}> ${what} ${src} left out: an air-gapped export loads nothing from another origin`,
      );
      return undefined;
    }
    return src;
  }
  if (urlScheme(src) === 'data') return src;
  return ctx.resolveAsset(src, ctx.warn);
}

/** The href to write for a link prop, held to the URL policy (content never runs code). */
export function linkHref(input: ComponentInput, href: string): string | undefined {
  if (!isAllowedUrl(href, 'link')) {
    input.ctx.warn(`<${input.name}> link left out: ${refusedUrlMessage(href, 'a component prop', 'link')}`);
    return undefined;
  }
  return input.ctx.resolveHref(href, input.ctx.warn);
}

const IMAGE_FILE = /\.(?:svg|png|jpe?g|gif|webp|avif|ico|bmp)(?:[?#].*)?$/i;

/** True for an icon prop that names a file or URL rather than an icon of a library. */
export function isIconImage(value: string): boolean {
  return (
    isExternal(value) ||
    value.startsWith('/') ||
    value.startsWith('./') ||
    value.startsWith('../') ||
    /^data:image\//i.test(value) ||
    IMAGE_FILE.test(value)
  );
}

/**
 * Renders the `icon` prop of a component: a path becomes an `<img>` through ctx.resolveAsset, an http(s) URL an
 * `<img>` (left out in air-gapped exports), a name an inline SVG through ctx.icon (which warns when unknown).
 * `iconType="brands"` and the `iconLibrary` prop steer the name lookup.
 */
export function iconFromProps(
  input: ComponentInput,
  options: { prop?: string; className?: string } = {},
): Element | undefined {
  const propName = options.prop ?? 'icon';
  const markup = input.markupProps?.[propName];
  if (markup)
    return h(
      'span',
      { className: ['ds-icon', 'ds-icon-markup', ...(options.className ? [options.className] : [])] },
      markup,
    );
  const value = stringProp(input, propName)?.trim();
  if (!value) return undefined;
  const className = options.className;
  if (isIconImage(value)) {
    const src = imageSrc(input, value, 'icon');
    if (src === undefined) return undefined;
    return h('img', {
      src,
      alt: '',
      className: ['ds-icon', 'ds-icon-img', ...(className ? [className] : [])],
    });
  }
  const iconType = stringProp(input, 'iconType');
  const libraryProp = stringProp(input, 'iconLibrary');
  const library: IconLibrary | undefined =
    libraryProp === 'lucide' || libraryProp === 'fontawesome' || libraryProp === 'tabler'
      ? libraryProp
      : undefined;
  const name = iconType === 'brands' ? `brands ${value}` : value;
  return input.ctx.icon(name, {
    ...(library ? { library } : {}),
    ...(className ? { className } : {}),
  });
}

/** Children without the blank text between JSX elements. */
export function contentOf(children: readonly ElementContent[]): ElementContent[] {
  return children.filter((node) => !isBlank(node));
}

/**
 * Children without blank text, with paragraphs that hold nothing but `className` items unwrapped: items written
 * on one line each (`<Tab title="A">text</Tab>`) reach their parent inside a paragraph.
 */
export function itemsOf(children: readonly ElementContent[], className: string): ElementContent[] {
  return contentOf(children).flatMap((node) => {
    if (!isElement(node) || node.tagName !== 'p') return [node];
    const inner = contentOf(node.children);
    return inner.length > 0 && inner.every((child) => hasClass(child, className)) ? inner : [node];
  });
}
