import { diagramBlock, diagramSettings } from '../diagrams/mermaid.ts';
import { typeset } from '../markdown/math.ts';
import type { Component } from '../render-context.ts';
import { blockTag, el, stringProp, textContent } from './shared.ts';

/** `<Visibility for="humans">` shows its content on the page; `for="agents"` content is for the Markdown copy only. */
const Visibility: Component = (input) => {
  const audience = stringProp(input, 'for');
  if (audience === 'agents') return [];
  if (audience !== 'humans') {
    input.ctx.warn(`<Visibility> for="${audience ?? ''}" is neither humans nor agents: its content is shown`);
  }
  return input.children;
};

/** `<Mermaid chart="…">`: a diagram like a ```` ```mermaid ```` fence, with the same settings. */
const Mermaid: Component = (input) => {
  const chart = stringProp(input, 'chart');
  if (!chart) return input.children;
  return [
    diagramBlock(
      chart,
      diagramSettings(
        stringProp(input, 'placement'),
        typeof input.props.actions === 'boolean' ? input.props.actions : undefined,
      ),
    ),
  ];
};

/** `<Panel>`: content for the side column; the layout puts a top-level one where the table of contents would be. */
const Panel: Component = (input) => [
  el(blockTag(input, 'aside'), { className: ['ds-panel'] }, input.children),
];

/** `<Latex>`: its text typeset with KaTeX, like `$…$` (inline) and `$$…$$` (on its own). */
const Latex: Component = (input) => [
  typeset(input.children.map(textContent).join('').trim(), !input.inline, input.ctx.warn),
];

/**
 * `<Banner>`: a strip of highlighted text in the page, like the site's docs.json banner (info,
 * warning or critical by `type`), its content as written.
 */
const Banner: Component = (input) => {
  const type = stringProp(input, 'type') ?? 'info';
  const known = ['info', 'warning', 'critical'].includes(type);
  if (!known) input.ctx.warn(`<Banner> type="${type}" is not info, warning or critical: info is used`);
  return [
    el(
      blockTag(input, 'div'),
      { className: ['ds-inline-banner', `ds-inline-banner-${known ? type : 'info'}`], role: 'note' },
      input.children,
    ),
  ];
};

/** `<MDX>`: Markdown kept as Markdown inside an expression (conditionals.ts picks the branch); its content as is. */
const MDX: Component = (input) => input.children;

export const miscComponents: Record<string, Component> = { Visibility, Mermaid, Panel, Latex, MDX, Banner };
