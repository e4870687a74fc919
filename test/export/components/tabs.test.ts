import type { Element } from 'hast';
import { h } from 'hastscript';
import { describe, expect, it } from 'vitest';
import { codeBlock, fakeContext, paragraph, render, text } from './fake-context.ts';

function tab(title: string, body: string, ctx = fakeContext(), props: Record<string, string> = {}) {
  return render('Tab', { title, ...props }, [paragraph(body)], { ctx }).nodes[0] as Element;
}

describe('<Tabs>', () => {
  it('builds an ARIA tablist with the first panel shown and the others hidden', () => {
    const ctx = fakeContext();
    const { html } = render(
      'Tabs',
      {},
      [text('\n'), tab('npm', 'npm install', ctx), text('\n'), tab('yarn', 'yarn add', ctx)],
      {
        ctx,
      },
    );
    expect(html).toBe(
      '<div class="ds-tab-group" data-ds-sync="">' +
        '<div role="tablist" class="ds-tablist">' +
        '<button type="button" role="tab" id="npm" class="ds-tab-button" aria-selected="true" aria-controls="ds-tabs-1-panel-1" tabindex="0" data-ds-key="npm">npm</button>' +
        '<button type="button" role="tab" id="yarn" class="ds-tab-button" aria-selected="false" aria-controls="ds-tabs-1-panel-2" tabindex="-1" data-ds-key="yarn">yarn</button>' +
        '</div>' +
        '<div role="tabpanel" id="ds-tabs-1-panel-1" class="ds-tabpanel" aria-labelledby="npm" tabindex="0"><p>npm install</p></div>' +
        '<div role="tabpanel" id="ds-tabs-1-panel-2" class="ds-tabpanel" aria-labelledby="yarn" tabindex="0" hidden><p>yarn add</p></div>' +
        '</div>',
    );
    expect(ctx.warnings).toEqual([]);
  });

  it('gives every widget on a page its own ids, and starts again on the next page', () => {
    const ctx = fakeContext();
    const first = render('Tabs', {}, [tab('a', 'x', ctx)], { ctx }).html;
    const second = render('Tabs', {}, [tab('a', 'x', ctx)], { ctx }).html;
    // A tab's id is the platform's anchor for its title: repeated titles get -2, as headings do.
    expect(first).toContain('role="tab" id="a"');
    expect(first).toContain('id="ds-tabs-1-panel-1"');
    expect(second).toContain('role="tab" id="a-2"');
    expect(second).toContain('id="ds-tabs-2-panel-1"');
    const nextPage = render('Tabs', {}, [tab('a', 'x')]).html;
    expect(nextPage).toContain('role="tab" id="a"');
  });

  it('gives tabs the platform ids: percent-encoding kept, as the platform leaves it', () => {
    const ctx = fakeContext();
    const { html } = render(
      'Tabs',
      {},
      [tab('C++', 'x', ctx), tab('Step 1: Install', 'y', ctx), tab('Node.js', 'z', ctx)],
      { ctx },
    );
    expect(html).toContain('id="c%2B%2B"');
    expect(html).toContain('id="step-1%3A-install"');
    expect(html).toContain('id="node-js"');
  });

  it('keeps ids unique when each component gets its own copy of the page context', () => {
    const page = fakeContext();
    const copy = () => ({ ...page, warn: (message: string) => page.warn(`line 1: ${message}`) });
    const first = render('Tabs', {}, [tab('a', 'x', page)], { ctx: copy() }).html;
    const second = render('Tabs', {}, [tab('a', 'x', page)], { ctx: copy() }).html;
    expect(first).toContain('role="tab" id="a"');
    expect(second).toContain('role="tab" id="a-2"');
  });

  it('puts a tab icon in its button and honours defaultTabIndex and sync={false}', () => {
    const ctx = fakeContext();
    const { html } = render(
      'Tabs',
      { defaultTabIndex: 1, sync: false },
      [tab('One', '1', ctx, { icon: 'rocket' }), tab('Two', '2', ctx)],
      {
        ctx,
      },
    );
    expect(html).toMatch(/^<div class="ds-tab-group">/);
    expect(html).toMatch(
      /<button[^>]*aria-selected="false"[^>]*><svg class="ds-icon ds-tab-icon"[^>]*data-icon="fa-solid:rocket"/,
    );
    expect(html).toContain('aria-selected="true" aria-controls="ds-tabs-1-panel-2" tabindex="0"');
    expect(html).toContain(
      'id="ds-tabs-1-panel-1" class="ds-tabpanel" aria-labelledby="one" tabindex="0" hidden',
    );
  });

  it('renders a lone <Tab> as a titled section', () => {
    const { html, ctx } = render('Tab', { title: 'Alone' }, [paragraph('body')]);
    expect(html).toBe(
      '<div class="ds-tab" data-ds-title="Alone"><p class="ds-tab-title">Alone</p><p>body</p></div>',
    );
    expect(ctx.warnings).toEqual([]);
  });

  it('names untitled tabs and warns about stray children', () => {
    const ctx = fakeContext();
    const untitled = render('Tab', {}, [paragraph('x')], { ctx }).nodes[0] as Element;
    const { html } = render('Tabs', {}, [untitled, paragraph('stray')], { ctx });
    expect(html).toContain('data-ds-key="tab 1">Tab 1</button>');
    expect(html).toContain('data-ds-key="tab 2">Tab 2</button>');
    expect(ctx.warnings).toEqual([
      '<Tab> has no title',
      '<Tabs> child 2 is not a <Tab>: shown as a tab of its own',
    ]);
  });

  it('labels an untitled tab around a code block by the block, without a warning', () => {
    const ctx = fakeContext();
    const untitled = render('Tab', {}, [text('\n'), codeBlock('x', 'tsx', 'bell.tsx')], { ctx })
      .nodes[0] as Element;
    expect(render('Tabs', {}, [untitled], { ctx }).html).toContain(
      'data-ds-key="bell.tsx">bell.tsx</button>',
    );
    expect(ctx.warnings).toEqual([]);
  });

  it('takes tabs written one per line, which arrive inside a paragraph', () => {
    const ctx = fakeContext();
    const inline = (title: string) =>
      render('Tab', { title }, [text(`${title} text`)], { ctx, inline: true }).nodes[0] as Element;
    const wrapped = h('p', [inline('One'), text('\n'), inline('Two')]);
    const { html } = render('Tabs', {}, [wrapped], { ctx });
    expect(html).toContain('data-ds-key="one">One</button>');
    expect(html).toContain('data-ds-key="two">Two</button>');
    expect(html).toContain('aria-labelledby="two" tabindex="0" hidden>Two text</div>');
    expect(html).not.toContain('<p');
    expect(ctx.warnings).toEqual([]);
  });

  it('renders nothing for empty tabs, with a warning', () => {
    const { html, ctx } = render('Tabs', {}, [text('\n')]);
    expect(html).toBe('');
    expect(ctx.warnings).toEqual(['<Tabs> has no <Tab> inside']);
  });
});

describe('<CodeGroup>', () => {
  it('labels tabs by code block title, else language', () => {
    const { html, ctx } = render('CodeGroup', {}, [
      codeBlock('npm i x', 'bash', 'npm'),
      text('\n'),
      codeBlock('print(1)', 'python'),
      codeBlock('plain'),
    ]);
    expect(html).toMatch(
      /^<div class="ds-tab-group ds-codegroup" data-ds-sync=""><div role="tablist" class="ds-tablist" aria-label="Code">/,
    );
    expect(html).toContain('data-ds-key="npm">npm</button>');
    expect(html).toContain('data-ds-key="python">python</button>');
    expect(html).toContain('data-ds-key="code 3">Code 3</button>');
    // The code blocks themselves move into the panels untouched.
    expect(html).toContain(
      'aria-labelledby="ds-tabs-1-tab-1" tabindex="0"><div class="ds-code" data-language="bash" data-title="npm"><pre>',
    );
    expect(html.match(/ hidden>/g)).toHaveLength(2);
    expect(ctx.warnings).toEqual([]);
  });

  it('reads code blocks whose attributes use raw HTML names', () => {
    const raw: Element = {
      type: 'element',
      tagName: 'div',
      // Hand-built nodes may carry a class string where hast has a list.
      properties: { className: 'ds-code', 'data-title': 'raw.ts' } as unknown as Element['properties'],
      children: [],
    };
    expect(render('CodeGroup', {}, [raw]).html).toContain('>raw.ts</button>');
  });

  it('accepts the dropdown prop', () => {
    const { html, ctx } = render('CodeGroup', { dropdown: true }, [codeBlock('a', 'js')]);
    expect(html).toContain('class="ds-tab-group ds-codegroup ds-codegroup-dropdown"');
    expect(ctx.warnings).toEqual([]);
  });

  it('warns when there is no code inside', () => {
    const { html, ctx } = render('CodeGroup', {}, []);
    expect(html).toBe('');
    expect(ctx.warnings).toEqual(['<CodeGroup> has no code blocks inside']);
  });
});

describe('<RequestExample> and <ResponseExample>', () => {
  it('render their code blocks as tabs under a heading', () => {
    const request = render('RequestExample', {}, [
      codeBlock('curl x', 'bash', 'cURL'),
      codeBlock('fetch()', 'js'),
    ]).html;
    expect(request).toMatch(
      /^<div class="ds-example ds-request-example"><p class="ds-example-heading">Request<\/p><div class="ds-tab-group ds-codegroup"/,
    );
    expect(request).toContain('aria-label="Request example"');
    expect(request).toContain('>cURL</button>');
    const response = render('ResponseExample', {}, [codeBlock('{}', 'json', '200')]).html;
    expect(response).toContain('<p class="ds-example-heading">Response</p>');
    expect(response).toContain('>200</button>');
  });
});
