import { describe, expect, it } from 'vitest';
import { exportFixture } from '../compatibility/harness.ts';
import { page } from '../fixtures.ts';
import { fakeContext, paragraph, render } from './fake-context.ts';

describe('<Tile>', () => {
  it('links the whole tile, with the preview above its title and description', () => {
    const { html, ctx } = render(
      'Tile',
      { href: '/components/accordions', title: 'Accordion', description: 'Two variants' },
      [paragraph('preview')],
    );
    expect(html).toBe(
      '<a class="ds-tile" href="../components/accordions"><div class="ds-tile-preview"><p>preview</p></div><span class="ds-tile-title">Accordion</span><span class="ds-tile-description">Two variants</span></a>',
    );
    expect(ctx.warnings).toEqual([]);
  });

  it('refuses a script URL as its link', () => {
    const { html, ctx } = render('Tile', { href: 'javascript:alert(1)', title: 'x' });
    expect(html).not.toContain('javascript');
    expect(ctx.warnings[0]).toMatch(/refused URL/);
  });
});

describe('<Prompt>', () => {
  it('shows its description and text with a copy button; the cursor action is left out with a warning', () => {
    const { html, ctx } = render('Prompt', { description: 'A prompt', actions: ['cursor', 'copy'] }, [
      paragraph('Be helpful.'),
    ]);
    expect(html).toContain(
      '<span class="ds-prompt-description">A prompt</span><button type="button" class="ds-prompt-copy">Copy prompt</button>',
    );
    expect(html).toContain('<div class="ds-prompt-body"><p>Be helpful.</p></div>');
    expect(ctx.warnings).toEqual([
      '<Prompt> action "cursor" opens another application and is left out; "copy" is offered',
    ]);
  });
});

describe('<View>, <Column>, <Param>, <FileTree>', () => {
  it('renders each as the reference documents it', () => {
    expect(render('View', { title: 'Python' }, [paragraph('py')]).html).toBe(
      '<section class="ds-view" data-view="Python"><p class="ds-view-title">Python</p><p>py</p></section>',
    );
    expect(render('Column', {}, [paragraph('c')]).html).toBe('<div class="ds-column"><p>c</p></div>');
    expect(render('Param', { query: 'limit', type: 'number' }).html).toContain('id="param-limit"');
    expect(render('FileTree', {}, []).html).toMatch(/^<(div|ul)/);
  });
});

describe('<Color>', () => {
  it('shows swatches with their names and values, per theme where given, in rows for the table variant', () => {
    const ctx = fakeContext();
    const item = (props: Record<string, unknown>) => render('Color.Item', props as never, [], { ctx }).nodes;
    const row = render('Color.Row', { title: 'Primary' }, [...item({ name: 'blue', value: '#3B82F6' })], {
      ctx,
    }).nodes;
    const { html } = render(
      'Color',
      { variant: 'table' },
      [...row, ...item({ name: 'bg', value: { light: '#fff', dark: '#000' } })],
      { ctx },
    );
    expect(html).toContain(
      '<div class="ds-color ds-color-table"><div class="ds-color-row"><p class="ds-color-row-title">Primary</p>',
    );
    expect(html).toContain('data-value="#3B82F6" style="--ds-swatch:#3B82F6"');
    expect(html).toContain('data-value="#fff / #000" style="--ds-swatch:#fff;--ds-swatch-dark:#000"');
    expect(ctx.warnings).toEqual([]);
  });

  it('refuses a value that is not a CSS color before it becomes a style', () => {
    const { html, ctx } = render('Color.Item', {
      name: 'x',
      value: 'red; background-image: url(https://evil.example/x)',
    });
    expect(html).toBe('');
    expect(ctx.warnings[0]).toMatch(/is not a CSS color/);
  });
});

describe('<GitHub.Repo>', () => {
  it('is a static card linking to the repository, from a slug or a URL; no call to GitHub', () => {
    for (const repo of [
      'mintlify/docs',
      'https://github.com/mintlify/docs',
      'https://github.com/mintlify/docs.git',
    ]) {
      const { html, ctx } = render('GitHub.Repo', { repo, variant: 'flat' });
      expect(html).toMatch(
        /^<a class="ds-github-repo ds-github-repo-flat" href="https:\/\/github\.com\/mintlify\/docs" rel="noopener"><svg[^>]*data-icon="fa-brands:github"/,
      );
      expect(html).toContain('<span class="ds-github-name">mintlify/docs</span>');
      expect(ctx.warnings).toEqual([]);
    }
    const { html, ctx } = render('GitHub.Repo', { repo: 'javascript:alert(1)' });
    expect(html).toBe('');
    expect(ctx.warnings[0]).toMatch(/is not owner\/name/);
  });
});

describe('<Panel>', () => {
  it('takes the table of contents’ place in the side column', async () => {
    const site = await exportFixture({
      'docs.json': { name: 'P', navigation: { groups: [{ group: 'G', pages: ['index'] }] } },
      'index.mdx': page('Home', '## Section\n\nText.\n\n<Panel>\n  Side note.\n</Panel>'),
    });
    const html = site.file('index.html');
    expect(html).toMatch(/<aside class="ds-toc ds-panel-column"><aside class="ds-panel">[\s\S]*Side note/);
    expect(html).not.toContain('ds-toc-title');
    expect(/<div class="ds-content">[\s\S]*?<\/div><\/article>/.exec(html)?.[0]).not.toContain('Side note');
  });
});
