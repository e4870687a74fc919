import { describe, expect, it } from 'vitest';
import { page } from '../fixtures.ts';
import { exportFixture } from './harness.ts';

const ids = (html: string, tag = 'h[1-6]') =>
  [...html.matchAll(new RegExp(`<(?:${tag}) id="([^"]*)"`, 'g'))].map((m) => m[1]?.replace(/&#x26;/g, '&'));

const body = [
  '## Getting Started',
  '## Step 1: Install',
  "## What's next?",
  '## Fees & billing',
  '## Use the `/config` menu',
  '## Node.js (v18+)',
  '## Café résumé',
  '## 日本語の見出し',
  '## Install <Badge>Beta</Badge>',
  '## <Icon icon="download" /> Download',
  '## Configuration options {#config}',
  '## Overview',
  '## Overview',
  '##### Fine print',
  '```md\n## Not a heading {#nope}\n```',
  '<ParamField path="userId" type="string">The user.</ParamField>',
  '<ResponseField name="userId" type="string">Again.</ResponseField>',
  '<Accordion title="I am an Accordion.">Text</Accordion>',
  '<Tabs><Tab title="C++">c</Tab><Tab title="Python">p</Tab></Tabs>',
  '<Tabs><Tab title="Go">g</Tab></Tabs>',
  '<CodeGroup>\n```js a.js\n1\n```\n</CodeGroup>',
  '<CodeGroup>\n```js b.js\n2\n```\n</CodeGroup>',
  '[a](#getting-started) [b](#config) [c](#param-user-id) [d](#param-user-id-1) [e](#i-am-an-accordion) [f](#python)',
  "[g](#What's-next) [h](#fees-&-billing) [i](/guide#step-1-install)",
].join('\n\n');

describe('anchors', () => {
  it('heading ids: the platform rules (punctuation, quotes, non-ASCII kept, component labels left out, repeats)', async () => {
    const site = await exportFixture({
      'docs.json': { name: 'Anchors', navigation: { groups: [{ group: 'G', pages: ['index', 'guide'] }] } },
      'index.mdx': page('Home', body),
      'guide.mdx': page('Guide', '## Step 1: Install'),
    });
    const html = site.file('index.html');
    expect(ids(html, 'h2|h5')).toEqual([
      'getting-started',
      'step-1-install',
      'what’s-next',
      'fees-&-billing',
      'use-the-/config-menu',
      'node-js-v18+',
      'café-résumé',
      '日本語の見出し',
      'install',
      'download',
      'config',
      'overview',
      'overview-2',
    ]);
    expect(html).toContain('<h5>Fine print</h5>');
    expect(html).toContain('## Not a heading {#nope}');
    expect(site.warnings).toEqual([]);
  });

  it('component ids: ParamField and ResponseField, Accordion, Tab', async () => {
    const site = await exportFixture({
      'docs.json': { name: 'Anchors', navigation: { groups: [{ group: 'G', pages: ['index', 'guide'] }] } },
      'index.mdx': page('Home', body),
      'guide.mdx': page('Guide', '## Step 1: Install'),
    });
    const html = site.file('index.html');
    expect(html).toContain('id="param-user-id"');
    expect(html).toContain('id="param-user-id-1"');
    expect(html).toContain('<details class="ds-accordion" id="i-am-an-accordion"');
    expect(html).toContain('role="tab" id="c%2B%2B"');
    expect(html).toContain('role="tab" id="python"');
    // Every id of the page is its own (components and headings alike).
    const all = [...html.matchAll(/ id="([^"]*)"/g)].map((m) => m[1]);
    expect(all.length).toBeGreaterThan(20);
    expect(new Set(all).size).toBe(all.length);
    // Links written the way the platform's link check forgives are linked to the id.
    expect(html).toContain('href="#what’s-next"');
  });
});
