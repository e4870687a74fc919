import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { componentAssets, knownComponents, renderComponent } from '../../../src/export/components/index.ts';
import type { PropValue } from '../../../src/export/render-context.ts';
import { codeBlock, fakeContext, paragraph, render, text } from './fake-context.ts';

const REQUIRED = [
  'Note',
  'Tip',
  'Info',
  'Warning',
  'Check',
  'Danger',
  'Callout',
  'Card',
  'CardGroup',
  'Columns',
  'Tabs',
  'Tab',
  'CodeGroup',
  'Steps',
  'Step',
  'Accordion',
  'AccordionGroup',
  'Expandable',
  'Frame',
  'Icon',
  'Tooltip',
  'Badge',
  'Update',
  'ParamField',
  'ResponseField',
  'RequestExample',
  'ResponseExample',
  'Visibility',
  'Tree',
  'Tree.Folder',
  'Tree.File',
];

describe('component registry', () => {
  it('knows every component of the format', () => {
    for (const name of REQUIRED) expect(knownComponents.has(name), name).toBe(true);
  });

  it('renders an unknown component as its content in a marked wrapper, with a warning', () => {
    const { html, ctx } = render('Inbox', { appId: 'x' }, [paragraph('inside')]);
    expect(html).toBe('<div class="ds-unknown" data-component="Inbox"><p>inside</p></div>');
    expect(ctx.warnings).toEqual(['unknown component <Inbox>: rendered its content only']);
  });

  it('uses a span for an unknown component inside a paragraph', () => {
    const { html, ctx } = render('RadixPopover.Trigger', {}, [text('open')], { inline: true });
    expect(html).toBe('<span class="ds-unknown" data-component="RadixPopover.Trigger">open</span>');
    expect(ctx.warnings).toEqual(['unknown component <RadixPopover.Trigger>: rendered its content only']);
  });

  it('never throws, whatever the props', () => {
    const odd: Record<string, PropValue> = {
      title: { a: 1 },
      icon: 7,
      cols: 'many',
      href: ['x'],
      color: 'url(https://evil.test/x)',
      size: 'huge',
      defaultOpen: 'sometimes',
      tags: 5,
      pre: { x: null },
      for: null,
      stepNumber: -3,
      default: { nested: [1, 'two'] },
      img: 42,
    };
    const children = [paragraph('content'), codeBlock('x', 'js'), text('\n')];
    for (const name of knownComponents) {
      for (const inline of [false, true]) {
        const ctx = fakeContext({ deployment: 'air-gapped' });
        expect(() => renderComponent({ name, props: odd, children, inline, ctx }), name).not.toThrow();
        expect(() => renderComponent({ name, props: {}, children: [], inline, ctx }), name).not.toThrow();
      }
    }
  });

  it('points at stylesheet and script files that exist', () => {
    expect(componentAssets.css).toHaveLength(1);
    expect(componentAssets.js).toHaveLength(1);
    for (const url of [...componentAssets.css, ...componentAssets.js]) {
      expect(url.protocol).toBe('file:');
      expect(existsSync(fileURLToPath(url)), url.href).toBe(true);
    }
    expect(componentAssets.css[0]?.pathname).toMatch(/components\/assets\/components\.css$/);
    expect(componentAssets.js[0]?.pathname).toMatch(/components\/assets\/components\.js$/);
  });
});
