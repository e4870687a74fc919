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
