import { slug } from 'github-slugger';
import type { ElementContent } from 'hast';
import type { Component } from '../render-context.ts';
import { el, stringProp, uniqueId } from './shared.ts';

/** `<Update label description tags>`: one changelog entry, with an id from its label so it can be linked to. */
const Update: Component = (input) => {
  const label = stringProp(input, 'label');
  if (!label) input.ctx.warn('<Update> has no label');
  const description = stringProp(input, 'description');
  const tagsValue = input.props.tags;
  const tags = (
    Array.isArray(tagsValue) ? tagsValue : typeof tagsValue === 'string' ? [tagsValue] : []
  ).filter((tag): tag is string => typeof tag === 'string' && tag.trim() !== '');
  const id = uniqueId(input.ctx, slug(label ?? '') || 'update');
  const meta: ElementContent[] = [
    ...(label
      ? [el('a', { className: ['ds-update-label'], href: `#${id}` }, [{ type: 'text', value: label }])]
      : []),
    ...(description
      ? [el('p', { className: ['ds-update-description'] }, [{ type: 'text', value: description }])]
      : []),
    ...(tags.length > 0
      ? [
          el(
            'ul',
            { className: ['ds-update-tags'], ariaLabel: 'Tags' },
            tags.map((tag) =>
              el('li', { className: ['ds-badge', 'ds-badge-gray', 'ds-badge-sm'] }, [
                { type: 'text', value: tag },
              ]),
            ),
          ),
        ]
      : []),
  ];
  return [
    // A div, not a labelled section: a changelog of many entries would otherwise flood the landmark list.
    el('div', { className: ['ds-update'], id }, [
      el('div', { className: ['ds-update-meta'] }, meta),
      el('div', { className: ['ds-update-content'] }, input.children),
    ]),
  ];
};

export const updateComponents: Record<string, Component> = { Update };
