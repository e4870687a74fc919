import { h } from 'hastscript';
import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../../../src/export/options.ts';
import { PageRenderer } from '../../../src/export/pages/render-page.ts';
import { loadSite } from '../../../src/export/source/load-site.ts';
import { prerender } from '../../../src/export/theme/prerender.ts';
import { docsRepo, page } from '../fixtures.ts';

/** Every page of the repository is in guides/, so their sidebars share all reusable items. */
const repo = () =>
  docsRepo({
    'docs.json': {
      name: 'Nav',
      navigation: {
        groups: [
          {
            group: 'Guides',
            pages: [
              'guides/a',
              { group: 'Deep', pages: ['guides/b', { group: 'Deeper', pages: ['guides/c'] }] },
              { group: 'Other', pages: ['guides/d'] },
            ],
          },
          { group: 'More', pages: ['guides/e'] },
        ],
      },
    },
    'guides/a.mdx': page('A'),
    'guides/b.mdx': page('B'),
    'guides/c.mdx': page('C'),
    'guides/d.mdx': page('D'),
    'guides/e.mdx': page('E'),
  });

const sidebarOf = (html: string) => /<nav id="ds-sidebar"[\s\S]*?<\/nav>/.exec(html)?.[0] ?? '';

describe('prerendered layout parts', () => {
  it('gives every page the sidebar a fresh renderer gives it: its own link current, the groups holding it open', async () => {
    const options = resolveOptions();
    const site = await loadSite(repo(), options);
    const shared = new PageRenderer(site, options);
    const indexOf = (title: string) => site.pages.findIndex((p) => p.title === title);
    // One renderer renders every page in turn (reusing parts); each is compared with a renderer that rendered nothing before.
    for (const title of ['A', 'C', 'B', 'D', 'E', 'A']) {
      const index = indexOf(title);
      const reused = sidebarOf((await shared.render(index)).html);
      const fresh = sidebarOf((await new PageRenderer(site, options).render(index)).html);
      expect(reused).toBe(fresh);
      expect(reused.match(/aria-current="page"/g)).toHaveLength(1);
      expect(reused).toMatch(
        new RegExp(`<a href="${title.toLowerCase()}.html" aria-current="page" class="active">${title}</a>`),
      );
    }
    const c = sidebarOf((await shared.render(indexOf('C'))).html);
    expect(c).toMatch(/<details open><summary>Deep<\/summary>[\s\S]*<details open><summary>Deeper/);
    expect(c).toMatch(/<details><summary>Other/);
    const d = sidebarOf((await shared.render(indexOf('D'))).html);
    expect(d).toMatch(/<details><summary>Deep<\/summary>[\s\S]*<details open><summary>Other/);
  });

  it('holds a part to the URL policy and the air-gap rule before it becomes HTML that the page passes no longer see', () => {
    const warnings: string[] = [];
    const part = () =>
      h('li', [
        h('a', { href: 'javascript:alert(1)' }, 'x'),
        h('img', { src: 'https://tracker.example/pixel.png', alt: 'pixel' }),
      ]);
    const connected = prerender(part(), { airGapped: false, warn: (m) => warnings.push(m) }).value;
    expect(connected).toBe('<li><a>x</a><img src="https://tracker.example/pixel.png" alt="pixel"></li>');
    expect(warnings.join('\n')).toMatch(/javascript:/);
    const airGapped = prerender(part(), { airGapped: true, warn: (m) => warnings.push(m) }).value;
    expect(airGapped).not.toMatch(/<img/);
    expect(airGapped).toContain(
      '<a href="https://tracker.example/pixel.png" class="ds-external-resource" rel="noopener">pixel</a>',
    );
    expect(warnings.join('\n')).toMatch(/air-gapped export shows a link/);
  });
});
