import { h } from 'hastscript';
import { describe, expect, it } from 'vitest';
import { fakeContext, paragraph, render, text } from './fake-context.ts';

describe('<Icon>', () => {
  it('renders an inline SVG sized in pixels and colored', () => {
    const { html, ctx } = render('Icon', { icon: 'flag', size: 32, color: 'rgb(255, 0, 0)' }, [], {
      inline: true,
    });
    expect(html).toMatch(
      /^<svg class="ds-icon ds-icon-standalone"[^>]*style="width:32px;height:32px;color:rgb\(255, 0, 0\)"/,
    );
    expect(html).toContain('data-icon="fa-solid:flag"');
    expect(ctx.warnings).toEqual([]);
  });

  it('uses the site library from the context', () => {
    const ctx = fakeContext({ iconLibrary: 'lucide' });
    expect(render('Icon', { icon: 'flag' }, [], { ctx }).html).toContain('data-icon="lucide:flag"');
    expect(render('Icon', { icon: 'github', iconType: 'brands' }, [], { ctx }).html).toContain(
      'data-icon="fa-brands:github"',
    );
  });

  it('warns about a missing icon, an unknown icon and a bad size', () => {
    expect(render('Icon').ctx.warnings).toEqual(['<Icon> has no icon prop']);
    const unknown = render('Icon', { icon: 'not-an-icon-zz' });
    expect(unknown.html).toBe('');
    expect(unknown.ctx.warnings).toEqual(['unknown icon "not-an-icon-zz"']);
    const badSize = render('Icon', { icon: 'flag', size: 'big' });
    expect(badSize.html).not.toContain('style=');
    expect(badSize.ctx.warnings).toEqual(['<Icon> size="big" is not a size in pixels: ignored']);
  });

  it('renders an icon file from the site as an image, and drops a remote one when air-gapped', () => {
    expect(render('Icon', { icon: '/logo/mark.svg' }).html).toBe(
      '<img src="../files/logo/mark.svg" alt="" class="ds-icon ds-icon-img ds-icon-standalone">',
    );
    const ctx = fakeContext({ deployment: 'air-gapped' });
    const { html } = render('Icon', { icon: 'https://icons.test/x.svg' }, [], { ctx });
    expect(html).toBe('');
    expect(ctx.warnings).toEqual([
      '<Icon> icon https://icons.test/x.svg left out: an air-gapped export loads nothing from another origin',
    ]);
  });
});

describe('<Tooltip>', () => {
  it('makes its text focusable and described by a role=tooltip bubble', () => {
    const { html, ctx } = render(
      'Tooltip',
      {
        tip: 'Application Programming Interface',
        headline: 'API',
        cta: 'Read the guide',
        href: '/api-reference',
      },
      [text('API')],
      { inline: true },
    );
    expect(html).toBe(
      '<span class="ds-tooltip"><span class="ds-tooltip-trigger" tabindex="0" aria-describedby="ds-tip-1">API</span>' +
        '<span class="ds-tooltip-bubble" role="tooltip" id="ds-tip-1"><strong class="ds-tooltip-headline">API</strong>' +
        '<span class="ds-tooltip-tip">Application Programming Interface</span>' +
        '<a class="ds-tooltip-cta" href="../api-reference">Read the guide</a></span></span>',
    );
    expect(ctx.warnings).toEqual([]);
  });

  it('lets a link inside carry the description instead of adding a second tab stop', () => {
    const { html } = render('Tooltip', { tip: 'More' }, [h('a', { href: '../x' }, 'link')], { inline: true });
    expect(html).toContain(
      '<span class="ds-tooltip-trigger"><a href="../x" aria-describedby="ds-tip-1">link</a></span>',
    );
  });

  it('renders its text only, with a warning, when there is no tip', () => {
    const { html, ctx } = render('Tooltip', {}, [text('plain')], { inline: true });
    expect(html).toBe('plain');
    expect(ctx.warnings).toEqual(['<Tooltip> has no tip: rendered its content only']);
  });

  it('uses block wrappers when it holds paragraphs', () => {
    const { html } = render('Tooltip', { tip: 't' }, [paragraph('para')]);
    expect(html).toMatch(
      /^<div class="ds-tooltip"><div class="ds-tooltip-trigger" tabindex="0" aria-describedby="ds-tip-1"><p>para<\/p><\/div>/,
    );
  });

  it('warns about a cta without href', () => {
    const { html, ctx } = render('Tooltip', { tip: 't', cta: 'Go' }, [text('x')], { inline: true });
    expect(html).not.toContain('ds-tooltip-cta');
    expect(ctx.warnings).toEqual(['<Tooltip> has a cta but no href: the call to action is left out']);
  });
});

describe('<Badge>', () => {
  it('renders a styled inline label', () => {
    const { html, ctx } = render(
      'Badge',
      { color: 'green', size: 'sm', shape: 'pill', icon: 'circle-check', stroke: true },
      [text('Stable')],
      {
        inline: true,
      },
    );
    expect(html).toMatch(
      /^<span class="ds-badge ds-badge-green ds-badge-sm ds-badge-pill ds-badge-stroke"><svg class="ds-icon ds-badge-icon"/,
    );
    expect(html).toMatch(/<\/svg>Stable<\/span>$/);
    expect(ctx.warnings).toEqual([]);
  });

  it('defaults to a gray, medium, rounded badge and marks disabled ones', () => {
    expect(render('Badge', { disabled: true }, [text('x')], { inline: true }).html).toBe(
      '<span class="ds-badge ds-badge-gray ds-badge-md ds-badge-rounded ds-badge-disabled">x</span>',
    );
  });

  it('warns about an unknown color and uses gray', () => {
    const { html, ctx } = render('Badge', { color: 'magenta' }, [text('x')], { inline: true });
    expect(html).toContain('ds-badge-gray');
    expect(ctx.warnings[0]).toMatch(/^<Badge> color="magenta" is not one of gray, blue/);
  });
});
