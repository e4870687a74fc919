import type { Server } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportSite } from '../../../src/export/pipeline.ts';
import { launchChromium, serveSite } from '../browser-harness.ts';
import { docsRepo, page, tempDir } from '../fixtures.ts';
import { BENIGN_ICON, MALICIOUS, SVG } from './svg-fixtures.ts';

/** Finding: a repository's SVG, opened on its own, ran script on the exported site's origin. */

/** Every way the attacks call out: a dialog, a console message, a request. */
const LOUD = `<svg ${SVG} onload="alert('onload')" width="40" height="40">
  <script>alert('script'); console.log('script ran')</script>
  <a href="javascript:alert('link')"><rect width="40" height="40" fill="#0a7"/></a>
</svg>`;

let browser: Browser;
let source: string;
let outDir: string;
let http: { base: string; server: Server };

beforeAll(async () => {
  const files: Record<string, string | object> = {
    'docs.json': {
      name: 'Hostile',
      colors: { primary: '#0a7' },
      navigation: { groups: [{ group: 'Start', pages: ['index'] }] },
    },
    'index.mdx': page('Home', '![Icon](/images/icon.svg)\n\n![Loud](/images/loud.svg)'),
    'images/icon.svg': BENIGN_ICON,
    'images/loud.svg': LOUD,
  };
  for (const [name, svg] of Object.entries(MALICIOUS)) files[`attacks/${name}`] = svg;
  source = docsRepo(files);
  outDir = join(tempDir(), 'site');
  await exportSite({ source, outDir, options: { deployment: 'air-gapped' } });
  http = await serveSite(outDir);
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  http?.server.close();
});

/**
 * Opens a URL in a fresh context, recording dialogs, console messages and page errors, and for
 * a file opened on its own (`alone`), any request besides the file itself.
 */
async function open(url: string, alone = false): Promise<{ tab: Page; noise: string[] }> {
  const context = await browser.newContext();
  const tab = await context.newPage();
  const noise: string[] = [];
  if (alone)
    tab.on('request', (request) => {
      if (request.url() !== url && !request.url().endsWith('/favicon.ico'))
        noise.push(`request: ${request.url()}`);
    });
  tab.on('dialog', (dialog) => {
    noise.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  tab.on('console', (message) => {
    // Over http, Chromium asks for /favicon.ico on its own; the export has none.
    if (message.location().url.endsWith('/favicon.ico')) return;
    noise.push(`console: ${message.text()}`);
  });
  tab.on('pageerror', (error) => noise.push(`error: ${error.message}`));
  await tab.goto(url);
  await tab.waitForLoadState('load');
  return { tab, noise };
}

/** Follows every link of the open document (a javascript: one would run). */
async function clickEveryLink(tab: Page): Promise<void> {
  await tab.locator('a').evaluateAll((links) => {
    for (const link of links)
      link.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
  });
}

/** The file as the browser parsed it: an SVG root, and no XML parse error. */
async function parsedAsSvg(tab: Page): Promise<boolean> {
  return tab.evaluate(
    () =>
      document.documentElement.localName === 'svg' &&
      document.documentElement.namespaceURI === 'http://www.w3.org/2000/svg' &&
      document.getElementsByTagName('parsererror').length === 0,
  );
}

describe('the harness', () => {
  it('sees the attack run when the repository file is opened as it is', async () => {
    const { tab, noise } = await open(pathToFileURL(join(source, 'images/loud.svg')).href);
    await expect.poll(() => noise.length).toBeGreaterThan(0);
    expect(noise.join('\n')).toMatch(/dialog: (script|onload)/);
    await tab.context().close();
  });
});

describe.each([
  ['file://', (path: string) => pathToFileURL(join(outDir, path)).href],
  ['http', (path: string) => `${http.base}${path}`],
])('exported SVG files opened on their own over %s', (_label, url) => {
  it.each(['images/loud.svg', ...Object.keys(MALICIOUS).map((name) => `attacks/${name}`)])(
    '%s runs no script and parses as SVG',
    async (path) => {
      const { tab, noise } = await open(url(path), true);
      expect(await parsedAsSvg(tab)).toBe(true);
      await clickEveryLink(tab);
      await tab.waitForTimeout(200); // time for a late onload or a click to call out
      expect(noise).toEqual([]);
      await tab.context().close();
    },
  );

  it('draws a benign icon exactly as the original does', async () => {
    const original = await open(pathToFileURL(join(source, 'images/icon.svg')).href);
    const exported = await open(url('images/icon.svg'));
    expect(await parsedAsSvg(exported.tab)).toBe(true);
    const clip = { x: 0, y: 0, width: 64, height: 64 };
    const before = await original.tab.screenshot({ clip });
    const after = await exported.tab.screenshot({ clip });
    expect(after.equals(before)).toBe(true);
    // A blank drawing would compare equal to another blank one: the icon is drawn.
    expect(new Set(before.subarray(100)).size).toBeGreaterThan(2);
    await original.tab.context().close();
    await exported.tab.context().close();
  });

  it('shows the icons in the page that embeds them', async () => {
    const { tab, noise } = await open(url('index.html'));
    for (const alt of ['Icon', 'Loud'])
      await expect
        .poll(() => tab.getByAltText(alt).evaluate((img) => (img as HTMLImageElement).naturalWidth))
        .toBeGreaterThan(0);
    expect(noise).toEqual([]);
    await tab.context().close();
  });
});
