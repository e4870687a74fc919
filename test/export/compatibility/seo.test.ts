import { describe, expect, it } from 'vitest';
import { page } from '../fixtures.ts';
import { type ExportedFixture, exportFixture } from './harness.ts';

const files = (seo?: object) => ({
  'docs.json': {
    name: 'SEO',
    ...(seo ? { seo } : {}),
    navigation: { groups: [{ group: 'Start', pages: ['index', { page: 'hidden', hidden: true }] }] },
  },
  'index.mdx': page('Home', 'findable alpha'),
  'hidden.mdx': page('Hidden', 'findable bravo'),
  'outside.mdx': page('Outside', 'findable charlie'),
});

/** Titles of the fixture's pages found in the search index's files. */
const searchTitles = (site: ExportedFixture) =>
  Object.keys(site.result.manifest.files)
    .filter((path) => path.includes('/search/'))
    .flatMap((path) => site.file(path).match(/Home|Hidden|Outside/g) ?? [])
    .sort();

describe('seo', () => {
  it('seo.indexing: navigable (the default) keeps hidden pages and pages outside the navigation out of search and search engines', async () => {
    const site = await exportFixture(files(), { siteUrl: 'https://docs.example.com' });
    expect(site.file('index.html')).not.toContain('name="robots"');
    for (const path of ['hidden.html', 'outside.html'])
      expect(site.file(path)).toContain('<meta name="robots" content="noindex">');
    expect(site.file('sitemap.xml')).not.toMatch(/hidden|outside/);
    expect([...new Set(searchTitles(site))]).toEqual(['Home']);
  });

  it('seo.indexing: all indexes every page', async () => {
    const site = await exportFixture(files({ indexing: 'all' }), { siteUrl: 'https://docs.example.com' });
    expect(site.file('hidden.html')).not.toContain('name="robots"');
    expect(site.file('sitemap.xml')).toMatch(
      /hidden\.html[\s\S]*outside\.html|outside\.html[\s\S]*hidden\.html/,
    );
    expect([...new Set(searchTitles(site))]).toEqual(['Hidden', 'Home', 'Outside']);
  });

  it('seo.metatags: on every page, Open Graph ones as properties, never as http-equiv', async () => {
    const site = await exportFixture(
      files({
        metatags: {
          'og:image': 'https://docs.example.com/og.png',
          'google-site-verification': 'abc123',
          'http-equiv': 'refresh',
        },
      }),
    );
    const html = site.file('index.html');
    expect(html).toContain('<meta property="og:image" content="https://docs.example.com/og.png">');
    expect(html).toContain('<meta name="google-site-verification" content="abc123">');
    expect(html).not.toMatch(/http-equiv="refresh"/);
  });
});
