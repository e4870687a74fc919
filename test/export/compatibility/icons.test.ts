import { describe, expect, it } from 'vitest';
import { page } from '../fixtures.ts';
import { exportFixture } from './harness.ts';

const iconsOf = (html: string) => [...html.matchAll(/data-icon="([^"]+)"/g)].map((m) => m[1]);
const sidebarOf = (html: string) => /<nav id="ds-sidebar"[\s\S]*?<\/nav>/.exec(html)?.[0] ?? '';

describe('icons', () => {
  it('icons.library: tabler', async () => {
    const site = await exportFixture({
      'docs.json': {
        name: 'Icons',
        icons: { library: 'tabler' },
        navigation: { groups: [{ group: 'Start', icon: 'rocket', pages: ['index'] }] },
      },
      'index.mdx': page('Home', '<Card title="A" icon="heart">Text</Card>\n\n<Icon icon="brand-github" />'),
    });
    const html = site.file('index.html');
    expect(iconsOf(sidebarOf(html))).toContain('tabler:rocket');
    expect(iconsOf(html)).toEqual(expect.arrayContaining(['tabler:heart', 'tabler:brand-github']));
    expect(site.warnings.filter((w) => w.includes('icon'))).toEqual([]);
  });

  it('icons.library: lucide and fontawesome', async () => {
    for (const library of ['lucide', 'fontawesome']) {
      const site = await exportFixture({
        'docs.json': {
          name: 'Icons',
          icons: { library },
          navigation: { groups: [{ group: 'Start', icon: 'house', pages: ['index'] }] },
        },
        'index.mdx': page('Home'),
      });
      expect(iconsOf(sidebarOf(site.file('index.html')))).toContain(
        library === 'lucide' ? 'lucide:house' : 'fa-solid:house',
      );
    }
  });

  it('navigation icon objects: name, style, library', async () => {
    const site = await exportFixture({
      'docs.json': {
        name: 'Icons',
        navigation: {
          groups: [
            { group: 'Regular', icon: { name: 'bell', style: 'regular' }, pages: ['index'] },
            { group: 'Tabler', icon: { name: 'heart', library: 'tabler', style: 'filled' }, pages: ['b'] },
          ],
        },
      },
      'index.mdx': page('Home'),
      'b.mdx': page('B'),
    });
    expect(iconsOf(sidebarOf(site.file('index.html')))).toEqual(['fa-regular:bell', 'tabler-filled:heart']);
  });

  it('navigation icons as a path or URL to an image', async () => {
    const files = {
      'docs.json': {
        name: 'Icons',
        navigation: {
          groups: [
            { group: 'Local', icon: '/icons/logo.svg', pages: ['index'] },
            { group: 'Remote', icon: 'https://cdn.example.com/icon.svg', pages: ['guides/b'] },
          ],
        },
      },
      'index.mdx': page('Home'),
      'guides/b.mdx': page('B'),
      'icons/logo.svg':
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1" height="1"/></svg>',
    };
    const connected = await exportFixture(files);
    const images = (html: string) =>
      [...sidebarOf(html).matchAll(/<img src="([^"]+)" alt="" class="ds-icon ds-icon-img">/g)].map(
        (m) => m[1],
      );
    expect(images(connected.file('guides/b.html'))).toEqual([
      '../icons/logo.svg',
      'https://cdn.example.com/icon.svg',
    ]);
    const airGapped = await exportFixture(files, { deployment: 'air-gapped' });
    expect(images(airGapped.file('guides/b.html'))).toEqual(['../icons/logo.svg']);
    expect(airGapped.file('guides/b.html')).not.toContain('cdn.example.com');
  });
});
