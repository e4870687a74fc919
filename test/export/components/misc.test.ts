import type { Element } from 'hast';
import { describe, expect, it } from 'vitest';
import { fakeContext, paragraph, render, text } from './fake-context.ts';

describe('<Visibility>', () => {
  it('shows content for humans and leaves agent content out of the HTML', () => {
    expect(render('Visibility', { for: 'humans' }, [paragraph('web')]).html).toBe('<p>web</p>');
    const agents = render('Visibility', { for: 'agents' }, [paragraph('markdown only')]);
    expect(agents.html).toBe('');
    expect(agents.ctx.warnings).toEqual([]);
  });

  it('shows content with a warning when the audience is unknown', () => {
    const { html, ctx } = render('Visibility', { for: 'robots' }, [paragraph('x')]);
    expect(html).toBe('<p>x</p>');
    expect(ctx.warnings).toEqual([
      '<Visibility> for="robots" is neither humans nor agents: its content is shown',
    ]);
  });
});

describe('<Frame>', () => {
  it('is a figure with hint and caption', () => {
    const { html } = render('Frame', { caption: 'The dashboard', hint: 'Click to zoom' }, [paragraph('img')]);
    expect(html).toBe(
      '<figure class="ds-frame"><p class="ds-frame-hint">Click to zoom</p><div class="ds-frame-content"><p>img</p></div>' +
        '<figcaption class="ds-frame-caption">The dashboard</figcaption></figure>',
    );
  });

  it('stays phrasing content inside a paragraph', () => {
    const { html } = render('Frame', { caption: 'c' }, [text('x')], { inline: true });
    expect(html).toBe(
      '<span class="ds-frame"><span class="ds-frame-content">x</span><span class="ds-frame-caption">c</span></span>',
    );
  });
});

describe('<Update>', () => {
  it('is a changelog entry with an anchor from its label', () => {
    const { html, ctx } = render(
      'Update',
      { label: 'v1.2.0', description: 'May 2025', tags: ['API', 'SDK'] },
      [paragraph('New')],
    );
    expect(html).toBe(
      '<div class="ds-update" id="v120"><div class="ds-update-meta"><a class="ds-update-label" href="#v120">v1.2.0</a>' +
        '<p class="ds-update-description">May 2025</p><ul class="ds-update-tags" aria-label="Tags">' +
        '<li class="ds-badge ds-badge-gray ds-badge-sm">API</li><li class="ds-badge ds-badge-gray ds-badge-sm">SDK</li></ul></div>' +
        '<div class="ds-update-content"><p>New</p></div></div>',
    );
    expect(ctx.warnings).toEqual([]);
  });

  it('keeps anchors unique and warns without a label', () => {
    const ctx = fakeContext();
    expect(render('Update', { label: 'March 2025' }, [], { ctx }).html).toContain('id="march-2025"');
    expect(render('Update', { label: 'March 2025' }, [], { ctx }).html).toContain('id="march-2025-2"');
    // A label that looks like a numbered duplicate does not take an id already given out.
    expect(render('Update', { label: 'March 2025 2' }, [], { ctx }).html).toContain('id="march-2025-2-2"');
    const bare = render('Update');
    expect(bare.html).toContain('id="update"');
    expect(bare.ctx.warnings).toEqual(['<Update> has no label']);
  });
});

describe('<Tree>', () => {
  it('renders folders as details in nested lists, with names as MDX gives them', () => {
    const ctx = fakeContext();
    const file = (name: string) => render('Tree.File', { name }, [], { ctx }).nodes[0] as Element;
    const folder = render('Tree.Folder', { name: 'app', defaultOpen: true }, [text('\n'), file('page.tsx')], {
      ctx,
    }).nodes[0] as Element;
    const closed = render('Tree.Folder', { name: 'lib' }, [file('db.ts')], { ctx }).nodes[0] as Element;
    const { html } = render('Tree', {}, [folder, closed, file('package.json')], { ctx });
    expect(html).toMatch(
      /^<ul class="ds-tree"><li class="ds-tree-folder"><details open><summary class="ds-tree-label"><svg/,
    );
    expect(html).toContain(
      '<span class="ds-tree-name">app</span></summary><ul><li class="ds-tree-file"><span class="ds-tree-label"><svg',
    );
    expect(html).toContain('<li class="ds-tree-folder"><details><summary class="ds-tree-label">');
    expect(html).toContain('<span class="ds-tree-name">package.json</span></span></li></ul>');
    expect(html.match(/<details/g)).toHaveLength(2);
    expect(ctx.warnings).toEqual([]);
  });

  it('renders a folder that cannot be closed without details', () => {
    const { html } = render('Tree.Folder', { name: 'fixed', openable: false });
    expect(html).not.toContain('<details');
    expect(html).toMatch(/^<li class="ds-tree-folder"><span class="ds-tree-label">/);
  });
});

describe('fallbacks', () => {
  it('carries a <Mermaid> chart as a diagram: its source, drawn in the browser (diagrams/mermaid.browser.test.ts)', () => {
    const { html } = render('Mermaid', { chart: 'graph TD; A-->B', placement: 'top-left' });
    expect(html).toBe(
      '<div class="ds-mermaid" data-placement="top-left"><pre class="ds-mermaid-source" tabindex="0">graph TD; A-->B</pre></div>',
    );
  });
});
