import type { Element, ElementContent } from 'hast';
import { CODE_BLOCK_CLASS, type Component, type ComponentInput } from '../render-context.ts';
import {
  attribute,
  blockTag,
  boolProp,
  componentIds,
  contentOf,
  el,
  hasClass,
  iconFromProps,
  intProp,
  itemsOf,
  stringProp,
  textContent,
  widgetId,
} from './shared.ts';

/**
 * Tabs follow the WAI-ARIA tabs pattern: a tablist of buttons, one tabpanel each, the first (or chosen) panel
 * shown and the others `hidden`, so without JavaScript the page shows the first panel. components.js adds
 * selection, arrow keys, Home/End and syncing of tabs with the same label across the page.
 */

interface TabItem {
  label: ElementContent[];
  panel: ElementContent[];
}

/**
 * `<Tab title icon>`: rendered before its parent (children come first), so it renders as a titled section that
 * reads well on its own; `<Tabs>` turns that section into a tab and a panel.
 */
const Tab: Component = (input) => {
  // An untitled tab around one code block is labelled like a CodeGroup tab: by the block's title or language.
  const [first] = contentOf(input.children);
  const title =
    stringProp(input, 'title') ??
    (hasClass(first, CODE_BLOCK_CLASS) ? codeLabel(first, undefined) : undefined);
  if (!title) input.ctx.warn('<Tab> has no title');
  const icon = iconFromProps(input, { className: 'ds-tab-icon' });
  const label: ElementContent[] = [...(icon ? [icon] : []), { type: 'text', value: title ?? '' }];
  return [
    el(blockTag(input), { className: ['ds-tab'], dataDsTitle: title ?? '' }, [
      el(blockTag(input, 'p'), { className: ['ds-tab-title'] }, label),
      ...input.children,
    ]),
  ];
};

/** A code block's tab label: its title, else its language, else "Code n" (when a position is given). */
function codeLabel(block: Element, index: number): string;
function codeLabel(block: Element, index: undefined): string | undefined;
function codeLabel(block: Element, index: number | undefined): string | undefined {
  return (
    attribute(block, 'dataTitle', 'data-title') ??
    attribute(block, 'dataLanguage', 'data-language') ??
    (index === undefined ? undefined : `Code ${index + 1}`)
  );
}

function tabItems(input: ComponentInput): TabItem[] {
  return itemsOf(input.children, 'ds-tab').map((child, index): TabItem => {
    if (hasClass(child, 'ds-tab')) {
      const [first, ...rest] = child.children;
      const titled = hasClass(first, 'ds-tab-title');
      const label = titled ? first.children : [];
      const text = label.map(textContent).join('').trim();
      return {
        label: text ? label : [...label, { type: 'text', value: `Tab ${index + 1}` }],
        panel: titled ? rest : child.children,
      };
    }
    if (hasClass(child, CODE_BLOCK_CLASS)) {
      return { label: [{ type: 'text', value: codeLabel(child, index) }], panel: [child] };
    }
    input.ctx.warn(`<${input.name}> child ${index + 1} is not a <Tab>: shown as a tab of its own`);
    return { label: [{ type: 'text', value: `Tab ${index + 1}` }], panel: [child] };
  });
}

function tabWidget(
  input: ComponentInput,
  items: TabItem[],
  options: { className: string[]; selected: number; sync: boolean; label?: string; anchors?: boolean },
): Element {
  const base = widgetId(input.ctx, 'tabs');
  const buttons: Element[] = [];
  const panels: Element[] = [];
  items.forEach((item, index) => {
    const selected = index === options.selected;
    // Tabs of <Tabs> carry the platform's anchor ids (a link to one selects it); code tabs need none.
    const tabId = options.anchors
      ? componentIds(input.ctx).tab(item.label.map(textContent).join('').trim())
      : `${base}-tab-${index + 1}`;
    const panelId = `${base}-panel-${index + 1}`;
    buttons.push(
      el(
        'button',
        {
          type: 'button',
          role: 'tab',
          id: tabId,
          className: ['ds-tab-button'],
          ariaSelected: selected ? 'true' : 'false',
          ariaControls: [panelId],
          tabIndex: selected ? 0 : -1,
          dataDsKey: item.label.map(textContent).join('').trim().toLowerCase(),
        },
        item.label,
      ),
    );
    panels.push(
      el(
        'div',
        {
          role: 'tabpanel',
          id: panelId,
          className: ['ds-tabpanel'],
          ariaLabelledby: [tabId],
          tabIndex: 0,
          hidden: !selected,
        },
        item.panel,
      ),
    );
  });
  return el('div', { className: options.className, ...(options.sync ? { dataDsSync: '' } : {}) }, [
    el(
      'div',
      { role: 'tablist', className: ['ds-tablist'], ...(options.label ? { ariaLabel: options.label } : {}) },
      buttons,
    ),
    ...panels,
  ]);
}

const Tabs: Component = (input) => {
  const items = tabItems(input);
  if (items.length === 0) {
    input.ctx.warn('<Tabs> has no <Tab> inside');
    return [];
  }
  const selected = intProp(input, 'defaultTabIndex', { min: 0, max: items.length - 1, fallback: 0 });
  return [
    tabWidget(input, items, {
      className: ['ds-tab-group'],
      selected,
      sync: boolProp(input, 'sync', true),
      anchors: true,
    }),
  ];
};

/** Code blocks as tabs labelled by their title, else their language. */
function codeTabs(input: ComponentInput, className: string[], label: string): Element | undefined {
  const items = tabItems(input);
  if (items.length === 0) return undefined;
  return tabWidget(input, items, { className, selected: 0, sync: true, label });
}

const CodeGroup: Component = (input) => {
  // `dropdown` switches Mintlify's tab bar for a menu; the tab bar serves the same purpose here.
  const dropdown = boolProp(input, 'dropdown');
  const widget = codeTabs(
    input,
    ['ds-tab-group', 'ds-codegroup', ...(dropdown ? ['ds-codegroup-dropdown'] : [])],
    'Code',
  );
  if (!widget) input.ctx.warn('<CodeGroup> has no code blocks inside');
  return widget ? [widget] : [];
};

function example(kind: 'request' | 'response', heading: string): Component {
  return (input) => {
    const widget = codeTabs(input, ['ds-tab-group', 'ds-codegroup'], `${heading} example`);
    if (!widget) {
      input.ctx.warn(`<${input.name}> has no code blocks inside`);
      return [];
    }
    return [
      el('div', { className: ['ds-example', `ds-${kind}-example`] }, [
        el('p', { className: ['ds-example-heading'] }, [{ type: 'text', value: heading }]),
        widget,
      ]),
    ];
  };
}

export const tabComponents: Record<string, Component> = {
  Tabs,
  Tab,
  CodeGroup,
  RequestExample: example('request', 'Request'),
  ResponseExample: example('response', 'Response'),
};
