import type { ElementContent } from 'hast';
import type { Component } from '../render-context.ts';
import { iconElement } from './icons.ts';
import { boolProp, componentIds, el, iconFromProps, stringProp } from './shared.ts';

/**
 * Accordion and Expandable are native `<details>`/`<summary>`: keyboard-operable, announced as expandable, and
 * working without JavaScript. components.js only opens them when a link targets something inside.
 */

function chevron(): ElementContent {
  return el('span', { className: ['ds-chevron'], ariaHidden: 'true' }, [
    iconElement('chevron-right', { library: 'lucide' }) ?? { type: 'text', value: '›' },
  ]);
}

/** `<Accordion title description defaultOpen icon>`. */
const Accordion: Component = (input) => {
  const title = stringProp(input, 'title');
  if (!title) input.ctx.warn('<Accordion> has no title');
  const description = stringProp(input, 'description');
  const icon = iconFromProps(input, { className: 'ds-accordion-icon' });
  return [
    el(
      'details',
      {
        className: ['ds-accordion'],
        id: stringProp(input, 'id') || componentIds(input.ctx).accordion(title ?? ''),
        open: boolProp(input, 'defaultOpen'),
      },
      [
        el('summary', { className: ['ds-accordion-summary'] }, [
          chevron(),
          ...(icon ? [icon] : []),
          el('span', { className: ['ds-accordion-heading'] }, [
            el(
              'span',
              { className: ['ds-accordion-title'] },
              input.markupProps?.title ?? [{ type: 'text', value: title ?? 'Details' }],
            ),
            ...(description
              ? [
                  el('span', { className: ['ds-accordion-description'] }, [
                    { type: 'text', value: description },
                  ]),
                ]
              : []),
          ]),
        ]),
        el('div', { className: ['ds-accordion-content'] }, input.children),
      ],
    ),
  ];
};

const AccordionGroup: Component = (input) => [
  el('div', { className: ['ds-accordion-group'] }, input.children),
];

/** `<Expandable title defaultOpen>`: nested fields of a ParamField/ResponseField, "Show/Hide properties". */
const Expandable: Component = (input) => {
  const title = stringProp(input, 'title') ?? 'properties';
  return [
    el('details', { className: ['ds-expandable'], open: boolProp(input, 'defaultOpen') }, [
      el('summary', { className: ['ds-expandable-summary'] }, [
        chevron(),
        // Both words are in the markup; CSS shows the one matching the open state (display:none hides the
        // other from screen readers too).
        el('span', { className: ['ds-expandable-show'] }, [{ type: 'text', value: 'Show ' }]),
        el('span', { className: ['ds-expandable-hide'] }, [{ type: 'text', value: 'Hide ' }]),
        { type: 'text', value: title },
      ]),
      el('div', { className: ['ds-expandable-content'] }, input.children),
    ]),
  ];
};

export const disclosureComponents: Record<string, Component> = { Accordion, AccordionGroup, Expandable };
