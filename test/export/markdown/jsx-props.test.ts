import { describe, expect, it } from 'vitest';
import { exportFixture } from '../compatibility/harness.ts';
import { page } from '../fixtures.ts';

/** JSX as a prop's value renders as static markup, through the same policies as content. */
describe('JSX-valued props', () => {
  it('icon={<svg…>} and title={<>…</>} render as markup; script and handlers never do', async () => {
    const body = [
      '<Card title={<>Fast <code>sync</code></>} icon={<svg viewBox="0 0 24 24" strokeWidth={2} fill="none"><path d="M4 12h16" /><script>alert(1)</script></svg>}>Body</Card>',
      '<Accordion title={<span>Open <strong>me</strong></span>}>Inside</Accordion>',
      '<Card title="Img" icon={<img src="/logo.png" onError="alert(2)" />}>x</Card>',
    ].join('\n\n');
    const site = await exportFixture({
      'docs.json': { name: 'JSX', navigation: { groups: [{ group: 'G', pages: ['index'] }] } },
      'index.mdx': page('Home', body),
      'logo.png': 'png',
    });
    const html = site.file('index.html');
    expect(html).toMatch(
      /<span class="ds-icon ds-icon-markup[^"]*"><svg[^>]*viewBox="0 0 24 24"[^>]*stroke-width="2"[^>]*><path d="M4 12h16"/,
    );
    expect(html).toContain('Fast <code>sync</code>');
    expect(html).toContain('<span class="ds-accordion-title"><span>Open <strong>me</strong></span></span>');
    expect(html).toContain('<img src="logo.png">');
    expect(html).not.toMatch(/alert\(|onerror/i);
    expect(site.warnings.filter((w) => w.includes('not a literal'))).toEqual([]);
  });
});
