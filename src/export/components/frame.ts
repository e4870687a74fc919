import type { Component } from '../render-context.ts';
import { blockTag, el, stringProp } from './shared.ts';

/** `<Frame caption hint>`: a bordered figure around an image or embed, the caption as `<figcaption>`. */
const Frame: Component = (input) => {
  const caption = stringProp(input, 'caption');
  const hint = stringProp(input, 'hint');
  return [
    el(blockTag(input, 'figure'), { className: ['ds-frame'] }, [
      ...(hint
        ? [el(blockTag(input, 'p'), { className: ['ds-frame-hint'] }, [{ type: 'text', value: hint }])]
        : []),
      el(blockTag(input), { className: ['ds-frame-content'] }, input.children),
      ...(caption
        ? [
            el(blockTag(input, 'figcaption'), { className: ['ds-frame-caption'] }, [
              { type: 'text', value: caption },
            ]),
          ]
        : []),
    ]),
  ];
};

export const frameComponents: Record<string, Component> = { Frame };
