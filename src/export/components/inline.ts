import type { Element, ElementContent } from 'hast';
import type { Component } from '../render-context.ts';
import {
  boolProp,
  colorProp,
  el,
  iconFromProps,
  isElement,
  linkHref,
  stringProp,
  widgetId,
} from './shared.ts';

/** `<Icon icon size color iconType>`: an inline SVG (or image) sized in pixels. */
const Icon: Component = (input) => {
  if (!stringProp(input, 'icon')) {
    input.ctx.warn('<Icon> has no icon prop');
    return [];
  }
  const icon = iconFromProps(input, { className: 'ds-icon-standalone' });
  if (!icon) return [];
  const sizeValue = input.props.size;
  const size = typeof sizeValue === 'string' ? Number(sizeValue) : sizeValue;
  const style: string[] = [];
  if (typeof size === 'number' && Number.isFinite(size) && size > 0 && size <= 512) {
    style.push(`width:${size}px`, `height:${size}px`);
  } else if (sizeValue !== undefined) {
    input.ctx.warn(`<Icon> size=${JSON.stringify(sizeValue)} is not a size in pixels: ignored`);
  }
  const color = colorProp(input, 'color');
  if (color) style.push(`color:${color}`);
  if (style.length > 0) icon.properties.style = style.join(';');
  return [icon];
};

function firstLink(nodes: readonly ElementContent[]): Element | undefined {
  for (const node of nodes) {
    if (!isElement(node)) continue;
    if (node.tagName === 'a' || node.tagName === 'button') return node;
    const found = firstLink(node.children);
    if (found) return found;
  }
  return undefined;
}

/**
 * `<Tooltip tip headline cta href>`: the text becomes focusable and is described by a `role="tooltip"` bubble that
 * CSS shows on hover and focus (and keeps open while the pointer or focus is inside, so its link is reachable).
 */
const Tooltip: Component = (input) => {
  const tip = stringProp(input, 'tip');
  if (!tip) {
    input.ctx.warn('<Tooltip> has no tip: rendered its content only');
    return input.children;
  }
  const headline = stringProp(input, 'headline');
  const cta = stringProp(input, 'cta');
  const rawHref = stringProp(input, 'href')?.trim();
  const href = rawHref ? linkHref(input, rawHref) : undefined;
  if (cta && !rawHref) input.ctx.warn('<Tooltip> has a cta but no href: the call to action is left out');
  const id = widgetId(input.ctx, 'tip');
  const tag = input.inline ? 'span' : 'div';
  // Text that already holds a link is focusable through it; the link carries the description then.
  const link = firstLink(input.children);
  if (link) link.properties.ariaDescribedBy = [id];
  const trigger = el(
    tag,
    { className: ['ds-tooltip-trigger'], ...(link ? {} : { tabIndex: 0, ariaDescribedBy: [id] }) },
    input.children,
  );
  const bubble = el('span', { className: ['ds-tooltip-bubble'], role: 'tooltip', id }, [
    ...(headline
      ? [el('strong', { className: ['ds-tooltip-headline'] }, [{ type: 'text', value: headline }])]
      : []),
    el('span', { className: ['ds-tooltip-tip'] }, [{ type: 'text', value: tip }]),
    ...(cta && href
      ? [el('a', { className: ['ds-tooltip-cta'], href }, [{ type: 'text', value: cta }])]
      : []),
  ]);
  return [el(tag, { className: ['ds-tooltip'] }, [trigger, bubble])];
};

const BADGE_COLORS = new Set([
  'gray',
  'blue',
  'green',
  'yellow',
  'orange',
  'red',
  'purple',
  'white',
  'surface',
  'white-destructive',
  'surface-destructive',
]);
const BADGE_SIZES = new Set(['xs', 'sm', 'md', 'lg']);
const BADGE_SHAPES = new Set(['rounded', 'pill']);

/** `<Badge color size shape icon stroke disabled>`: a small inline label. */
const Badge: Component = (input) => {
  const pick = (name: string, allowed: Set<string>, fallback: string): string => {
    const value = stringProp(input, name);
    if (value === undefined) return fallback;
    if (allowed.has(value)) return value;
    input.ctx.warn(`<Badge> ${name}="${value}" is not one of ${[...allowed].join(', ')}: using ${fallback}`);
    return fallback;
  };
  const color = pick('color', BADGE_COLORS, 'gray');
  const size = pick('size', BADGE_SIZES, 'md');
  const shape = pick('shape', BADGE_SHAPES, 'rounded');
  const icon = iconFromProps(input, { className: 'ds-badge-icon' });
  const className = [
    'ds-badge',
    `ds-badge-${color}`,
    `ds-badge-${size}`,
    `ds-badge-${shape}`,
    ...(boolProp(input, 'stroke') ? ['ds-badge-stroke'] : []),
    ...(boolProp(input, 'disabled') ? ['ds-badge-disabled'] : []),
  ];
  return [el(input.inline ? 'span' : 'div', { className }, [...(icon ? [icon] : []), ...input.children])];
};

/**
 * `<Mention page="/quickstart">` is a link with the page's title, as on the published platform site;
 * `<Mention user="email">` names a teammate, whose display name only the platform knows: the part of
 * the address before the @ is shown, never the address itself.
 */
const Mention: Component = (input) => {
  const page = stringProp(input, 'page')?.trim();
  const user = stringProp(input, 'user')?.trim();
  if (page && !user) {
    const href = linkHref(input, page);
    const title = input.ctx.pageTitle?.(page) ?? page.replace(/^\//, '');
    if (!href) return [{ type: 'text', value: title }];
    return [el('a', { className: ['ds-mention'], href }, [{ type: 'text', value: title }])];
  }
  if (user && !page) {
    const name = user.split('@')[0] ?? user;
    return [el('span', { className: ['ds-mention'] }, [{ type: 'text', value: `@${name}` }])];
  }
  input.ctx.warn('<Mention> needs exactly one of user or page: left out');
  return [];
};

/** `<RainbowText>`: its text in a rainbow gradient. */
const RainbowText: Component = (input) => [el('span', { className: ['ds-rainbow-text'] }, input.children)];

export const inlineComponents: Record<string, Component> = { Icon, Tooltip, Badge, Mention, RainbowText };
