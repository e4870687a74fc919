import { describe, expect, it } from 'vitest';
import { page } from '../fixtures.ts';
import { exportFixture } from './harness.ts';

const sidebarOf = (html: string) => /<nav id="ds-sidebar"[\s\S]*?<\/nav>/.exec(html)?.[0] ?? '';
const headerTabsOf = (html: string) => /<nav class="ds-tabs"[\s\S]*?<\/nav>/.exec(html)?.[0] ?? '';

describe('navigation', () => {
  it('hidden: on pages, groups and tabs', async () => {
    const site = await exportFixture({
      'docs.json': {
        name: 'Hidden',
        navigation: {
          tabs: [
            {
              tab: 'Guides',
              groups: [
                { group: 'Shown', pages: ['index', { page: 'quiet', hidden: true }] },
                { group: 'Secret group', hidden: true, pages: ['secret'] },
              ],
            },
            { tab: 'Internal', hidden: true, groups: [{ group: 'Ops', pages: ['ops/runbook'] }] },
          ],
        },
      },
      'index.mdx': page('Home'),
      'quiet.mdx': page('Quiet page'),
      'secret.mdx': page('Secret page'),
      'ops/runbook.mdx': page('Runbook'),
    });
    const home = site.file('index.html');
    // Every page is built…
    for (const path of ['quiet.html', 'secret.html', 'ops/runbook.html'])
      expect(site.file(path)).toContain('<h1');
    // …but hidden ones are not listed, and the hidden tab is not in the header.
    expect(sidebarOf(home)).toContain('Home');
    expect(sidebarOf(home)).not.toMatch(/Quiet page|Secret|Runbook/);
    expect(headerTabsOf(home)).toContain('Guides');
    expect(headerTabsOf(home)).not.toContain('Internal');
    // The hidden tab's own pages still show its sidebar.
    expect(sidebarOf(site.file('ops/runbook.html'))).toContain('Runbook');
    expect(site.warnings).toEqual([]);
  });

  it('root: a group with a root page', async () => {
    const site = await exportFixture({
      'docs.json': {
        name: 'Root',
        navigation: { groups: [{ group: 'Start', root: 'start/overview', pages: ['start/a'] }] },
      },
      'start/overview.mdx': page('Overview'),
      'start/a.mdx': page('A'),
    });
    expect(sidebarOf(site.file('start/a.html'))).toMatch(/Overview[\s\S]*A/);
  });

  it('expanded: a nested group open by default', async () => {
    const site = await exportFixture({
      'docs.json': {
        name: 'Expanded',
        navigation: {
          groups: [
            {
              group: 'Start',
              pages: [
                'index',
                { group: 'Open', expanded: true, pages: ['a'] },
                { group: 'Closed', pages: ['b'] },
              ],
            },
          ],
        },
      },
      'index.mdx': page('Home'),
      'a.mdx': page('A'),
      'b.mdx': page('B'),
    });
    const sidebar = sidebarOf(site.file('index.html'));
    expect(sidebar).toMatch(/<details open><summary>Open<\/summary>/);
    expect(sidebar).toMatch(/<details><summary>Closed<\/summary>/);
  });

  it('directory: a group root page lists its children, as cards or an accordion, inherited down the navigation', async () => {
    const site = await exportFixture({
      'docs.json': {
        name: 'Directory',
        navigation: {
          directory: 'card',
          groups: [
            {
              group: 'Guides',
              root: 'guides/index',
              pages: [
                'guides/a',
                {
                  group: 'Advanced',
                  root: 'guides/adv/index',
                  directory: 'accordion',
                  pages: ['guides/adv/b'],
                },
              ],
            },
          ],
        },
      },
      'guides/index.mdx': page('Guides'),
      'guides/a.mdx': '---\ntitle: A\ndescription: All about A\n---\n\nA.',
      'guides/adv/index.mdx': page('Advanced'),
      'guides/adv/b.mdx': page('B'),
    });
    const cards =
      /<nav class="ds-directory ds-columns"[\s\S]*?<\/nav>/.exec(site.file('guides.html'))?.[0] ?? '';
    expect(cards).toContain(
      '<a class="ds-card ds-card-linked" href="guides/a.html"><span class="ds-card-text"><span class="ds-card-title">A</span><span class="ds-card-content">All about A</span>',
    );
    expect(cards).toContain(
      'href="guides/adv.html"><span class="ds-card-text"><span class="ds-card-title">Advanced</span>',
    );
    const accordion =
      /<nav class="ds-directory"[\s\S]*?<\/nav>/.exec(site.file('guides/adv.html'))?.[0] ?? '';
    expect(accordion).toContain('<li><a href="adv/b.html">B</a></li>');
    expect(site.file('guides/a.html')).not.toContain('ds-directory');
  });

  it('tabs, anchors, dropdowns, products, versions, menus, global and href entries', async () => {
    const site = await exportFixture({
      'docs.json': {
        name: 'Kinds',
        navigation: {
          products: [
            {
              product: 'Cloud',
              versions: [
                {
                  version: 'v2',
                  tabs: [
                    {
                      tab: 'Guides',
                      groups: [
                        {
                          group: 'Start',
                          pages: [
                            'cloud/index',
                            {
                              group: 'Links',
                              pages: [{ href: 'https://status.example.com', label: 'Status' }],
                            },
                          ],
                        },
                      ],
                    },
                    {
                      tab: 'API',
                      menu: [
                        { item: 'REST', pages: ['cloud/rest'] },
                        { item: 'GraphQL', pages: ['cloud/graphql'] },
                      ],
                    },
                  ],
                },
                { version: 'v1', anchors: [{ anchor: 'Docs', pages: ['cloud/v1/index'] }] },
              ],
            },
            {
              product: 'Edge',
              dropdowns: [
                { dropdown: 'Runtime', pages: ['edge/index'] },
                { dropdown: 'CLI', pages: ['edge/cli'] },
              ],
            },
          ],
          global: { anchors: [{ anchor: 'Blog', href: 'https://blog.example.com' }] },
        },
      },
      'cloud/index.mdx': page('Cloud home'),
      'cloud/rest.mdx': page('REST'),
      'cloud/graphql.mdx': page('GraphQL'),
      'cloud/v1/index.mdx': page('Cloud v1'),
      'edge/index.mdx': page('Edge runtime'),
      'edge/cli.mdx': page('Edge CLI'),
    });
    expect(site.result.pageCount).toBe(6);
    const switchersOf = (html: string) =>
      [...html.matchAll(/<details class="ds-switcher ds-switcher-(\w+)"><summary[^>]*>([^<]*)</g)].map(
        (m) => `${m[1]}:${m[2]}`,
      );
    const home = site.file('cloud.html');
    expect(switchersOf(home)).toEqual(['product:Cloud', 'version:v2']);
    expect(headerTabsOf(home)).toContain('Guides');
    expect(headerTabsOf(home)).toContain('API');
    expect(home).toContain('>Blog</a>');
    expect(home).toContain('href="https://status.example.com"');
    expect(switchersOf(site.file('cloud/graphql.html'))).toEqual([
      'product:Cloud',
      'version:v2',
      'dropdown:GraphQL',
    ]);
    expect(switchersOf(site.file('edge/cli.html'))).toEqual(['product:Edge', 'dropdown:CLI']);
    expect(site.warnings).toEqual([]);
  });

  it('tag on groups and versions: a badge', async () => {
    const site = await exportFixture({
      'docs.json': {
        name: 'Tags',
        navigation: {
          versions: [
            { version: 'v2', tag: 'Latest', groups: [{ group: 'Start', tag: 'NEW', pages: ['index'] }] },
            { version: 'v1', pages: ['v1/index'] },
          ],
        },
      },
      'index.mdx': page('Home'),
      'v1/index.mdx': page('Old'),
    });
    const html = site.file('index.html');
    expect(html).toContain('Start<span class="ds-nav-tag">NEW</span>');
    expect(html).toContain('v2<span class="ds-nav-tag">Latest</span></a>');
  });

  it('navigation settings not applied yet: asyncapi, thumbnail, boost, anchor color, one note each', async () => {
    const site = await exportFixture({
      'docs.json': {
        name: 'Notes',
        navigation: {
          languages: [
            {
              language: 'en',
              banner: { content: 'Hi' },
              navbar: { links: [] },
              footer: { socials: {} },
              anchors: [
                {
                  anchor: 'Docs',
                  color: { light: '#000000', dark: '#ffffff' },
                  groups: [{ group: 'G', boost: 2, thumbnail: {}, pages: ['index'] }],
                },
                { anchor: 'Events', asyncapi: 'events.yaml', pages: ['events'] },
              ],
            },
          ],
        },
      },
      'index.mdx': page('Home'),
      'events.mdx': page('Events'),
    });
    expect(site.warnings.map((w) => w.replace(/^docs\.json: navigation (\w+).*$/, '$1')).sort()).toEqual([
      'asyncapi',
      'boost',
      'color',
      'thumbnail',
    ]);
  });
});
