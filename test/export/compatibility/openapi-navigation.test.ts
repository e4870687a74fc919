import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../../../src/export/options.ts';
import { loadSite, type SiteNavItem } from '../../../src/export/source/load-site.ts';
import { docsRepo, page } from '../fixtures.ts';
import { exportFixture } from './harness.ts';

const spec = {
  openapi: '3.0.3',
  info: { title: 'Pets', version: '1' },
  tags: [{ name: 'Stores' }, { name: 'Pets' }, { name: 'Orders', 'x-displayName': 'Your orders' }],
  paths: {
    '/pets': {
      get: { tags: ['Pets'], summary: 'List pets', responses: { 200: { description: 'ok' } } },
      post: { tags: ['Pets'], summary: 'Create a pet', responses: { 201: { description: 'ok' } } },
    },
    '/stores/{id}': {
      get: { tags: ['Stores', 'Pets'], summary: 'Get a store', responses: { 200: { description: 'ok' } } },
    },
    '/health': { get: { summary: 'Health', responses: { 200: { description: 'ok' } } } },
    '/orders': {
      get: { tags: ['Orders'], summary: 'List orders', responses: { 200: { description: 'ok' } } },
    },
    '/internal': {
      get: { summary: 'Internal', 'x-hidden': true, responses: { 200: { description: 'ok' } } },
    },
  },
};

const labels = (items: SiteNavItem[], pages: { title: string }[]): unknown[] =>
  items.map((item) =>
    item.kind === 'group'
      ? { [item.label]: labels(item.items, pages) }
      : item.kind === 'page'
        ? pages[item.page]?.title
        : item.label,
  );

describe('openapi on a navigation level', () => {
  it('openapi on a tab: a page per operation, grouped by tag', async () => {
    const site = await exportFixture({
      'docs.json': {
        name: 'API',
        navigation: {
          tabs: [
            { tab: 'Guides', groups: [{ group: 'Start', pages: ['index'] }] },
            { tab: 'API reference', openapi: { source: 'openapi.json' } },
          ],
        },
      },
      'index.mdx': page('Home', 'See [list pets](/api-reference/pets/list-pets).'),
      'openapi.json': spec,
    });
    expect(site.result.pageCount).toBe(6);
    expect(site.warnings).toEqual([]);
    // Pages at the platform's URLs: the directory ("api-reference"), the tag, the summary.
    expect(
      Object.keys(site.result.manifest.files)
        .filter((f) => f.endsWith('.html') && f.startsWith('api-reference/'))
        .sort(),
    ).toEqual([
      'api-reference/health.html',
      'api-reference/orders/list-orders.html',
      'api-reference/pets/create-a-pet.html',
      'api-reference/pets/list-pets.html',
      'api-reference/stores/get-a-store.html',
    ]);
    expect(site.file('index.html')).toContain('href="api-reference/pets/list-pets.html"');
    const html = site.file('api-reference/stores/get-a-store.html');
    expect(html).toMatch(
      /Stores[\s\S]*Get a store[\s\S]*Pets[\s\S]*List pets[\s\S]*Create a pet[\s\S]*Health/,
    );
    for (const title of ['List pets', 'Create a pet', 'Get a store', 'Health']) expect(html).toContain(title);
  });

  it('openapi on a group, an anchor and the navigation itself', async () => {
    for (const navigation of [
      {
        groups: [
          { group: 'Start', pages: ['index'] },
          { group: 'API', openapi: '/openapi.json' },
        ],
      },
      {
        anchors: [
          { anchor: 'Docs', pages: ['index'] },
          { anchor: 'API', openapi: 'openapi.json' },
        ],
      },
      { openapi: 'openapi.json', pages: ['index'] },
    ]) {
      const site = await loadSite(
        docsRepo({
          'docs.json': { name: 'API', navigation },
          'index.mdx': page('Home'),
          'openapi.json': spec,
        }),
        resolveOptions(),
      );
      const all = site.sections.flatMap((section) => labels(section.items, site.pages));
      const shown = JSON.stringify(all);
      // Tags in the document's order (Stores before Pets), an operation under its first tag, untagged ones last, in a group of their own.
      if ('openapi' in navigation && navigation.pages) expect(shown).toContain('"Home"');
      else
        expect(shown).toMatch(
          /\{"Stores":\["Get a store"\]\},\{"Pets":\["List pets","Create a pet"\]\},\{"Your orders":\["List orders"\]\},\{"API Reference":\["Health"\]\}/,
        );
      // x-hidden operations get no page.
      expect(shown).not.toContain('Internal');
      expect(site.warnings).toEqual([]);
    }
  });

  it('openapi given as a URL the export does not read: a warning on the level, never silence', async () => {
    const site = await loadSite(
      docsRepo({
        'docs.json': {
          name: 'API',
          navigation: {
            tabs: [
              { tab: 'Guides', pages: ['index'] },
              { tab: 'API', openapi: 'https://api.example.com/openapi.json' },
            ],
          },
        },
        'index.mdx': page('Home'),
      }),
      resolveOptions(),
    );
    expect(site.warnings).toContainEqual({
      file: 'docs.json',
      message: expect.stringMatching(
        /^navigation\.tabs\[1\]\.openapi: "https:\/\/api\.example\.com\/openapi\.json" is not read: .*--openapi-override/,
      ),
    });
  });

  it('an OpenAPI document that does not load is a warning naming it', async () => {
    const site = await loadSite(
      docsRepo({
        'docs.json': {
          name: 'API',
          navigation: {
            groups: [
              { group: 'Start', pages: ['index'] },
              { group: 'API', openapi: 'broken.yaml' },
            ],
          },
        },
        'index.mdx': page('Home'),
        'broken.yaml': 'openapi: [',
      }),
      resolveOptions(),
    );
    expect(site.warnings).toContainEqual({
      file: 'docs.json',
      message: expect.stringMatching(
        /^navigation\.groups\[1\]\.openapi: .*broken\.yaml.*; no pages were made for it$/,
      ),
    });
  });
});
