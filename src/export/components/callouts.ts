import type { ElementContent } from 'hast';
import type { Component, ComponentInput } from '../render-context.ts';
import { iconElement } from './icons.ts';
import { blockTag, colorProp, el, iconFromProps, stringProp } from './shared.ts';

/** The fixed callouts: label read by screen readers, and a built-in (Lucide) icon independent of the site's library. */
const KINDS = {
  Note: { label: 'Note', icon: 'circle-alert' },
  Tip: { label: 'Tip', icon: 'lightbulb' },
  Info: { label: 'Info', icon: 'info' },
  Warning: { label: 'Warning', icon: 'triangle-alert' },
  Check: { label: 'Check', icon: 'circle-check' },
  Danger: { label: 'Danger', icon: 'octagon-alert' },
} as const;

function callout(
  input: ComponentInput,
  kind: string,
  label: string | undefined,
  icon: ElementContent | undefined,
  color?: string,
) {
  const tag = blockTag(input);
  return [
    el(
      tag,
      {
        className: ['ds-callout', `ds-callout-${kind}`],
        role: 'note',
        ...(label ? { ariaLabel: label } : {}),
        ...(color ? { style: `--ds-callout-color:${color}` } : {}),
      },
      [
        ...(icon ? [el('span', { className: ['ds-callout-icon'] }, [icon])] : []),
        el(tag, { className: ['ds-callout-content'] }, input.children),
      ],
    ),
  ];
}

function fixed(name: keyof typeof KINDS): Component {
  const { label, icon } = KINDS[name];
  return (input) =>
    callout(
      input,
      name.toLowerCase(),
      label,
      iconFromProps(input) ?? iconElement(icon, { library: 'lucide', className: 'ds-callout-glyph' }),
    );
}

export const calloutComponents: Record<string, Component> = {
  Note: fixed('Note'),
  Tip: fixed('Tip'),
  Info: fixed('Info'),
  Warning: fixed('Warning'),
  Check: fixed('Check'),
  Danger: fixed('Danger'),
  /** `<Callout icon="key" color="#FFC107">`: a callout with the author's icon and accent color. */
  Callout: (input) => {
    const type = stringProp(input, 'type');
    const kind = Object.keys(KINDS).find((name) => name.toLowerCase() === type?.toLowerCase());
    if (kind) return fixed(kind as keyof typeof KINDS)(input);
    return callout(input, 'custom', undefined, iconFromProps(input), colorProp(input, 'color'));
  },
};
