import { describe, expect, it } from 'vitest';
import { exportFixture } from '../compatibility/harness.ts';
import { page } from '../fixtures.ts';

const content = (html: string) =>
  /<div class="ds-content">([\s\S]*?)<\/div><\/article>/.exec(html)?.[1] ?? '';

describe('snippets that export values and components', () => {
  it('named imports of values and JSX components from .mdx and .jsx snippets, and a page’s own exports', async () => {
    const site = await exportFixture({
      'docs.json': { name: 'S', navigation: { groups: [{ group: 'G', pages: ['index'] }] } },
      'snippets/components.mdx': [
        'export const product = "Acme Cloud";',
        '',
        'export const Feature = ({ title, href = "/index", children }) => (',
        '  <Card title={title} href={href}>',
        '    {children}',
        '  </Card>',
        ');',
      ].join('\n'),
      'snippets/widgets.jsx':
        'export const Pill = ({ label }) => {\n  return <span className="pill">{label}</span>;\n};\nexport const Clock = () => { const now = new Date(); return <span>{now.toString()}</span>; };\n',
      'index.mdx': page(
        'Home',
        [
          "import { Feature, product } from '/snippets/components.mdx';",
          "import { Pill, Clock } from '/snippets/widgets.jsx';",
          'export const release = "v2";',
          '',
          'Welcome to {product} {release}.',
          '',
          '<Feature title="Fast">It is **fast**.</Feature>',
          '',
          'Inline <Pill label="beta" /> here, and <Pill label=\'"}</span><script>alert(1)</script>\' />.',
          '',
          '<Card title={product}>x</Card>',
          '',
          '<Clock />',
        ].join('\n'),
      ),
    });
    const html = content(site.file('index.html'));
    expect(html).toContain('<p>Welcome to Acme Cloud v2.</p>');
    expect(html).toContain('<a href="index.html" class="ds-card ds-card-linked">');
    expect(html).toContain(
      '<p class="ds-card-title">Fast</p><div class="ds-card-content">It is <strong>fast</strong>.</div>',
    );
    expect(html).toContain('<p>Inline <span class="pill">beta</span> here');
    expect(html).toContain('<span class="ds-card-title">Acme Cloud</span>');
    // A prop's value is a value, never markup.
    expect(html).not.toContain('<script>');
    expect(html).toContain('&#x3C;/span>&#x3C;script>');
    expect(site.warnings).toEqual([
      expect.stringMatching(
        /^index\.mdx: import of Clock from \/snippets\/widgets\.jsx: not a value or a component the export can read without running code/,
      ),
      expect.stringMatching(/^index\.mdx: unknown component <Clock>/),
    ]);
  });
});
