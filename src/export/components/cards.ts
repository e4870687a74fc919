import type { Element, ElementContent } from 'hast';
import type { Component, ComponentInput } from '../render-context.ts';
import { iconElement } from './icons.ts';
import {
  blockTag,
  boolProp,
  colorProp,
  containsTag,
  el,
  iconFromProps,
  imageSrc,
  intProp,
  isExternal,
  linkHref,
  stringProp,
} from './shared.ts';

/**
 * `<Card title icon href img horizontal cta arrow color>`. With an href the whole card is one link. A card whose
 * content has links of its own cannot be an `<a>` (links do not nest), so there the title carries the link and
 * CSS stretches it over the card.
 */
const Card: Component = (input) => {
  const title = stringProp(input, 'title');
  const rawHref = stringProp(input, 'href')?.trim();
  const href = rawHref ? linkHref(input, rawHref) : undefined;
  const external = rawHref !== undefined && isExternal(rawHref);
  const showArrow = boolProp(input, 'arrow', external) && href !== undefined;
  const cta = stringProp(input, 'cta');
  const color = colorProp(input, 'color');
  const imgSource = stringProp(input, 'img')?.trim();
  const img = imgSource ? imageSrc(input, imgSource, 'image') : undefined;
  const icon = iconFromProps(input);
  const nestedLinks = href !== undefined && containsTag(input.children, 'a');
  const tag = blockTag(input);
  const linkProps = href
    ? { href, ...(external ? { target: '_blank', rel: ['noopener', 'noreferrer'] } : {}) }
    : undefined;

  const titleContent: ElementContent[] =
    input.markupProps?.title ?? (title ? [{ type: 'text', value: title }] : []);
  const titleNode = title
    ? el(
        blockTag(input, 'p'),
        { className: ['ds-card-title'] },
        nestedLinks && linkProps
          ? [el('a', { ...linkProps, className: ['ds-card-link'] }, titleContent)]
          : titleContent,
      )
    : undefined;
  const body: ElementContent[] = [
    ...(icon
      ? [el('span', { className: ['ds-card-icon'], ...(color ? { style: `color:${color}` } : {}) }, [icon])]
      : []),
    el(tag, { className: ['ds-card-text'] }, [
      ...(titleNode ? [titleNode] : []),
      ...(input.children.length > 0 ? [el(tag, { className: ['ds-card-content'] }, input.children)] : []),
      ...(cta ? [el('span', { className: ['ds-card-cta'] }, [{ type: 'text', value: cta }])] : []),
    ]),
    ...(showArrow ? [arrow()] : []),
  ];
  const className = [
    'ds-card',
    ...(boolProp(input, 'horizontal') ? ['ds-card-horizontal'] : []),
    ...(href ? ['ds-card-linked'] : []),
  ];
  const children: ElementContent[] = [
    ...(img ? [el('img', { className: ['ds-card-img'], src: img, alt: '', loading: 'lazy' })] : []),
    el(tag, { className: ['ds-card-body'] }, body),
  ];
  if (nestedLinks && !titleNode) {
    input.ctx.warn('<Card> has links in its content and no title: its href is left out');
  }
  if (linkProps && !nestedLinks) return [el('a', { ...linkProps, className }, children)];
  return [el(tag, { className }, children)];
};

function arrow(): Element {
  return el('span', { className: ['ds-card-arrow'], ariaHidden: 'true' }, [
    iconElement('arrow-up-right', { library: 'lucide' }) ?? { type: 'text', value: '↗' },
  ]);
}

/** `<CardGroup cols>` and `<Columns cols>`: a responsive grid, 2 columns unless told otherwise. */
function grid(kind: string): Component {
  return (input: ComponentInput) => {
    const cols = intProp(input, 'cols', { min: 1, max: 6, fallback: 2 });
    return [el(blockTag(input), { className: ['ds-columns', `ds-cols-${cols}`, kind] }, input.children)];
  };
}

export const cardComponents: Record<string, Component> = {
  Card,
  CardGroup: grid('ds-card-group'),
  Columns: grid('ds-column-group'),
};
