import type { Element } from 'hast';
import { describe, expect, it } from 'vitest';
import { fakeContext, paragraph, render } from './fake-context.ts';

describe('<Accordion>', () => {
  it('is a native details/summary, closed by default', () => {
    const { html, ctx } = render('Accordion', { title: 'FAQ', description: 'Common questions' }, [
      paragraph('Answer'),
    ]);
    expect(html).toMatch(
      /^<details class="ds-accordion" id="faq"><summary class="ds-accordion-summary"><span class="ds-chevron" aria-hidden="true"><svg/,
    );
    expect(html).toContain(
      '<span class="ds-accordion-heading"><span class="ds-accordion-title">FAQ</span><span class="ds-accordion-description">Common questions</span></span></summary>',
    );
    expect(html).toContain('<div class="ds-accordion-content"><p>Answer</p></div></details>');
    expect(ctx.warnings).toEqual([]);
  });

  it('gets the platform id: its title slugified (repeats -1, -2), or the id it is given', () => {
    const ctx = fakeContext();
    const id = (props: Record<string, string>) =>
      /id="([^"]*)"/.exec(render('Accordion', props, [], { ctx }).html)?.[1];
    expect(id({ title: 'Fees & billing: Café' })).toBe('fees-and-billing-cafe');
    expect(id({ title: 'I am an Accordion.' })).toBe('i-am-an-accordion');
    expect(id({ title: 'I am an Accordion.' })).toBe('i-am-an-accordion-1');
    expect(id({ title: 'Installation steps', id: 'install' })).toBe('install');
  });

  it('opens with defaultOpen, as a literal or a string', () => {
    expect(render('Accordion', { title: 'a', defaultOpen: true }).html).toMatch(
      /^<details class="ds-accordion" id="a" open>/,
    );
    expect(render('Accordion', { title: 'a', defaultOpen: 'true' }).html).toMatch(
      /^<details class="ds-accordion" id="a" open>/,
    );
    expect(render('Accordion', { title: 'a', defaultOpen: null }).html).toMatch(
      /^<details class="ds-accordion" id="a">/,
    );
    expect(render('Accordion', { title: 'a', defaultOpen: 'false' }).html).toMatch(
      /^<details class="ds-accordion" id="a">/,
    );
  });

  it('shows an icon and warns when the title is missing', () => {
    const { html, ctx } = render('Accordion', { icon: 'lightbulb', iconLibrary: 'lucide' });
    expect(html).toContain('data-icon="lucide:lightbulb"');
    expect(html).toContain('<span class="ds-accordion-title">Details</span>');
    expect(ctx.warnings).toEqual(['<Accordion> has no title']);
  });

  it('groups accordions', () => {
    const ctx = fakeContext();
    const one = render('Accordion', { title: '1' }, [], { ctx }).nodes[0] as Element;
    const { html } = render('AccordionGroup', {}, [one], { ctx });
    expect(html).toMatch(/^<div class="ds-accordion-group"><details class="ds-accordion" id="[^"]+">/);
  });
});

describe('<Expandable>', () => {
  it('shows and hides its content with a details element', () => {
    const { html } = render('Expandable', { title: 'child attributes', defaultOpen: true }, [paragraph('x')]);
    expect(html).toMatch(/^<details class="ds-expandable" open><summary class="ds-expandable-summary">/);
    expect(html).toContain(
      '<span class="ds-expandable-show">Show </span><span class="ds-expandable-hide">Hide </span>child attributes</summary>',
    );
    expect(html).toContain('<div class="ds-expandable-content"><p>x</p></div>');
  });

  it('defaults its title', () => {
    expect(render('Expandable').html).toContain('Hide </span>properties</summary>');
  });
});
