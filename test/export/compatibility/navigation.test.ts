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
});
