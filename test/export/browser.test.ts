import { execFileSync } from 'node:child_process';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportSite } from '../../src/export/pipeline.ts';
import { docsRepo, GENERATOR, page, tempDir } from './fixtures.ts';

const CHROMIUM = '/usr/bin/chromium';
const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.css': 'text/css',
  '.js': 'text/javascript',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

const site = docsRepo({
  'docs.json': {
    name: 'Browser Test Docs',
    colors: { primary: '#0D9373' },
    navigation: {
      tabs: [{ tab: 'Guides', groups: [{ group: 'Start', pages: ['index', 'guide/widgets'] }] }],
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
});

let browser: Browser;
let server: Server;
let outDir: string;
let httpBase: string;

beforeAll(async () => {
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: install Debian's chromium package (apt-get install chromium)`);
  outDir = join(tempDir(), 'site');
  await exportSite({ source: site, outDir, options: { deployment: 'air-gapped' } });
  // A plain static file server on loopback, under a base path, as any static host would serve it.
  server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(
      /^\/docs\/?/,
      '',
    );
    let file = join(outDir, path);
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (!file.startsWith(outDir) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  httpBase = `http://127.0.0.1:${(server.address() as AddressInfo).port}/docs/`;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

/** Opens a page, recording every request that leaves the site's own origin. */
async function open(url: string): Promise<{ page: Page; foreign: string[] }> {
  const context = await browser.newContext();
  const tab = await context.newPage();
  const foreign: string[] = [];
  const origin = url.startsWith('file:') ? 'file:' : new URL(url).origin;
  tab.on('request', (request) => {
    const requested = request.url();
    if (!requested.startsWith(origin) && !requested.startsWith('data:')) foreign.push(requested);
  });
  await tab.goto(url);
  return { page: tab, foreign };
}

describe.each([
  ['file://', () => pathToFileURL(join(outDir, 'index.html')).href],
  ['http', () => `${httpBase}index.html`],
])('an exported page in headless Chromium over %s', (_label, url) => {
  it('switches tabs and opens an accordion, loading nothing from elsewhere', async () => {
    const { page: tab, foreign } = await open(url());
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
    await tab.context().close();
  });

  it('finds a page through the offline search and follows the result', async () => {
    const { page: tab, foreign } = await open(url());
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
    await tab.context().close();
  });
});

describe('the sidebar of a large section in headless Chromium', () => {
  it('fills a collapsed group from its navigation script when opened, from file://', {
    timeout: 120_000,
  }, async () => {
    // 500 synthetic pages: the first section has 250, over the inline sidebar limit.
    const source = join(tempDir(), 'large');
    execFileSync(process.execPath, [GENERATOR, '--pages', '500', '--out', source]);
    const out = join(tempDir(), 'site');
    await exportSite({ source, outDir: out, options: { deployment: 'air-gapped' } });
    const { page: tab, foreign } = await open(pathToFileURL(join(out, 'tab-0/g0/page-0.html')).href);
    const group = tab.locator('#ds-sidebar details[data-g]').last();
    expect(await group.locator('a').count()).toBe(0);
    await group.locator('summary').click();
    await expect.poll(() => group.locator('a').count()).toBeGreaterThan(3);
    const link = group.locator('a').first();
    const title = await link.textContent();
    await link.click();
    await expect.poll(() => tab.locator('h1').textContent()).toBe(title);
    expect(foreign).toEqual([]);
    await tab.context().close();
  });
});
