import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { exportedForBrowser } from '../compatibility/harness.ts';
import { page } from '../fixtures.ts';

/** The reference's interactive components in headless Chromium: Popup, Variation, Terminal, Graph. */

const fixture = exportedForBrowser({
  'docs.json': {
    name: 'Interactive',
    variations: {
      options: [
        { id: 'cloud', label: 'Cloud' },
        { id: 'self-hosted', label: 'Self-hosted' },
      ],
    },
    navigation: { groups: [{ group: 'G', pages: ['index', 'other'] }] },
  },
  'index.mdx': page(
    'Home',
    [
      'Some text, then an <Popup><PopupTrigger>API key</PopupTrigger><PopupContent>A secret **token**.</PopupContent></Popup> to open.',
      '',
      '<Variation is="cloud">',
      '  Cloud steps.',
      '</Variation>',
      '',
      '<Variation is={["self-hosted"]}>',
      '  Own servers.',
      '</Variation>',
      '',
      '<Terminal title="Setup" copyable={false}>',
      '$ npm install',
      '</Terminal>',
      '',
      '<Terminal>',
      '$ npm test',
      '</Terminal>',
      '',
      '<Graph type="area" xKey="d" yKey="v" stacked>',
      '  {[{ d: "1", v: 1 }, { d: "2", v: 4 }]}',
      '</Graph>',
    ].join('\n'),
  ),
  'other.mdx': page('Other', '<Variation is="self-hosted">Other page, own servers.</Variation>'),
});

describe('interactive reference components', () => {
  it('a Popup opens under its trigger on a click, without script of its own, and closes on Escape', async () => {
    const tab = await fixture.browser.newPage();
    await tab.goto(`${fixture.base}index.html`);
    expect(await tab.isVisible('.ds-popup-content')).toBe(false);
    await tab.click('.ds-popup-trigger');
    expect(await tab.isVisible('.ds-popup-content')).toBe(true);
    const [trigger, content] = await Promise.all(
      ['.ds-popup-trigger', '.ds-popup-content'].map((selector) =>
        tab.$eval(selector, (node) => node.getBoundingClientRect().toJSON()),
      ),
    );
    expect(content.top).toBeGreaterThanOrEqual(trigger.bottom);
    expect(content.top - trigger.bottom).toBeLessThan(20);
    await tab.keyboard.press('Escape');
    expect(await tab.isVisible('.ds-popup-content')).toBe(false);
    await tab.close();
  });

  it('Variation: the default shows, the chooser switches and is remembered, ?variation= picks one', async () => {
    const context = await fixture.browser.newContext();
    const tab = await context.newPage();
    await tab.goto(`${fixture.base}index.html`);
    const visible = () =>
      tab.$$eval('.ds-variation', (blocks) =>
        blocks.filter((b) => !(b as HTMLElement).hidden).map((b) => b.textContent?.trim()),
      );
    expect(await visible()).toEqual(['Cloud steps.']);
    await tab.selectOption('.ds-variation-select', 'self-hosted');
    expect(await visible()).toEqual(['Own servers.']);
    await tab.goto(`${fixture.base}other.html`);
    expect(await visible()).toEqual(['Other page, own servers.']);
    await tab.goto(`${fixture.base}index.html?variation=cloud`);
    expect(await visible()).toEqual(['Cloud steps.']);
    await context.close();
  });

  it('Terminal: copyable unless copyable={false}; Graph: drawn at its width, from file:// too', async () => {
    const tab = await fixture.browser.newPage();
    await tab.goto(pathToFileURL(`${fixture.site.outDir}/index.html`).href);
    expect(
      await tab.$$eval('.ds-terminal', (terminals) =>
        terminals.map((t) => t.querySelectorAll('.ds-copy').length),
      ),
    ).toEqual([0, 1]);
    const box = await tab.$eval('.ds-graph-svg', (svg) => svg.getBoundingClientRect().toJSON());
    expect(box.width).toBeGreaterThan(300);
    expect(await tab.$$eval('.ds-graph-svg polygon', (shapes) => shapes.length)).toBe(1);
    await tab.close();
  });
});
