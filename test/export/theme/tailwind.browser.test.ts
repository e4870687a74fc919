import { describe, expect, it } from 'vitest';
import { exportedForBrowser, exportFixture, PNG_PIXEL } from '../compatibility/harness.ts';
import { page } from '../fixtures.ts';

/** Tailwind classes in authored MDX and Markdown, styled by CSS generated for exactly those classes. */

const fixture = exportedForBrowser({
  'docs.json': { name: 'Tailwind', navigation: { groups: [{ group: 'G', pages: ['index', 'plain'] }] } },
  'index.mdx': page(
    'Home',
    [
      '<img className="dark:hidden" src="/images/light.png" alt="light logo" />',
      '<img className="hidden dark:block" src="/images/dark.png" alt="dark logo" />',
      '<div className="flex gap-[13px] rounded-xl md:flex-row" id="hero"><span>a</span><span>b</span></div>',
      '<div className="bg-[url(https://evil.example/x.png)]">x</div>',
    ].join('\n\n'),
  ),
  'plain.md': page('Plain', '<p class="text-right">right</p>'),
  'images/light.png': PNG_PIXEL,
  'images/dark.png': PNG_PIXEL,
});

describe('Tailwind classes', () => {
  it('className and class: Tailwind utilities, dark: variants following the theme switch', async () => {
    const tab = await fixture.browser.newPage();
    await tab.goto(`${fixture.base}index.html`);
    const shown = async () =>
      tab.evaluate(() =>
        [...document.querySelectorAll('.ds-content img')]
          .filter((img) => getComputedStyle(img).display !== 'none')
          .map((img) => img.getAttribute('alt')),
      );
    await tab.evaluate(() => {
      document.documentElement.dataset.theme = 'light';
    });
    expect(await shown()).toEqual(['light logo']);
    await tab.evaluate(() => {
      document.documentElement.dataset.theme = 'dark';
    });
    expect(await shown()).toEqual(['dark logo']);
    const hero = await tab
      .locator('#hero')
      .evaluate((node) => [getComputedStyle(node).display, getComputedStyle(node).columnGap]);
    expect(hero).toEqual(['flex', '13px']);
    await tab.goto(`${fixture.base}plain.html`);
    expect(
      await tab
        .locator('.ds-content p', { hasText: 'right' })
        .evaluate((node) => getComputedStyle(node).textAlign),
    ).toBe('right');
    await tab.close();
  });

  it('the CSS is generated for the classes the pages use only, through the stylesheet policy', () => {
    const css = fixture.site.file('_docsnap/site.css');
    expect(css).toContain('.ds-article .dark\\:hidden:where([data-theme=dark], [data-theme=dark] *)');
    expect(css).not.toContain('.ds-article .grid-cols-3'); // not used by any page
    // Connected export: a URL in an arbitrary value is allowed like in a stylesheet; an air-gapped one would drop it.
    expect(css).toContain('https://evil.example/x.png');
  });

  it('in an air-gapped export, an arbitrary value that loads from elsewhere is removed, with a note', async () => {
    const airGapped = await exportFixture(
      {
        'docs.json': { name: 'T', navigation: { groups: [{ group: 'G', pages: ['index'] }] } },
        'index.mdx': page('Home', '<div className="bg-[url(https://evil.example/x.png)] p-4">x</div>'),
      },
      { deployment: 'air-gapped' },
    );
    const css = airGapped.file('_docsnap/site.css');
    expect(css).not.toContain('evil.example/x.png)');
    expect(css).toContain('.ds-article .p-4');
    expect(airGapped.warnings).toEqual([
      expect.stringMatching(
        /^docs\.json: Tailwind classes: line \d+: background-image removed: .*another origin/,
      ),
    ]);
  });
});
