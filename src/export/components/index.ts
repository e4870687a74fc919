import type { ElementContent } from 'hast';
import type { Component, ComponentInput } from '../render-context.ts';
import { calloutComponents } from './callouts.ts';
import { cardComponents } from './cards.ts';
import { colorComponents } from './color.ts';
import { disclosureComponents } from './disclosure.ts';
import { fieldComponents } from './fields.ts';
import { frameComponents } from './frame.ts';
import { graphComponents } from './graph.ts';
import { inlineComponents } from './inline.ts';
import { miscComponents } from './misc.ts';
import { popupComponents } from './popup.ts';
import { el } from './shared.ts';
import { showcaseComponents } from './showcase.ts';
import { stepComponents } from './steps.ts';
import { tabComponents } from './tabs.ts';
import { terminalComponents } from './terminal.ts';
import { timelineComponents } from './timeline.ts';
import { treeComponents } from './tree.ts';
import { updateComponents } from './update.ts';
import { variationComponents } from './variation.ts';

export { iconElement } from './icons.ts';
export { isIconImage } from './shared.ts';

/**
 * Mintlify's MDX components rendered at build time to static hast. Interactive ones (tabs, copy buttons,
 * tooltips' Escape key, opening an accordion a link points into) get a few KB of plain JavaScript from
 * assets/components.js; everything else is HTML and CSS.
 */

const registry = new Map<string, Component>(
  Object.entries({
    ...calloutComponents,
    ...cardComponents,
    ...tabComponents,
    ...stepComponents,
    ...disclosureComponents,
    ...frameComponents,
    ...inlineComponents,
    ...fieldComponents,
    ...updateComponents,
    ...treeComponents,
    ...miscComponents,
    ...showcaseComponents,
    ...colorComponents,
    ...popupComponents,
    ...timelineComponents,
    ...terminalComponents,
    ...graphComponents,
    ...variationComponents,
  }),
);

export const knownComponents: ReadonlySet<string> = new Set(registry.keys());

/** Renders one MDX component; an unknown one keeps its content in a marked wrapper and warns. Never throws. */
export function renderComponent(input: ComponentInput): ElementContent[] {
  const component = registry.get(input.name);
  if (component) {
    try {
      return component(input);
    } catch (error) {
      // A bug in one component must cost one component, not the page.
      input.ctx.warn(
        `component <${input.name}> failed (${error instanceof Error ? error.message : String(error)}): rendered its content only`,
      );
    }
  } else {
    input.ctx.warn(`unknown component <${input.name}>: rendered its content only`);
  }
  return [
    el(
      input.inline ? 'span' : 'div',
      { className: ['ds-unknown'], dataComponent: input.name },
      input.children,
    ),
  ];
}

/** Stylesheet and script of the components, concatenated by the theme into the site's single CSS and JS files. */
export const componentAssets: { css: URL[]; js: URL[] } = {
  css: [new URL('./assets/components.css', import.meta.url)],
  js: [new URL('./assets/components.js', import.meta.url)],
};
