import type { Element, ElementContent } from 'hast';
import type { Component, ComponentInput } from '../render-context.ts';
import { attribute, el, hasClass, iconFromProps, intProp, itemsOf, stringProp } from './shared.ts';

/**
 * `<Steps>` is an ordered list; each `<Step>` an item with a marker (its number or icon), a title and content.
 * Titles are paragraphs unless `titleSize` asks for h2/h3, so steps do not break the page's heading order.
 */

const TITLE_SIZES = new Set(['p', 'h2', 'h3']);
const stepRange = { min: 0, max: 100000, fallback: 1 };

function titleSize(input: ComponentInput): string | undefined {
  const size = stringProp(input, 'titleSize');
  if (size === undefined) return undefined;
  if (TITLE_SIZES.has(size)) return size;
  input.ctx.warn(`<${input.name}> titleSize="${size}" is not p, h2 or h3: using p`);
  return 'p';
}

/**
 * A Step renders as a `div` because it cannot know whether a `<Steps>` holds it; `<Steps>` turns it into an
 * `<li>` and fills in the number, so a stray Step still makes valid HTML.
 */
const Step: Component = (input) => {
  const title = stringProp(input, 'title');
  const size = titleSize(input);
  const number = input.props.stepNumber === undefined ? undefined : intProp(input, 'stepNumber', stepRange);
  const icon = iconFromProps(input, { className: 'ds-step-icon' });
  return [
    el(
      'div',
      {
        className: ['ds-step'],
        ...(number !== undefined ? { dataDsNumber: String(number) } : {}),
        ...(size ? { dataDsTitleSize: size } : {}),
      },
      [
        el('span', { className: ['ds-step-marker'], ariaHidden: 'true' }, icon ? [icon] : []),
        el('div', { className: ['ds-step-body'] }, [
          ...(title
            ? [el(size ?? 'p', { className: ['ds-step-title'] }, [{ type: 'text', value: title }])]
            : []),
          el('div', { className: ['ds-step-content'] }, input.children),
        ]),
      ],
    ),
  ];
};

const Steps: Component = (input) => {
  const size = titleSize(input);
  let next = 1;
  const items = itemsOf(input.children, 'ds-step').map((child): Element => {
    if (!hasClass(child, 'ds-step')) return el('li', { className: ['ds-step-extra'] }, [child]);
    const explicit = attribute(child, 'dataDsNumber', 'data-ds-number');
    const number = explicit === undefined ? next : Number(explicit);
    next = number + 1;
    const [marker, body] = child.children;
    if (hasClass(marker, 'ds-step-marker') && marker.children.length === 0) {
      marker.children = [{ type: 'text', value: String(number) }];
    }
    // A Steps-wide titleSize applies to the steps that did not choose their own.
    if (
      size &&
      size !== 'p' &&
      child.properties.dataDsTitleSize === undefined &&
      hasClass(body, 'ds-step-body')
    ) {
      const heading = body.children[0];
      if (hasClass(heading, 'ds-step-title')) heading.tagName = size;
    }
    const { dataDsNumber: _number, dataDsTitleSize: _size, ...properties } = child.properties;
    return {
      ...child,
      tagName: 'li',
      properties: { ...properties, ...(explicit !== undefined ? { value: String(number) } : {}) },
    };
  });
  if (items.length === 0) input.ctx.warn('<Steps> has no <Step> inside');
  return [el('ol', { className: ['ds-steps'] }, items satisfies ElementContent[])];
};

export const stepComponents: Record<string, Component> = { Steps, Step };
