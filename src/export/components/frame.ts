import { inlineMarkdown } from '../markdown/inline-markdown.ts';
import type { Component } from '../render-context.ts';
import { blockTag, el, linkHref, stringProp } from './shared.ts';

/** `<Frame caption hint>`: a bordered figure around an image or embed, the caption (inline Markdown) as `<figcaption>`. */
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
            el(
              blockTag(input, 'figcaption'),
              { className: ['ds-frame-caption'] },
              inlineMarkdown(caption, (href) => linkHref(input, href)),
            ),
          ]
        : []),
    ]),
  ];
};

export const frameComponents: Record<string, Component> = { Frame };
