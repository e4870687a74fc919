import { describe, expect, it } from 'vitest';
import { exportedForBrowser } from '../compatibility/harness.ts';
import { page } from '../fixtures.ts';

/** LaTeX typeset at build time with KaTeX: its stylesheet and fonts shipped, only to pages with math. */

const files = {
  'docs.json': { name: 'Math', navigation: { groups: [{ group: 'G', pages: ['index', 'plain', 'none'] }] } },
  'index.mdx': page(
    'Home',
    'Inline $E = mc^2$ here.\n\n$$\n\\frac{a}{b} = \\sqrt{x^2 + 1}\n$$\n\nBroken $\\frac{a$ and unsafe $\\href{javascript:alert(1)}{x}$ and <Latex>x^2</Latex>.',
  ),
  'plain.md': page('Plain', 'Inline $x^2$ in Markdown.\n\n$$\n\\int_0^1 x\\,dx\n$$'),
  'none.mdx': page('None', 'No math here.'),
};

const fixture = exportedForBrowser(files, { deployment: 'air-gapped' });

describe('math', () => {
  it('$…$, $$…$$ and <Latex> typeset at build time, in MDX and Markdown pages', () => {
    const html = fixture.site.file('index.html');
    expect(html).toMatch(/<span class="ds-math ds-math-inline"><span class="katex">/);
    expect(html).toMatch(/<div class="ds-math ds-math-display"><span class="katex-display">/);
    expect(html).toContain('<math xmlns="http://www.w3.org/1998/Math/MathML"');
    expect(fixture.site.file('plain.html')).toMatch(
      /Inline <span class="ds-math ds-math-inline"><span class="katex">/,
    );
  });

  it('TeX that KaTeX refuses or cannot read is shown as its source, with a warning and its line', () => {
    const html = fixture.site.file('index.html');
    expect(html).not.toMatch(/href="javascript/);
    expect(html).toContain('<code class="ds-math-source">\\frac{a</code>');
    expect(
      fixture.site.result.warnings
        .filter((w) => w.message.startsWith('math'))
        .map((w) => [w.file, w.line, w.message.slice(0, 40)]),
    ).toEqual([
      ['index.mdx', 11, 'math not typeset (Unexpected end of inpu'],
      ['index.mdx', 11, 'math uses \\href, which a docs site does '],
    ]);
  });

  it('KaTeX’s stylesheet and fonts go only to pages with math, and load from the site itself', async () => {
    expect(fixture.site.file('none.html')).not.toContain('katex');
    const tab = await fixture.browser.newPage();
    const requests: string[] = [];
    const failed: string[] = [];
    tab.on('request', (request) => requests.push(request.url()));
    tab.on('response', (response) => {
      if (response.status() >= 400) failed.push(response.url());
    });
    await tab.goto(`${fixture.base}index.html`);
    await tab.evaluate(() => document.fonts.ready);
    const fonts = await tab.evaluate(() =>
      [...document.fonts].filter((f) => f.status === 'loaded').map((f) => f.family),
    );
    expect(fonts).toEqual(expect.arrayContaining(['KaTeX_Main']));
    expect(failed).toEqual([]);
    expect(requests.every((url) => url.startsWith(fixture.base))).toBe(true);
    await tab.close();
  });
});
