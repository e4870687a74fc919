import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { exportedForBrowser } from './harness.ts';
import { switcherSite } from './sites.ts';

/**
 * A reader of a site in two languages and two versions, each with two tabs, in headless
 * Chromium: switching language or version keeps them on the same page, tabs lead to the tab, and
 * search finds pages of the reader's language only.
 */

const fixture = exportedForBrowser(switcherSite());

const heading = (tab: Page) => tab.locator('h1').textContent();

async function choose(tab: Page, kind: 'language' | 'version', option: string): Promise<void> {
  const switcher = tab.locator(`.ds-switcher-${kind}`);
  await switcher.locator('summary').click();
  await switcher.getByRole('link', { name: option, exact: true }).click();
  await tab.waitForLoadState();
}

describe('switchers in a browser', () => {
  it('the export of languages × versions × tabs has no broken link', () => {
    expect(fixture.site.warnings).toEqual([]);
    expect(fixture.site.result.pageCount).toBe(12);
  });

  it('switches language and version on a page and lands on the same page, and tabs within them', async () => {
    const tab = await fixture.browser.newPage();
    await tab.goto(`${fixture.base}quickstart.html`);
    expect(await heading(tab)).toBe('quickstart en v2');
    await choose(tab, 'language', 'Français');
    expect(await heading(tab)).toBe('quickstart fr v2');
    expect(await tab.locator('html').getAttribute('lang')).toBe('fr');
    await choose(tab, 'version', 'v1');
    expect(await heading(tab)).toBe('quickstart fr v1');
    expect(tab.url()).toMatch(/\/docs\/fr\/v1\/quickstart\.html$/);
    await tab.locator('.ds-tabs').getByRole('link', { name: 'Reference' }).click();
    await tab.waitForLoadState();
    expect(await heading(tab)).toBe('reference/cli fr v1');
    await choose(tab, 'language', 'English');
    expect(await heading(tab)).toBe('reference/cli en v1');
    await tab.close();
  });

  it('searches in the reader’s language only', async () => {
    const tab = await fixture.browser.newPage();
    for (const [path, word, expected, other] of [
      ['fr/quickstart.html', 'parapluie', /fr/, /\ben\b/],
      ['quickstart.html', 'umbrella', /en/, /\bfr\b/],
    ] as const) {
      await tab.goto(`${fixture.base}${path}`);
      await tab.locator('.ds-search-trigger').click();
      const dialog = tab.getByRole('dialog');
      await dialog.locator('input').fill(word);
      const options = dialog.getByRole('option');
      await expect.poll(() => options.count(), { timeout: 10_000 }).toBeGreaterThan(0);
      const titles = await options.allTextContents();
      expect(
        titles.every((title) => expected.test(title) && !other.test(title)),
        titles.join(' | '),
      ).toBe(true);
      // The other language's word finds nothing here.
      await dialog.locator('input').fill(word === 'parapluie' ? 'umbrella' : 'parapluie');
      await expect
        .poll(() => dialog.locator('[role="status"], .ds-search-status').first().textContent())
        .toMatch(/“/);
      expect(await options.count()).toBe(0);
    }
    await tab.close();
  });
});
