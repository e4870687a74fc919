import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { faGithub } from '@fortawesome/free-brands-svg-icons';
import { faRocket } from '@fortawesome/free-solid-svg-icons';
import type { Element } from 'hast';
import { toHtml } from 'hast-util-to-html';
import { describe, expect, it } from 'vitest';
import { iconElement } from '../../../src/export/components/index.ts';

const require = createRequire(import.meta.url);
const lucideNodes = JSON.parse(
  readFileSync(join(dirname(require.resolve('lucide-static/package.json')), 'icon-nodes.json'), 'utf8'),
) as Record<string, Array<[string, Record<string, string>]>>;

function source(element: Element | undefined): string | undefined {
  return element?.properties.dataIcon as string | undefined;
}

describe('iconElement', () => {
  it('renders a Lucide icon as an inline, hidden, stroked SVG', () => {
    const icon = iconElement('rocket', { library: 'lucide', className: 'extra more' });
    expect(icon).toBeDefined();
    const html = toHtml(icon as Element);
    expect(html).toMatch(/^<svg class="ds-icon extra more" viewBox="0 0 24 24"/);
    expect(html).toContain('aria-hidden="true"');
    expect(html).toContain('focusable="false"');
    expect(html).toContain('stroke="currentColor"');
    expect(html).toContain('fill="none"');
    const expected = lucideNodes.rocket?.map(([tag, attributes]) => `<${tag} d="${attributes.d}">`);
    expect(expected?.length).toBeGreaterThan(0);
    for (const part of expected ?? []) expect(html).toContain(part);
  });

  it('renders a Font Awesome solid icon with its own view box and path', () => {
    const icon = iconElement('rocket', { library: 'fontawesome' });
    const [width, height, , , path] = faRocket.icon;
    expect(source(icon)).toBe('fa-solid:rocket');
    expect(icon?.properties.viewBox).toBe(`0 0 ${width} ${height}`);
    expect(icon?.properties.fill).toBe('currentColor');
    expect(toHtml(icon as Element)).toContain(`<path d="${path}">`);
  });

  it('accepts Font Awesome spellings of brand and solid names', () => {
    for (const name of ['brands github', 'fa-brands fa-github', 'fab fa-github', 'github', 'GitHub']) {
      const icon = iconElement(name, { library: 'fontawesome' });
      expect(source(icon), name).toBe('fa-brands:github');
      expect(toHtml(icon as Element)).toContain(faGithub.icon[4] as string);
    }
    expect(source(iconElement('fa-rocket', { library: 'fontawesome' }))).toBe('fa-solid:rocket');
    expect(source(iconElement('fa-solid fa-rocket', { library: 'lucide' }))).toBe('fa-solid:rocket');
  });

  it('searches the requested library first, then the other', () => {
    expect(source(iconElement('house', { library: 'lucide' }))).toBe('lucide:house');
    expect(source(iconElement('house', { library: 'fontawesome' }))).toBe('fa-solid:house');
    // Only Lucide has it, only Font Awesome brands has the other.
    expect(source(iconElement('text-align-start', { library: 'fontawesome' }))).toBe(
      'lucide:text-align-start',
    );
    expect(source(iconElement('github', { library: 'lucide' }))).toBe('fa-brands:github');
  });

  it('renders Tabler icons, outline by default and filled when asked, from the site library or a library word', () => {
    const outline = iconElement('rocket', { library: 'tabler' });
    expect(source(outline)).toBe('tabler:rocket');
    expect(outline?.properties.stroke).toBe('currentColor');
    const html = toHtml(outline as Element);
    // The invisible 24×24 box every Tabler file starts with is not drawn.
    expect(html).not.toContain('M0 0h24v24H0z');
    expect(html).toContain('<path d="M4 13a8 8 0 0 1 7 7');
    expect(source(iconElement('filled heart', { library: 'tabler' }))).toBe('tabler-filled:heart');
    expect(iconElement('filled heart', { library: 'tabler' })?.properties.fill).toBe('currentColor');
    expect(source(iconElement('tabler brand-github', { library: 'fontawesome' }))).toBe(
      'tabler:brand-github',
    );
    // A name only another library has is still found.
    expect(source(iconElement('house', { library: 'tabler' }))).toBe('lucide:house');
  });

  it('renders the Font Awesome style asked for, the Pro styles from the nearest free set', () => {
    for (const name of ['regular bell', 'fa-regular fa-bell', 'far fa-bell', 'light bell', 'thin bell']) {
      expect(source(iconElement(name, { library: 'fontawesome' })), name).toBe('fa-regular:bell');
    }
    for (const name of ['solid bell', 'duotone bell', 'sharp-solid bell', 'bell']) {
      expect(source(iconElement(name, { library: 'fontawesome' })), name).toBe('fa-solid:bell');
    }
    // A style the regular set does not draw an icon in falls back to solid.
    expect(source(iconElement('regular rocket', { library: 'fontawesome' }))).toBe('fa-solid:rocket');
  });

  it('finds Font Awesome aliases, including those whose module names differ only in case', () => {
    expect(source(iconElement('home', { library: 'fontawesome' }))).toBe('fa-solid:home');
    for (const name of ['paint-brush', 'thumb-tack', 'tshirt', 'arrow-down-1-9', '0']) {
      expect(iconElement(name, { library: 'fontawesome' }), name).toBeDefined();
    }
  });

  it('returns undefined for unknown names, paths and URLs', () => {
    for (const name of [
      'no-such-icon-anywhere',
      '',
      '   ',
      '../package',
      'icons/../../x',
      '/icons/x.svg',
      'https://a.test/i.svg',
    ]) {
      expect(iconElement(name, { library: 'fontawesome' }), name).toBeUndefined();
    }
  });

  it('returns a fresh element each time, so callers may change it', () => {
    const first = iconElement('rocket', { library: 'lucide' }) as Element;
    first.properties.style = 'color:red';
    first.children = [];
    const second = iconElement('rocket', { library: 'lucide' }) as Element;
    expect(second.properties.style).toBeUndefined();
    expect(second.children.length).toBeGreaterThan(0);
  });

  it('reads every Lucide icon file into the same shapes as the package icon-nodes.json', () => {
    let checked = 0;
    for (const [name, nodes] of Object.entries(lucideNodes)) {
      const icon = iconElement(name, { library: 'lucide' });
      expect(source(icon), name).toBe(`lucide:${name}`);
      const children = (icon as Element).children as Element[];
      expect(
        children.map((child) => child.tagName),
        name,
      ).toEqual(nodes.map(([tag]) => tag));
      nodes.forEach(([, attributes], index) => {
        const child = children[index] as Element;
        expect(toHtml(child), name).toContain(Object.values(attributes)[0] ?? '');
      });
      checked++;
    }
    expect(checked).toBeGreaterThan(1000);
  });
});
