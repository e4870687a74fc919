import type { Element } from 'hast';
import { describe, expect, it } from 'vitest';
import type { ComponentProps } from '../../../src/export/render-context.ts';
import { fakeContext, paragraph, render, text } from './fake-context.ts';

const ctx = fakeContext();
function step(props: ComponentProps, body = 'Do it.') {
  return render('Step', props, [paragraph(body)], { ctx }).nodes[0] as Element;
}

describe('<Steps>', () => {
  it('is an ordered list of numbered steps with paragraph titles', () => {
    const { html, ctx: own } = render('Steps', {}, [
      step({ title: 'Install' }),
      text('\n'),
      step({ title: 'Run' }),
    ]);
    expect(html).toBe(
      '<ol class="ds-steps">' +
        '<li class="ds-step"><span class="ds-step-marker" aria-hidden="true">1</span><div class="ds-step-body"><p class="ds-step-title">Install</p><div class="ds-step-content"><p>Do it.</p></div></div></li>' +
        '<li class="ds-step"><span class="ds-step-marker" aria-hidden="true">2</span><div class="ds-step-body"><p class="ds-step-title">Run</p><div class="ds-step-content"><p>Do it.</p></div></div></li>' +
        '</ol>',
    );
    expect(own.warnings).toEqual([]);
  });

  it('continues numbering from an explicit stepNumber and writes it as the item value', () => {
    const { html } = render('Steps', {}, [step({ title: 'A', stepNumber: 5 }), step({ title: 'B' })]);
    expect(html).toContain(
      '<li class="ds-step" value="5"><span class="ds-step-marker" aria-hidden="true">5</span>',
    );
    expect(html).toContain('<li class="ds-step"><span class="ds-step-marker" aria-hidden="true">6</span>');
  });

  it('shows an icon instead of the number', () => {
    const { html } = render('Steps', {}, [step({ title: 'A', icon: 'check' })]);
    expect(html).toMatch(/<span class="ds-step-marker" aria-hidden="true"><svg class="ds-icon ds-step-icon"/);
  });

  it("uses headings for titles only when titleSize asks, the step's own size first", () => {
    const { html } = render('Steps', { titleSize: 'h3' }, [
      step({ title: 'A' }),
      step({ title: 'B', titleSize: 'p' }),
      step({ title: 'C', titleSize: 'h2' }),
    ]);
    expect(html).toContain('<h3 class="ds-step-title">A</h3>');
    expect(html).toContain('<p class="ds-step-title">B</p>');
    expect(html).toContain('<h2 class="ds-step-title">C</h2>');
    expect(html).not.toContain('data-ds-');
  });

  it('warns about a bad titleSize and keeps a paragraph', () => {
    const own = fakeContext();
    const { html } = render('Step', { title: 'X', titleSize: 'h1' }, [], { ctx: own });
    expect(html).toContain('<p class="ds-step-title">X</p>');
    expect(own.warnings).toEqual(['<Step> titleSize="h1" is not p, h2 or h3: using p']);
  });

  it('keeps other content inside the list valid', () => {
    const { html } = render('Steps', {}, [paragraph('stray'), step({ title: 'A' })]);
    expect(html).toMatch(
      /^<ol class="ds-steps"><li class="ds-step-extra"><p>stray<\/p><\/li><li class="ds-step">/,
    );
    expect(html).toContain('aria-hidden="true">1</span>');
  });
});
