import type { Root } from 'hast';
import { h } from 'hastscript';
import { describe, expect, it } from 'vitest';
import { enforceUrlPolicy, isAllowedUrl, urlScheme } from '../../src/export/url-policy.ts';

describe('the URL policy', () => {
  it('reads a scheme as a browser does', () => {
    expect(urlScheme('JaVaScRiPt:alert(1)')).toBe('javascript');
    expect(urlScheme('java\tscript:alert(1)')).toBe('javascript');
    expect(urlScheme('\u0000 \njavascript:alert(1)')).toBe('javascript');
    expect(urlScheme('java%09script:alert(1)')).toBeUndefined(); // a relative path to a browser
    expect(urlScheme('/guide#install')).toBeUndefined();
    expect(urlScheme('#top')).toBeUndefined();
  });

  it.each([
    ['https://example.com/', 'link', true],
    ['http://example.com/', 'link', true],
    ['mailto:a@example.com', 'link', true],
    ['tel:+15555550100', 'link', true],
    ['../guide.html#x', 'link', true],
    ['//cdn.example.com/a', 'link', true],
    ['javascript:alert(1)', 'link', false],
    [' javascript:alert(1)', 'link', false],
    ['vbscript:msgbox(1)', 'link', false],
    ['data:text/html,<script>alert(1)</script>', 'link', false],
    ['data:image/png;base64,AAAA', 'link', false],
    ['file:///etc/passwd', 'link', false],
    ['blob:https://example.com/x', 'link', false],
    ['data:image/png;base64,AAAA', 'image', true],
    ['data:image/svg+xml,<svg/>', 'image', true],
    ['data:text/html,x', 'image', false],
    ['mailto:a@example.com', 'image', false],
    ['data:text/html,<script>alert(1)</script>', 'resource', false],
    ['data:image/png;base64,AAAA', 'resource', false],
    ['https://www.youtube.com/embed/x', 'resource', true],
  ] as const)('%s as a %s: %s', (url, use, allowed) => {
    expect(isAllowedUrl(url, use)).toBe(allowed);
  });

  it('removes refused URL attributes from any element, naming them and the line', () => {
    const link = h('a', { href: 'javascript:alert(1)' }, 'x');
    link.position = { start: { line: 7, column: 1 }, end: { line: 7, column: 9 } };
    const tree: Root = {
      type: 'root',
      children: [
        link,
        h('iframe', { src: 'data:text/html,<script>alert(1)</script>', title: 'frame' }),
        h('img', { src: 'a.png', srcSet: 'data:image/png;base64,AA,BB 1x, b.png 2x', alt: '' }),
        h('img', { src: 'a.png', srcSet: 'b.png 1x, javascript:alert(1) 2x', alt: '' }),
        h('a', { href: 'https://example.com/' }, 'fine'),
      ],
    };
    const warnings: string[] = [];
    enforceUrlPolicy(tree, (m) => warnings.push(m));
    const [a, iframe, dataImage, badSet, fine] = tree.children as ReturnType<typeof h>[];
    expect(a?.properties).toEqual({});
    expect(iframe?.properties).toEqual({ title: 'frame' });
    expect(dataImage?.properties.srcSet).toBe('data:image/png;base64,AA,BB 1x, b.png 2x');
    expect(badSet?.properties.srcSet).toBeUndefined();
    expect(fine?.properties.href).toBe('https://example.com/');
    expect(warnings).toEqual([
      'line 7: refused URL "javascript:alert(1)" in <a href>: only http, https, mailto, tel or relative links are allowed',
      'refused URL "data:text/html,<script>alert(1)</script>" in <iframe src>: only http, https or relative URLs are allowed',
      'refused URL "javascript:alert(1)" in <img srcSet>: only http, https, data:image or relative images are allowed',
    ]);
  });
});
