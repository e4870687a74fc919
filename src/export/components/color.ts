import type { ElementContent } from 'hast';
import type { Component, ComponentInput, PropValue } from '../render-context.ts';
import { colorProp, contentOf, el, stringProp } from './shared.ts';

/**
 * `<Color variant="compact|table">` with `<Color.Item name value>` swatches, grouped in
 * `<Color.Row title>` rows in the table variant. A value is a CSS color, or `{ light, dark }` for
 * one per theme; each swatch copies its value when clicked (components.js). Values are checked
 * as CSS colors before they become a style: anything else is refused with a warning.
 */

const Color: Component = (input) => {
  const variant = stringProp(input, 'variant') === 'table' ? 'table' : 'compact';
  return [el('div', { className: ['ds-color', `ds-color-${variant}`] }, contentOf(input.children))];
};

const ColorRow: Component = (input) => {
  const title = stringProp(input, 'title');
  return [
    el('div', { className: ['ds-color-row'] }, [
      ...(title ? [el('p', { className: ['ds-color-row-title'] }, [{ type: 'text', value: title }])] : []),
      el('div', { className: ['ds-color-row-items'] }, contentOf(input.children)),
    ]),
  ];
};

const ColorItem: Component = (input) => {
  const name = stringProp(input, 'name');
  const { light, dark } = themeColors(input, input.props.value);
  if (!light) return [];
  const shown = dark && dark !== light ? `${light} / ${dark}` : light;
  return [
    el(
      'button',
      {
        type: 'button',
        className: ['ds-color-item'],
        dataValue: shown,
        style: `--ds-swatch:${light}${dark ? `;--ds-swatch-dark:${dark}` : ''}`,
      },
      [
        el('span', { className: ['ds-color-swatch'], ariaHidden: 'true' }, []),
        ...(name ? [el('span', { className: ['ds-color-name'] }, [{ type: 'text', value: name }])] : []),
        el('code', { className: ['ds-color-value'] }, [{ type: 'text', value: shown }]),
      ] as ElementContent[],
    ),
  ];
};

/** A value as light and dark CSS colors, each checked like any color prop. */
function themeColors(input: ComponentInput, value: PropValue | undefined): { light?: string; dark?: string } {
  const check = (color: PropValue | undefined, which: string) =>
    typeof color === 'string' ? colorProp({ ...input, props: { [which]: color } }, which) : undefined;
  if (value && typeof value === 'object' && !Array.isArray(value))
    return { light: check(value.light, 'value.light'), dark: check(value.dark, 'value.dark') };
  const light = check(value ?? undefined, 'value');
  if (!light && value === undefined) input.ctx.warn('<Color.Item> has no value');
  return { light };
}

export const colorComponents: Record<string, Component> = {
  Color,
  'Color.Row': ColorRow,
  'Color.Item': ColorItem,
};
