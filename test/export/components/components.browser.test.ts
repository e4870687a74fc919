import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Element, ElementContent } from 'hast';
import { toHtml } from 'hast-util-to-html';
import { h } from 'hastscript';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { componentAssets } from '../../../src/export/components/index.ts';
import type { ComponentProps } from '../../../src/export/render-context.ts';
import { codeBlock, fakeContext, paragraph, render } from './fake-context.ts';

// components.js in a real browser, from file:// as an exported site is often opened. Debian's chromium.
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const ctx = fakeContext();
const one = (name: string, props: ComponentProps, children: ElementContent[] = []) =>
  render(name, props, children, { ctx }).nodes[0] as Element;

function page(): string {
  const body: ElementContent[] = [
    one('Tabs', {}, [
      one('Tab', { title: 'npm' }, [paragraph('npm panel')]),
      one('Tab', { title: 'yarn' }, [paragraph('yarn panel')]),
      one('Tab', { title: 'pnpm' }, [paragraph('pnpm panel'), h('p', { id: 'in-tab' }, 'deep in pnpm')]),
    ]),
    one('CodeGroup', {}, [
      codeBlock('npm i docsnap', 'bash', 'npm'),
      codeBlock('yarn add docsnap', 'bash', 'yarn'),
    ]),
    one('Accordion', { title: 'Closed' }, [h('p', { id: 'in-accordion' }, 'hidden answer')]),
    h('p', [
      one('Tooltip', { tip: 'Application Programming Interface' }, [{ type: 'text', value: 'API' }]),
      { type: 'text', value: ' docs ' },
      h('a', { href: '#after', id: 'after' }, 'after'),
    ]),
    h('div', { style: 'height:3000px' }),
  ];
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title>
<link rel="stylesheet" href="components.css"></head><body><main>${toHtml({ type: 'root', children: body })}</main>
<script src="components.js"></script></body></html>`;
}

describe('components.js in Chromium', () => {
  let browser: Browser;
  let dir: string;
  let url: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ds-components-'));
    copyFileSync(fileURLToPath(componentAssets.css[0] as URL), join(dir, 'components.css'));
    copyFileSync(fileURLToPath(componentAssets.js[0] as URL), join(dir, 'components.js'));
    writeFileSync(join(dir, 'page.html'), page());
    url = pathToFileURL(join(dir, 'page.html')).href;
    if (!existsSync(CHROMIUM))
      throw new Error(`${CHROMIUM} is missing: install Debian's chromium package (apt-get install chromium)`);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function open(hash = '', javaScriptEnabled = true): Promise<Page> {
    const context = await browser.newContext({ javaScriptEnabled });
    const p = await context.newPage();
    await p.goto(url + hash);
    return p;
  }

  /** "label:aria-selected:tabindex" of each tab of the n-th tab widget. */
  const selected = (p: Page, group: number) =>
    p.evaluate(
      (index) =>
        Array.from(
          document.querySelectorAll('.ds-tab-group')[index]?.querySelectorAll('[role="tab"]') ?? [],
        ).map((t) => `${t.textContent}:${t.getAttribute('aria-selected')}:${t.getAttribute('tabindex')}`),
      group,
    );

  it('shows the first panel without JavaScript', async () => {
    const p = await open('', false);
    expect(await p.isVisible('text=npm panel')).toBe(true);
    expect(await p.isVisible('text=yarn panel')).toBe(false);
    // Native details still opens by mouse.
    await p.click('summary:has-text("Closed")');
    expect(await p.isVisible('text=hidden answer')).toBe(true);
    await p.context().close();
  });

  it('switches tabs by click and syncs tabs of the same label', async () => {
    const p = await open();
    await p.click('[role="tab"]:has-text("yarn") >> nth=0');
    expect(await p.isVisible('text=yarn panel')).toBe(true);
    expect(await p.isVisible('text=npm panel')).toBe(false);
    expect(await selected(p, 0)).toEqual(['npm:false:-1', 'yarn:true:0', 'pnpm:false:-1']);
    expect(await selected(p, 1)).toEqual(['npm:false:-1', 'yarn:true:0']);
    expect(await p.isVisible('text=yarn add docsnap')).toBe(true);
    await p.context().close();
  });

  it('moves between tabs with arrow keys, Home and End, with roving focus', async () => {
    const p = await open();
    await p.focus('[role="tab"] >> nth=0');
    await p.keyboard.press('ArrowRight');
    expect(await selected(p, 0)).toEqual(['npm:false:-1', 'yarn:true:0', 'pnpm:false:-1']);
    expect(await p.evaluate(() => document.activeElement?.textContent)).toBe('yarn');
    await p.keyboard.press('End');
    expect(await selected(p, 0)).toEqual(['npm:false:-1', 'yarn:false:-1', 'pnpm:true:0']);
    await p.keyboard.press('ArrowRight');
    expect(await p.evaluate(() => document.activeElement?.textContent)).toBe('npm');
    await p.keyboard.press('ArrowLeft');
    expect(await p.evaluate(() => document.activeElement?.textContent)).toBe('pnpm');
    await p.keyboard.press('Home');
    expect(await selected(p, 0)).toEqual(['npm:true:0', 'yarn:false:-1', 'pnpm:false:-1']);
    // Tab leaves the tablist for the panel: only the selected tab is in the tab order.
    await p.keyboard.press('Tab');
    expect(await p.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('tabpanel');
    await p.context().close();
  });

  it('opens the accordion or tab a link points into', async () => {
    const p = await open('#in-accordion');
    expect(await p.isVisible('text=hidden answer')).toBe(true);
    await p.evaluate(() => {
      location.hash = '#in-tab';
    });
    await expect.poll(() => p.isVisible('text=deep in pnpm')).toBe(true);
    expect(await selected(p, 0)).toEqual(['npm:false:-1', 'yarn:false:-1', 'pnpm:true:0']);
    await p.context().close();
  });

  it('adds a copy button to every code block that copies the code', async () => {
    const p = await open();
    await p.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    expect(await p.locator('.ds-code > button.ds-copy').count()).toBe(2);
    await p.hover('.ds-code >> nth=0');
    await p.click('.ds-code >> nth=0 >> button.ds-copy');
    await expect.poll(() => p.textContent('.ds-code >> nth=0 >> button.ds-copy')).toBe('Copied');
    expect(await p.evaluate(() => navigator.clipboard.readText())).toBe('npm i docsnap');
    await p.context().close();
  });

  it('shows a tooltip on focus and hides it on Escape', async () => {
    const p = await open();
    const bubble = p.locator('[role="tooltip"]');
    expect(await bubble.isVisible()).toBe(false);
    await p.focus('.ds-tooltip-trigger');
    expect(await bubble.isVisible()).toBe(true);
    expect(await p.getAttribute('.ds-tooltip-trigger', 'aria-describedby')).toBe(
      await bubble.getAttribute('id'),
    );
    await p.keyboard.press('Escape');
    expect(await bubble.isVisible()).toBe(false);
    await p.keyboard.press('Tab');
    await p.keyboard.press('Shift+Tab');
    expect(await bubble.isVisible()).toBe(true);
    await p.context().close();
  });
});
