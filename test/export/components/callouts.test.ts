import { describe, expect, it } from 'vitest';
import { fakeContext, paragraph, render, text } from './fake-context.ts';

describe('callouts', () => {
  it.each([
    ['Note', 'note', 'circle-alert'],
    ['Tip', 'tip', 'lightbulb'],
    ['Info', 'info', 'info'],
    ['Warning', 'warning', 'triangle-alert'],
    ['Check', 'check', 'circle-check'],
    ['Danger', 'danger', 'octagon-alert'],
  ])('<%s> is a labelled note with its own icon', (name, kind, icon) => {
    const { html, ctx } = render(name, {}, [paragraph('Read this.')]);
    expect(html).toMatch(
      new RegExp(
        `^<div class="ds-callout ds-callout-${kind}" role="note" aria-label="${name}"><span class="ds-callout-icon"><svg`,
      ),
    );
    expect(html).toContain(`data-icon="lucide:${icon}"`);
    expect(html).toContain('<div class="ds-callout-content"><p>Read this.</p></div>');
    expect(ctx.warnings).toEqual([]);
  });

  it('stays phrasing content when written on one line inside a paragraph', () => {
    const { html } = render('Tip', {}, [text('Short tip')], { inline: true });
    expect(html).not.toMatch(/<(div|p)[ >]/);
    expect(html).toMatch(/^<span class="ds-callout ds-callout-tip"/);
    expect(html).toContain('<span class="ds-callout-content">Short tip</span>');
  });

  it('<Callout> takes an icon name and a color', () => {
    const { html, ctx } = render('Callout', { icon: 'key', color: '#FFC107' }, [paragraph('Custom')]);
    expect(html).toMatch(
      /^<div class="ds-callout ds-callout-custom" role="note" style="--ds-callout-color:#FFC107">/,
    );
    expect(html).toContain('data-icon="fa-solid:key"');
    expect(ctx.warnings).toEqual([]);
  });

  it('refuses a color that is not plain CSS color syntax', () => {
    const { html, ctx } = render('Callout', { color: 'red;background:url(https://evil.test/x.png)' }, [
      text('x'),
    ]);
    expect(html).not.toContain('style=');
    expect(html).not.toContain('evil.test');
    expect(ctx.warnings).toEqual([
      '<Callout> prop color="red;background:url(https://evil.test/x.png)" is not a CSS color: ignored',
    ]);
  });

  it('lets an icon prop replace the default icon, from a site path', () => {
    const { html } = render('Note', { icon: '/icons/custom.svg' }, [text('x')]);
    expect(html).toContain('<img src="../files/icons/custom.svg" alt="" class="ds-icon ds-icon-img">');
    expect(html).not.toContain('circle-alert');
  });

  it('warns about an unknown icon name through ctx.icon and renders no icon', () => {
    const ctx = fakeContext();
    const { html } = render('Callout', { icon: 'no-such-icon-x' }, [text('x')], { ctx });
    expect(html).not.toContain('<svg');
    expect(ctx.warnings).toEqual(['unknown icon "no-such-icon-x"']);
  });
});
