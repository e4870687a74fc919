import type { Component } from '../render-context.ts';
import { blockTag, el } from './shared.ts';

/**
 * `<Variation is="cloud">` (or `is={["cloud", "self-hosted"]}`): content for some of the
 * variations docs.json's `variations.options` lists. Every variation's content is in the page;
 * the default's (the first option) shows without script, and components.js adds the chooser,
 * remembers the choice and reads `?variation=<id>`. Without `variations` in docs.json the content
 * is not shown, as on the platform.
 */
const Variation: Component = (input) => {
  const options = input.ctx.variations ?? [];
  if (options.length === 0) {
    input.ctx.warn('<Variation> needs variations.options in docs.json: its content is not shown');
    return [];
  }
  const given = input.props.is;
  const ids = (Array.isArray(given) ? given : [given]).filter((id): id is string => typeof id === 'string');
  const known = ids.filter((id) => options.some((option) => option.id === id));
  for (const id of ids)
    if (!known.includes(id)) input.ctx.warn(`<Variation> is="${id}" names no option of variations.options`);
  if (known.length === 0) return [];
  const shown = known.includes(options[0]?.id ?? '');
  return [
    el(
      blockTag(input, 'div'),
      {
        className: ['ds-variation'],
        dataVariation: known.join(' '),
        // The chooser's options travel with each block: the page needs no other data.
        dataVariationOptions: JSON.stringify(options),
        ...(shown ? {} : { hidden: true }),
      },
      input.children,
    ),
  ];
};

export const variationComponents: Record<string, Component> = { Variation };
