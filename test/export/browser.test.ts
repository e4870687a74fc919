import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportSite } from '../../src/export/pipeline.ts';
import { ArchiveStore, startTestServer } from '../serve/helpers.ts';
import { accessibilityViolations, launchChromium, serveSite } from './browser-harness.ts';
import {
  CORPORA,
  docsRepo,
  EXAMPLE_SITE,
  HAVE_CORPORA,
  page,
  syntheticSite,
  tempDir,
  withoutCorpora,
} from './fixtures.ts';

const site = docsRepo({
  'docs.json': {
    name: 'Browser Test Docs',
    colors: { primary: '#0D9373' },
    variations: {
      options: [
        { id: 'cloud', label: 'Cloud' },
        { id: 'self-hosted', label: 'Self-hosted' },
      ],
    },
    navigation: {
      tabs: [
        {
          tab: 'Guides',
          groups: [{ group: 'Start', pages: ['index', 'guide/widgets', 'guide/components'] }],
        },
      ],
    },
  },
  'index.mdx': page(
    'Welcome',
    [
      '## Install',
      '',
      '<Tabs>',
      '  <Tab title="npm">',
      '    Install with npm.',
      '  </Tab>',
      '  <Tab title="yarn">',
      '    Install with yarn, the second tab.',
      '  </Tab>',
      '</Tabs>',
      '',
      '<AccordionGroup>',
      '  <Accordion title="Troubleshooting">',
      '    Hidden answer until opened.',
      '  </Accordion>',
      '</AccordionGroup>',
    ].join('\n'),
  ),
  'guide/widgets.mdx': page(
    'Widgets',
    '## Configure the flux capacitor\n\nThe zanzibar setting tunes the flux capacitor.',
  ),
  'guide/components.mdx': page(
    'Components',
    [
      '## Cards',
      '',
      '<CardGroup cols={2}>',
      '  <Card title="Widgets" icon="rocket" href="/guide/widgets">Configure widgets.</Card>',
      '  <Card title="Home" icon="house" href="/">Back home.</Card>',
      '</CardGroup>',
      '',
      '<Note>A note with a [link](/guide/widgets).</Note>',
      '',
      '## Steps',
      '',
      '<Steps>',
      '  <Step title="Install">Run the installer.</Step>',
      '  <Step title="Configure">Edit the file.</Step>',
      '</Steps>',
      '',
      '<CodeGroup>',
      '```bash install.sh',
      'npm install docsnap',
      '```',
      '```ts client.ts {2}',
      'import { x } from "y";',
      'const value = x(1);',
      '```',
      '</CodeGroup>',
      '',
      '<ParamField path="id" type="string" required>The identifier.</ParamField>',
      '',
      '<Expandable title="more fields">Hidden fields.</Expandable>',
      '',
      'A <Tooltip tip="Static export">bundle</Tooltip> and a <Badge>New</Badge>.',
      '',
      '<Frame caption="A figure"><img src="/images/pic.svg" alt="A picture" /></Frame>',
      '',
      '| Field | Type |',
      '|---|---|',
      '| `id` | string |',
      '',
      '## More components',
      '',
      '<Columns cols={2}>',
      '  <Tile href="/guide/widgets" title="Widgets" description="A preview"><img src="/images/pic.svg" alt="Widgets preview" /></Tile>',
      '  <Column>A column of text.</Column>',
      '</Columns>',
      '',
      '<Prompt description="A prompt to copy">Summarize the page.</Prompt>',
      '',
      '<Color variant="compact"><Color.Item name="brand" value="#0D9373" /></Color>',
      '',
      '<GitHub.Repo repo="acme/docs" />',
      '',
      '<View title="JavaScript">JavaScript text.</View>',
      '',
      '<View title="Python">Python text.</View>',
      '',
      'Inline math $E = mc^2$ and a block:',
      '',
      '$$',
      'x^2 + y^2 = z^2',
      '$$',
      '',
      '<img className="dark:hidden" src="/images/pic.svg" alt="Light picture" />',
      '<img className="hidden dark:block" src="/images/pic.svg" alt="Dark picture" />',
      '',
      'An <Popup><PopupTrigger>API key</PopupTrigger><PopupContent>A secret **token**.</PopupContent></Popup> is needed; ask <Mention user="ada@example.com" /> or read <Mention page="/guide/widgets" />, <RainbowText>fast</RainbowText>.',
      '',
      '<Timeline>',
      '  <Timeline.Item title="Launch" date="2025-03-01" icon="rocket" color="blue">Live.</Timeline.Item>',
      '  <Timeline.Item title="Beta" date="2025-01-01">Tried.</Timeline.Item>',
      '</Timeline>',
      '',
      '<Terminal title="Setup">',
      '$ npm install',
      'added 3 packages',
      '</Terminal>',
      '',
      '<Graph type="line" title="Visits" xKey="month" yKey="visits">',
      '  {[{ month: "Jan", visits: 10 }, { month: "Feb", visits: 30 }, { month: "Mar", visits: 20 }]}',
      '</Graph>',
      '',
      '<Graph type="donut" title="Share" xKey="os" yKey="users">',
      '  {[{ os: "Linux", users: 5 }, { os: "macOS", users: 3 }]}',
      '</Graph>',
      '',
      '<Banner type="warning">Maintenance tonight.</Banner>',
      '',
      '<Variation is="cloud">',
      '  Cloud steps.',
      '</Variation>',
      '',
      '<Variation is="self-hosted">',
      '  Steps on your own servers.',
      '</Variation>',
      '',
      '```mermaid',
      'flowchart TD',
      '  A[Write] --> B[Export]',
      '  B --> C[Serve]',
      '```',
    ].join('\n'),
  ),
  'images/pic.svg':
    '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="#0D9373"/></svg>',
});

let browser: Browser;
let server: Server;
let outDir: string;
let httpBase: string;

/** The same export fetched, verified and served by `docsnap serve`, with its own headers. */
let bundleServer: Awaited<ReturnType<typeof startTestServer>>;
const archiveStore = new ArchiveStore();

beforeAll(async () => {
  outDir = join(tempDir(), 'site');
  const archivePath = join(tempDir(), 'site.tar.gz');
  const exported = await exportSite({
    source: site,
    outDir,
    archivePath,
    options: { deployment: 'air-gapped' },
  });
  ({ base: httpBase, server } = await serveSite(outDir));
  await archiveStore.start();
  const link = archiveStore.put('/site.tar.gz', readFileSync(archivePath));
  bundleServer = await startTestServer({
    source: { values: { enabled: true, bundleUrl: link, version: `sha256:${exported.archive?.sha256}` } },
  });
  await bundleServer.settled();
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
  await bundleServer?.stop();
  await archiveStore.stop();
});

/**
 * Opens a page, recording every request that leaves the site's own origin and every
 * Content-Security-Policy violation the console reports. `bypassCSP` is for tests that inject
 * their own script (axe-core), which the page's policy rightly refuses.
 */
async function open(
  url: string,
  options: { bypassCSP?: boolean } = {},
): Promise<{ page: Page; foreign: string[]; violations: string[] }> {
  const context = await browser.newContext({ bypassCSP: options.bypassCSP ?? false });
  const tab = await context.newPage();
  const foreign: string[] = [];
  const violations: string[] = [];
  const origin = url.startsWith('file:') ? 'file:' : new URL(url).origin;
  tab.on('request', (request) => {
    const requested = request.url();
    if (!requested.startsWith(origin) && !requested.startsWith('data:')) foreign.push(requested);
  });
  tab.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await tab.goto(url);
  return { page: tab, foreign, violations };
}

describe.each([
  ['file://', () => pathToFileURL(join(outDir, 'index.html')).href],
  ['http', () => `${httpBase}index.html`],
  ['docsnap serve', () => `${bundleServer.url}/`],
])('an exported page in headless Chromium over %s', (_label, url) => {
  it('switches tabs and opens an accordion, loading nothing from elsewhere', async () => {
    const { page: tab, foreign, violations } = await open(url());
    await expect
      .poll(() => tab.evaluate(() => document.documentElement.dataset.theme))
      .toMatch(/^(light|dark)$/);

    const second = tab.getByRole('tab', { name: 'yarn' });
    await second.click();
    await expect.poll(() => second.getAttribute('aria-selected')).toBe('true');
    expect(await tab.getByText('Install with yarn, the second tab.').isVisible()).toBe(true);
    expect(await tab.getByText('Install with npm.').isVisible()).toBe(false);
    // Keyboard: arrow left goes back to the first tab.
    await second.press('ArrowLeft');
    await expect.poll(() => tab.getByRole('tab', { name: 'npm' }).getAttribute('aria-selected')).toBe('true');

    const answer = tab.getByText('Hidden answer until opened.');
    expect(await answer.isVisible()).toBe(false);
    await tab.getByText('Troubleshooting').click();
    await expect.poll(() => answer.isVisible()).toBe(true);

    await tab.locator('.ds-theme-toggle').click();
    const theme = await tab.evaluate(() => document.documentElement.dataset.theme);
    expect(['light', 'dark']).toContain(theme);
    expect(foreign).toEqual([]);
    expect(violations).toEqual([]);
    await tab.context().close();
  });

  it('finds a page through the offline search and follows the result', async () => {
    const { page: tab, foreign, violations } = await open(url());
    await tab.locator('.ds-search-trigger').click();
    const dialog = tab.getByRole('dialog');
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await dialog.locator('input').fill('zanzibar');
    const result = dialog
      .getByRole('link')
      .or(dialog.getByRole('option'))
      .filter({ hasText: 'Widgets' })
      .first();
    await expect.poll(() => result.isVisible(), { timeout: 10_000 }).toBe(true);
    await result.click();
    await expect.poll(() => tab.url()).toMatch(/guide\/widgets\.html/);
    expect(await tab.locator('h1').textContent()).toBe('Widgets');
    expect(foreign).toEqual([]);
    expect(violations).toEqual([]);
    await tab.context().close();
  });
});

describe('the sidebar of a large section in headless Chromium', () => {
  it('fills a collapsed group from its navigation script when opened, from file://', {
    timeout: 120_000,
  }, async () => {
    // 500 synthetic pages: the first section has 425, over the inline sidebar limit.
    const source = syntheticSite(500);
    const first = source.pages[0];
    expect(source.pages.filter((p) => p.section === first?.section).length).toBeGreaterThan(200);
    const out = join(tempDir(), 'site');
    await exportSite({ source: source.dir, outDir: out, options: { deployment: 'air-gapped' } });
    const {
      page: tab,
      foreign,
      violations,
    } = await open(pathToFileURL(join(out, `${first?.path}.html`)).href);
    const group = tab.locator('#ds-sidebar details[data-g]').last();
    expect(await group.locator('a').count()).toBe(0);
    await group.locator('summary').click();
    await expect.poll(() => group.locator('a').count()).toBeGreaterThan(3);
    const link = group.locator('a').first();
    const title = await link.textContent();
    await link.click();
    await expect.poll(() => tab.locator('h1').textContent()).toBe(title);
    expect(foreign).toEqual([]);
    expect(violations).toEqual([]);
    await tab.context().close();
  });
});

describe('accessibility in headless Chromium (axe-core)', () => {
  it('finds no violation on pages built from components, in light and dark themes', async () => {
    for (const theme of ['light', 'dark']) {
      for (const file of ['index.html', 'guide/components.html']) {
        const context = await browser.newContext({ bypassCSP: true });
        await context.addInitScript((t) => localStorage.setItem('ds-theme', t), theme);
        const tab = await context.newPage();
        await tab.goto(pathToFileURL(join(outDir, file)).href);
        // The diagram as drawn is part of the page: wait for it.
        if (file === 'guide/components.html') await tab.waitForSelector('.ds-mermaid-drawn svg');
        expect(await accessibilityViolations(tab), `${file} (${theme})`).toEqual([]);
        await context.close();
      }
    }
  });

  it('finds no violation on pages of the example site, API reference included', {
    timeout: 120_000,
  }, async () => {
    const out = join(tempDir(), 'example');
    await exportSite({ source: EXAMPLE_SITE, outDir: out, options: { deployment: 'air-gapped' } });
    for (const file of [
      'introduction.html',
      'export/writing-pages.html',
      'operator/targets.html',
      'api-reference/start-static-export-job.html',
    ]) {
      const { page: tab } = await open(pathToFileURL(join(out, file)).href, { bypassCSP: true });
      expect(await accessibilityViolations(tab), file).toEqual([]);
      await tab.context().close();
    }
  });

  it.skipIf(!HAVE_CORPORA)(
    withoutCorpora("finds no violation in the page chrome of real corpus pages (the authors' content aside)"),
    {
      timeout: 120_000,
    },
    async () => {
      const out = join(tempDir(), 'mcp');
      await exportSite({
        source: join(CORPORA, 'mcp-docs'),
        outDir: out,
        options: { deployment: 'air-gapped' },
      });
      for (const file of ['introduction.html', 'quickstart/server.html', 'docs/concepts/tools.html']) {
        const { page: tab } = await open(pathToFileURL(join(out, file)).href, { bypassCSP: true });
        expect(await accessibilityViolations(tab, ['.ds-content']), file).toEqual([]);
        await tab.context().close();
      }
    },
  );
});
