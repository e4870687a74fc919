import { describe, expect, it } from 'vitest';
import { exportedForBrowser, PNG_PIXEL } from '../compatibility/harness.ts';
import { page } from '../fixtures.ts';

/** The interactive parts of the components issue 16 added, in headless Chromium. */

const fixture = exportedForBrowser({
  'docs.json': { name: 'Show', navigation: { groups: [{ group: 'G', pages: ['index'] }] } },
  'index.mdx': page(
    'Home',
    [
      '<View title="JavaScript">JS view text</View>',
      '<View title="Python">Python view text</View>',
      '<Prompt description="Try it">Summarize this page.</Prompt>',
      '<img src="/dot.png" alt="zoom me" />',
      '<img src="/dot.png" alt="fixed" noZoom />',
      `\`\`\`js long.js expandable\n${Array.from({ length: 60 }, (_, i) => `line(${i});`).join('\n')}\n\`\`\``,
    ].join('\n\n'),
  ),
  'dot.png': PNG_PIXEL,
});

describe('showcase components in a browser', () => {
  it('View: one switcher shows one view, and the choice is remembered on the next visit', async () => {
    const context = await fixture.browser.newContext();
    const tab = await context.newPage();
    await tab.goto(`${fixture.base}index.html`);
    const visible = () => tab.locator('.ds-view:visible').allTextContents();
    expect((await visible()).join()).toContain('JS view text');
    expect((await visible()).join()).not.toContain('Python view text');
    await tab.locator('select.ds-view-select').selectOption('Python');
    expect((await visible()).join()).toContain('Python view text');
    await tab.reload();
    expect((await visible()).join()).toContain('Python view text');
    await context.close();
  });

  it('Prompt copies its text; images zoom unless noZoom; expandable code expands', async () => {
    const context = await fixture.browser.newContext();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: new URL(fixture.base).origin,
    });
    const tab = await context.newPage();
    await tab.goto(`${fixture.base}index.html`);
    await tab.locator('.ds-prompt-copy').click();
    await expect.poll(() => tab.evaluate(() => navigator.clipboard.readText())).toBe('Summarize this page.');
    expect(await tab.locator('img[alt="fixed"]').getAttribute('class')).toBeNull();
    await tab.locator('img[alt="zoom me"]').click();
    await expect.poll(() => tab.locator('dialog.ds-zoom[open] img').count()).toBe(1);
    await tab.locator('dialog.ds-zoom').click();
    await expect.poll(() => tab.locator('dialog.ds-zoom').count()).toBe(0);
    const block = tab.locator('.ds-code-expandable');
    const before = await block.locator('pre').evaluate((pre) => pre.clientHeight);
    await block.locator('.ds-code-expand').click();
    const after = await block.locator('pre').evaluate((pre) => pre.clientHeight);
    expect(after).toBeGreaterThan(before);
    await context.close();
  });
});
