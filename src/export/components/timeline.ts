import type { Component } from '../render-context.ts';
import { blockTag, el, iconFromProps, isElement, itemsOf, stringProp } from './shared.ts';

/**
 * `<Timeline>` of `<Timeline.Item title date color icon>`: events in order, each with a marker in
 * one of the documented colours, its title and date, and any content below.
 */

const COLORS = new Set(['gray', 'blue', 'green', 'yellow', 'orange', 'red', 'purple']);

const Item: Component = (input) => {
  const title = stringProp(input, 'title');
  if (!title) input.ctx.warn('<Timeline.Item> has no title');
  const date = stringProp(input, 'date');
  const color = stringProp(input, 'color') ?? 'gray';
  if (!COLORS.has(color))
    input.ctx.warn(`<Timeline.Item> color="${color}" is not one of ${[...COLORS].join(', ')}: gray is used`);
  const icon = iconFromProps(input, { className: 'ds-timeline-icon' });
  return [
    el('li', { className: ['ds-timeline-item', `ds-timeline-${COLORS.has(color) ? color : 'gray'}`] }, [
      el('span', { className: ['ds-timeline-marker'], ariaHidden: 'true' }, icon ? [icon] : []),
      el(blockTag(input, 'div'), { className: ['ds-timeline-head'] }, [
        ...(title
          ? [el(blockTag(input, 'p'), { className: ['ds-timeline-title'] }, [{ type: 'text', value: title }])]
          : []),
        ...(date
          ? [el(blockTag(input, 'p'), { className: ['ds-timeline-date'] }, [{ type: 'text', value: date }])]
          : []),
      ]),
      el(blockTag(input, 'div'), { className: ['ds-timeline-body'] }, input.children),
    ]),
  ];
};

/** Used inside a paragraph (all on one line), the list is spans with list roles: an <ol> cannot be in a <p>. */
const Timeline: Component = (input) => {
  const items = itemsOf(input.children, 'ds-timeline-item');
  if (!input.inline) return [el('ol', { className: ['ds-timeline'] }, items)];
  for (const item of items)
    if (isElement(item) && item.tagName === 'li')
      Object.assign(item, { tagName: 'span' }).properties.role = 'listitem';
  return [el('span', { className: ['ds-timeline'], role: 'list' }, items)];
};

export const timelineComponents: Record<string, Component> = { Timeline, 'Timeline.Item': Item };
