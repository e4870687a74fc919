import { describe, expect, it } from 'vitest';
import { chooseBranch, dedent, type Scope } from '../../../src/export/markdown/conditionals.ts';
import { exportFixture } from '../compatibility/harness.ts';
import { page } from '../fixtures.ts';

const content = (html: string) =>
  /<div class="ds-content">([\s\S]*?)<\/div><\/article>/.exec(html)?.[1] ?? '';

const scope = (values: Record<string, unknown>): Scope => ({
  values: (name) => (name in values ? { value: values[name] as never } : undefined),
});

describe('literal conditionals, decided at build time', () => {
  it('picks the branch a literal condition selects, and leaves code alone', () => {
    const s = scope({ platform: 'ios', count: 3, beta: false, label: '' });
    expect(chooseBranch('platform === "ios" ? <A /> : <B />', s)).toEqual({
      kind: 'markup',
      source: '<A />',
    });
    expect(chooseBranch('platform !== "ios" ? <A /> : (<B>x</B>)', s)).toEqual({
      kind: 'markup',
      source: '<B>x</B>',
    });
    expect(chooseBranch('beta && <A />', s)).toEqual({ kind: 'nothing' });
    expect(chooseBranch('!beta && <A />', s)).toEqual({ kind: 'markup', source: '<A />' });
    expect(chooseBranch('label || "none"', s)).toEqual({ kind: 'text', value: 'none' });
    expect(chooseBranch('count > 2 ? "many" : "few"', s)).toEqual({ kind: 'text', value: 'many' });
    expect(chooseBranch('count == "3" ? <A /> : null', s)).toEqual({ kind: 'markup', source: '<A />' });
    expect(chooseBranch('platform === "android" ? <A /> : platform === "ios" ? <B /> : null', s)).toEqual({
      kind: 'markup',
      source: '<B />',
    });
    // Names nobody gave a literal value, calls, members and assignments need code to run.
    expect(chooseBranch('unknown ? <A /> : <B />', s)).toBeUndefined();
    expect(chooseBranch('window.x ? <A /> : <B />', s)).toBeUndefined();
    expect(chooseBranch('f() && <A />', s)).toBeUndefined();
    expect(chooseBranch('(platform = "x") && <A />', s)).toBeUndefined();
    expect(chooseBranch('platform', s)).toBeUndefined();
    expect(chooseBranch('beta ? <A /> : <B />; alert(1)', s)).toBeUndefined();
  });

  it('takes the indentation a branch shares off its lines', () => {
    expect(dedent('<MDX>\n    ## Title\n\n    Text\n  </MDX>')).toBe('<MDX>\n  ## Title\n\n  Text\n</MDX>');
  });

  it('renders the branch on the page: <MDX> blocks picked by an exported value, and conditionals in snippet components', async () => {
    const site = await exportFixture({
      'docs.json': { name: 'C', navigation: { groups: [{ group: 'G', pages: ['index'] }] } },
      'snippets/badge.mdx': [
        'export const Status = ({ state = "beta", note, children }) => (',
        '  <div className="status">',
        '    {state === "ga" ? <strong>Generally available</strong> : <em>Preview</em>}',
        '    {note && <span className="note">{note}</span>}',
        '    {children}',
        '  </div>',
        ');',
      ].join('\n'),
      'index.mdx': page(
        'Home',
        [
          "import { Status } from '/snippets/badge.mdx';",
          'export const platform = "ios";',
          '',
          '{platform === "ios" ? (',
          '  <MDX>',
          '    ## Install on iOS',
          '',
          '    Download the SDK, then run:',
          '',
          '    ```bash',
          '    pod install',
          '    ```',
          '  </MDX>',
          ') : (',
          '  <MDX>',
          '    ## Install on Android',
          '  </MDX>',
          ')}',
          '',
          '<Status state="ga" note="since 2.0">Body</Status>',
          '',
          '<Status>Other</Status>',
          '',
          'Inline {platform === "ios" ? <b>Apple</b> : <b>Google</b>} text.',
          '',
          '{window.location ? <p>client</p> : null}',
        ].join('\n'),
      ),
    });
    const html = content(site.file('index.html'));
    expect(html).toContain('Install on iOS</h2>');
    expect(html).not.toContain('Android');
    expect(html).toContain('<p>Download the SDK, then run:</p>');
    expect(html).toMatch(/data-language="bash"[\s\S]*pod install/);
    expect(html).toMatch(
      /<div class="status"><strong>Generally available<\/strong><span class="note">since 2\.0<\/span>/,
    );
    expect(html).toMatch(/<div class="status"><em>Preview<\/em>/);
    expect(html).not.toContain('class="note">null');
    expect(html).toContain('<p>Inline <b>Apple</b> text.</p>');
    expect(html).not.toContain('client');
    expect(site.warnings).toEqual([
      'index.mdx: expression {window.location ? <p>client</p> : null} is JavaScript and was not executed',
    ]);
    expect(site.result.warnings[0]?.line).toBe(30); // the file's line, frontmatter included
  });
});
