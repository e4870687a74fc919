import { h } from 'hastscript';
import { describe, expect, it } from 'vitest';
import { fakeContext, paragraph, render } from './fake-context.ts';

describe('<Card>', () => {
  it('makes the whole card one link, resolved through the context', () => {
    const { html, ctx } = render('Card', { title: 'Quickstart', icon: 'rocket', href: '/quickstart' }, [
      paragraph('Start here.'),
    ]);
    expect(html).toMatch(/^<a href="\.\.\/quickstart" class="ds-card ds-card-linked">/);
    expect(html).toContain('<p class="ds-card-title">Quickstart</p>');
    expect(html).toContain('<div class="ds-card-content"><p>Start here.</p></div>');
    expect(html).toContain('data-icon="fa-solid:rocket"');
    // Internal links get no arrow unless asked for, and card titles are not headings.
    expect(html).not.toContain('ds-card-arrow');
    expect(html).not.toMatch(/<h[1-6]/);
    expect(ctx.warnings).toEqual([]);
  });

  it('opens an external link in a new tab with an arrow', () => {
    const { html } = render('Card', { title: 'GitHub', href: 'https://github.com/x' });
    expect(html).toMatch(
      /^<a href="https:\/\/github.com\/x" target="_blank" rel="noopener noreferrer" class="ds-card ds-card-linked">/,
    );
    expect(html).toContain('<span class="ds-card-arrow" aria-hidden="true"><svg');
  });

  it('honours arrow, cta, horizontal and color', () => {
    const { html } = render('Card', {
      title: 'T',
      href: '/a',
      arrow: true,
      cta: 'Read more',
      horizontal: true,
      icon: 'star',
      color: '#ff0000',
    });
    expect(html).toContain('class="ds-card ds-card-horizontal ds-card-linked"');
    expect(html).toContain('ds-card-arrow');
    expect(html).toContain('<span class="ds-card-cta">Read more</span>');
    expect(html).toContain('<span class="ds-card-icon" style="color:#ff0000">');
  });

  it('renders a card without href as a plain box', () => {
    const { html } = render('Card', { title: 'Static' }, [paragraph('x')]);
    expect(html).toMatch(/^<div class="ds-card">/);
    expect(html).not.toContain('<a ');
  });

  it('puts the link on the title when the content has links of its own, so links do not nest', () => {
    const { html } = render('Card', { title: 'Parent', href: '/parent' }, [
      h('p', [h('a', { href: '../other' }, 'other page')]),
    ]);
    expect(html).toMatch(/^<div class="ds-card ds-card-linked">/);
    expect(html).toContain(
      '<p class="ds-card-title"><a href="../parent" class="ds-card-link">Parent</a></p>',
    );
    expect(html.match(/<a /g)).toHaveLength(2);
  });

  it('shows an image from the site with empty alt text (the title names the card)', () => {
    const { html } = render('Card', { title: 'Pic', img: '/images/card.png' });
    expect(html).toContain('<img class="ds-card-img" src="../files/images/card.png" alt="" loading="lazy">');
  });

  it('drops images and icons from other origins in an air-gapped export, with warnings', () => {
    const ctx = fakeContext({ deployment: 'air-gapped' });
    const { html } = render(
      'Card',
      {
        title: 'Remote',
        img: 'https://cdn.test/a.png',
        icon: 'https://cdn.test/i.svg',
        href: 'https://example.com',
      },
      [],
      { ctx },
    );
    expect(html).not.toContain('cdn.test');
    expect(html).not.toContain('<img');
    // A plain link to another site loads nothing and stays.
    expect(html).toContain('href="https://example.com"');
    expect(ctx.warnings).toEqual([
      '<Card> image https://cdn.test/a.png left out: an air-gapped export loads nothing from another origin',
      '<Card> icon https://cdn.test/i.svg left out: an air-gapped export loads nothing from another origin',
    ]);
  });

  it('keeps images and icons from other origins in a cloud export', () => {
    const { html, ctx } = render('Card', {
      title: 'Remote',
      img: 'https://cdn.test/a.png',
      icon: 'https://cdn.test/i.svg',
    });
    expect(html).toContain('src="https://cdn.test/a.png"');
    expect(html).toContain('<img src="https://cdn.test/i.svg" alt="" class="ds-icon ds-icon-img">');
    expect(ctx.warnings).toEqual([]);
  });

  it('refuses javascript: links', () => {
    const { html, ctx } = render('Card', { title: 'Bad', href: 'javascript:alert(1)' });
    expect(html).not.toContain('javascript');
    expect(html).toMatch(/^<div class="ds-card">/);
    expect(ctx.warnings).toEqual([
      '<Card> link left out: refused URL "javascript:alert(1)" in a component prop: only http, https, mailto, tel or relative links are allowed',
    ]);
  });

  it('asks ctx.icon for brand icons when iconType is brands, in the card library chosen', () => {
    const { html } = render('Card', { title: 'x', icon: 'github', iconType: 'brands' });
    expect(html).toContain('data-icon="fa-brands:github"');
    const lucide = render('Card', { title: 'x', icon: 'house', iconLibrary: 'lucide' });
    expect(lucide.html).toContain('data-icon="lucide:house"');
  });
});

describe('<CardGroup> and <Columns>', () => {
  it('lay children out in the given number of columns', () => {
    expect(render('CardGroup', { cols: 3 }, [paragraph('a')]).html).toBe(
      '<div class="ds-columns ds-cols-3 ds-card-group"><p>a</p></div>',
    );
    expect(render('Columns', { cols: '4' }).html).toBe(
      '<div class="ds-columns ds-cols-4 ds-column-group"></div>',
    );
    expect(render('Columns').html).toContain('ds-cols-2');
  });

  it('warn and fall back to two columns for a bad cols value', () => {
    const { html, ctx } = render('Columns', { cols: 'three' });
    expect(html).toContain('ds-cols-2');
    expect(ctx.warnings).toEqual(['<Columns> prop cols="three" is not a whole number from 1 to 6: using 2']);
  });
});
