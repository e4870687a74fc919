import { describe, expect, it } from 'vitest';
import { fakeContext, paragraph, render } from './fake-context.ts';

describe('<ParamField>', () => {
  it('shows name, location, type and flags, with an id to link to', () => {
    const { html, ctx } = render(
      'ParamField',
      { path: 'userId', type: 'string', required: true, deprecated: true },
      [paragraph('The user.')],
    );
    expect(html).toBe(
      '<div class="ds-field ds-param-field ds-field-is-deprecated" id="param-user-id"><div class="ds-field-head">' +
        '<code class="ds-field-name">userId</code><span class="ds-field-location">path</span>' +
        '<span class="ds-field-type">string</span><span class="ds-field-required">required</span>' +
        '<span class="ds-field-deprecated">deprecated</span></div>' +
        '<div class="ds-field-body"><p>The user.</p></div></div>',
    );
    expect(ctx.warnings).toEqual([]);
  });

  it('shows literal defaults as code and accepts the placeholder prop', () => {
    const { html, ctx } = render('ParamField', {
      query: 'limit',
      type: 'number',
      default: 10,
      placeholder: '10',
    });
    expect(html).toContain('<p class="ds-field-default">Default: <code>10</code></p>');
    expect(html).toContain('<span class="ds-field-location">query</span>');
    expect(render('ParamField', { body: 'tags', default: ['a', 'b'] }).html).toContain(
      '<code>["a","b"]</code>',
    );
    expect(ctx.warnings).toEqual([]);
  });

  it('keeps ids unique on a page', () => {
    const ctx = fakeContext();
    expect(render('ParamField', { header: 'id' }, [], { ctx }).html).toContain('id="param-id"');
    expect(render('ParamField', { header: 'id' }, [], { ctx }).html).toContain('id="param-id-1"');
  });

  it('warns when no parameter is named', () => {
    const { ctx } = render('ParamField', { type: 'string' });
    expect(ctx.warnings).toEqual([
      '<ParamField> names no parameter: give it query, path, body or header="name"',
    ]);
  });
});

describe('<ResponseField>', () => {
  it('shows name, type, pre and post labels', () => {
    const { html, ctx } = render('ResponseField', {
      name: 'data',
      type: 'object[]',
      required: true,
      pre: ['list'],
      post: ['beta'],
    });
    expect(html).toBe(
      '<div class="ds-field ds-response-field" id="param-data"><div class="ds-field-head">' +
        '<span class="ds-field-label">list</span><code class="ds-field-name">data</code>' +
        '<span class="ds-field-type">object[]</span><span class="ds-field-required">required</span>' +
        '<span class="ds-field-label">beta</span></div></div>',
    );
    expect(ctx.warnings).toEqual([]);
  });

  it('warns when it has no name', () => {
    expect(render('ResponseField', { type: 'string' }).ctx.warnings).toEqual(['<ResponseField> has no name']);
  });
});
