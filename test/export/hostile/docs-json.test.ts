import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Element } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { visit } from 'unist-util-visit';
import { describe, expect, it } from 'vitest';
import { exportSite } from '../../../src/export/pipeline.ts';
import { docsRepo, page, tempDir } from '../fixtures.ts';

/**
 * docs.json is tenant content too: every setting that reaches a page (variables, banner, fonts,
 * background, meta tags, navigation labels and icons) is held to the same policies as pages.
 */
describe('hostile docs.json settings', () => {
  it('cannot put script, script URLs or CSS escapes into exported pages', async () => {
    const source = docsRepo({
      'docs.json': {
        name: 'Hostile',
        variables: {
          evil: '<img src="x" onError="alert(1)" /> [x](javascript:alert(2))',
          brace: '{alert(3)}',
        },
        banner: { content: '[click](javascript:alert(4)) <script>alert(5)</script>' },
        fonts: {
          family: 'X"}body{background:url(https://evil.example/f)}/*',
          source: '/fonts/x.woff2',
          format: 'woff2',
        },
        background: { image: 'javascript:alert(6)' },
        seo: { metatags: { 'x"><script>alert(7)</script>': 'y"><script>alert(8)</script>' } },
        navbar: { links: [{ label: 'L', href: 'https://ok.example', icon: 'javascript:alert(9)' }] },
        navigation: {
          languages: [
            {
              language: 'en',
              tabs: [{ tab: '<script>alert(10)</script>', icon: 'javascript:alert(11)', pages: ['index'] }],
            },
          ],
        },
      },
      'index.mdx': page('Home', 'Value: {{evil}} and {{brace}}'),
      'fonts/x.woff2': 'x',
    });
    const outDir = join(tempDir(), 'site');
    const result = await exportSite({ source, outDir, options: { deployment: 'air-gapped' }, workers: 1 });
    const html = readFileSync(join(outDir, 'index.html'), 'utf8');
    const css = readFileSync(join(outDir, '_docsnap/site.css'), 'utf8');
    // Parsed as a browser parses it: no script of the tenant's, no event handler, no script URL.
    const tree = fromHtml(html);
    const found: string[] = [];
    visit(tree, 'element', (node: Element) => {
      const text = node.children.map((child) => ('value' in child ? child.value : '')).join('');
      if (node.tagName === 'script' && text.includes('alert')) found.push('inline script');
      for (const [name, value] of Object.entries(node.properties)) {
        if (/^on/i.test(name)) found.push(`${node.tagName} ${name}`);
        if (typeof value === 'string' && /^\s*javascript:/i.test(value))
          found.push(`${node.tagName} ${name}=${value}`);
      }
    });
    expect(found).toEqual([]);
    expect(css).not.toMatch(/javascript:|"\}body\{/);
    // The font family stays one CSS string: its quote and braces are escaped.
    expect(css).toContain('font-family:"X\\22 }body{background:url(https://evil');
    expect(css.split('@font-face').length).toBe(2);
    expect(result.warnings.map((w) => w.message)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/refused URL "javascript:alert\(6\)" in background\.image/),
      ]),
    );
  });
});
