import type { Server } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportSite } from '../../../src/export/pipeline.ts';
import { launchChromium, serveSite } from '../browser-harness.ts';
import { docsRepo, page, tempDir } from '../fixtures.ts';
import { hostileRepo } from './hostile-repo.ts';

/**
 * The hostile repository's pages in headless Chromium, over http and file://. Its Content-Security-
 * Policy is bypassed here, so that what is tested is the export itself (URL and HTML policies,
 * the theme's script); the policy has its own tests below, on pages that must work under it.
 */

const HOSTILE_PAGES = [
  'index.html',
  'raw.html',
  'custom.html',
  'clobber-name.html',
  'external.html',
  'external-data.html',
  'big/p0.html',
];

let browser: Browser;
let hostileDir: string;
let hostile: { base: string; server: Server };

beforeAll(async () => {
  hostileDir = join(tempDir(), 'hostile');
  await exportSite({
    source: hostileRepo(),
    outDir: hostileDir,
    workers: 1,
    options: { deployment: 'cloud' },
  });
  hostile = await serveSite(hostileDir);
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => hostile?.server.close(resolve));
});

/** What a page did that it must not: dialogs, script URLs, requests for repository files as scripts. */
interface Trouble {
  dialogs: string[];
  scriptUrls: string[];
  badRequests: string[];
}

/**
 * A context that records trouble. Following a link to an http(s), file, mailto or tel URL is
 * recorded and cancelled (it cannot run script here, and leaving would end the test); a link to
 * any other URL is left to the browser, so a javascript: one would run and open a dialog.
 */
async function watchedContext(): Promise<{ context: BrowserContext; trouble: Trouble }> {
  const context = await browser.newContext({ bypassCSP: true });
  const trouble: Trouble = { dialogs: [], scriptUrls: [], badRequests: [] };
  await context.addInitScript(() => {
    addEventListener(
      'click',
      (event) => {
        const link = (event.target as Element | null)?.closest?.('a');
        if (link && /^(?:https?|file|mailto|tel):$/.test(link.protocol)) event.preventDefault();
      },
      true,
    );
  });
  // Nothing leaves the machine: other origins are refused.
  await context.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) => route.abort());
  context.on('page', (tab) => {
    tab.on('dialog', (dialog) => {
      trouble.dialogs.push(`${tab.url()}: ${dialog.message()}`);
      void dialog.dismiss();
    });
    tab.on('request', (request) => {
      const url = request.url();
      const scriptOutsideTheme = request.resourceType() === 'script' && !/\/_docsnap\//.test(url);
      if (/payload\.txt/.test(url) || scriptOutsideTheme) trouble.badRequests.push(url);
    });
    tab.on('framenavigated', (frame) => {
      if (/^(?:javascript|vbscript|data):/i.test(frame.url())) trouble.scriptUrls.push(frame.url());
    });
  });
  return { context, trouble };
}

/** Opens every closed <details> (lazy sidebar groups, the clobbering fixtures' fake groups). */
async function openEveryGroup(tab: Page): Promise<void> {
  const summaries = await tab.locator('details:not([open]) > summary').all();
  for (const summary of summaries) await summary.evaluate((node: HTMLElement) => node.click());
}

describe.each([
  ['http', (file: string) => `${hostile.base}${file}`],
  ['file://', (file: string) => pathToFileURL(join(hostileDir, file)).href],
])('the hostile site over %s', (_label, urlOf) => {
  it('runs no script when every link is clicked, and loads no repository file as script', {
    timeout: 120_000,
  }, async () => {
    const { context, trouble } = await watchedContext();
    const tab = await context.newPage();
    let clicked = 0;
    for (const file of HOSTILE_PAGES) {
      await tab.goto(urlOf(file));
      await openEveryGroup(tab);
      // Lazily filled groups arrive from the section's navigation script.
      if (file.startsWith('big/'))
        await expect.poll(() => tab.locator('nav.ds-sidebar details a').count()).toBeGreaterThan(100);
      const protocols: string[] = await tab.$$eval('a[href]', (links) =>
        links.map((link) => (link as HTMLAnchorElement).protocol),
      );
      expect(
        protocols.filter((p) => !/^(?:https?|file|mailto|tel):$/.test(p)),
        file,
      ).toEqual([]);
      const count = await tab.locator('a').count();
      for (let i = 0; i < count; i++) {
        await tab
          .locator('a')
          .nth(i)
          .evaluate((link: HTMLElement) => link.click());
        clicked++;
      }
      // A javascript: URL runs as a task after the click: give it time to show itself.
      await tab.waitForTimeout(200);
      expect(tab.url(), `${file} was left`).toBe(urlOf(file));
    }
    expect(clicked).toBeGreaterThan(300);
    expect(trouble).toEqual({ dialogs: [], scriptUrls: [], badRequests: [] });
    await context.close();
  });

  it('keeps the theme script to its own settings on pages that fake its sidebar', async () => {
    const { context, trouble } = await watchedContext();
    const tab = await context.newPage();
    const impostors: Record<string, number> = {};
    for (const file of ['custom.html', 'clobber-name.html']) {
      await tab.goto(urlOf(file));
      await openEveryGroup(tab);
      await tab.waitForTimeout(200);
      impostors[file] = await tab.locator('#ds-sidebar, body [name], .ds-sidebar').count();
      // The theme still works: the toggle switches the theme.
      const before = await tab.evaluate(() => document.documentElement.dataset.theme);
      await tab.locator('header .ds-theme-toggle').click();
      expect(await tab.evaluate(() => document.documentElement.dataset.theme)).not.toBe(before);
    }
    expect(trouble).toEqual({ dialogs: [], scriptUrls: [], badRequests: [] });
    expect(impostors).toEqual({ 'custom.html': 0, 'clobber-name.html': 0 });
    await context.close();
  });
});

describe('the Content-Security-Policy in headless Chromium', () => {
  const site = docsRepo({
    'docs.json': {
      name: 'CSP Docs',
      navigation: { groups: [{ group: 'Start', pages: ['index', 'other'] }] },
    },
    'index.mdx': page(
      'Welcome',
      [
        '<Tabs>',
        '  <Tab title="npm">Install with npm.</Tab>',
        '  <Tab title="yarn">Install with yarn.</Tab>',
        '</Tabs>',
        '',
        'Text in <span id="coloured" style={{ color: "rebeccapurple" }}>colour</span>.',
        '',
        '```bash',
        'npm install docsnap',
        '```',
      ].join('\n'),
    ),
    'other.mdx': page('Other', 'The zanzibar page.'),
  });
  const sites = new Map<string, { dir: string; base: string; server: Server }>();

  beforeAll(async () => {
    for (const deployment of ['cloud', 'air-gapped'] as const) {
      const dir = join(tempDir(), deployment);
      await exportSite({ source: site, outDir: dir, workers: 1, options: { deployment } });
      sites.set(deployment, { dir, ...(await serveSite(dir)) });
    }
  }, 60_000);

  afterAll(async () => {
    for (const { server } of sites.values()) await new Promise((resolve) => server.close(resolve));
  });

  describe.each([
    ['cloud', 'http'],
    ['cloud', 'file://'],
    ['air-gapped', 'http'],
    ['air-gapped', 'file://'],
  ] as const)('a %s export over %s', (deployment, transport) => {
    it('keeps tabs, theme toggle and search working with no violation, and refuses injected script', async () => {
      const served = sites.get(deployment);
      if (!served) throw new Error('site not exported');
      const url =
        transport === 'http'
          ? `${served.base}index.html`
          : pathToFileURL(join(served.dir, 'index.html')).href;
      const context = await browser.newContext();
      const tab = await context.newPage();
      const violations: string[] = [];
      tab.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
      });
      await tab.goto(url);

      await tab.getByRole('tab', { name: 'yarn' }).click();
      await expect.poll(() => tab.getByText('Install with yarn.').isVisible()).toBe(true);
      const before = await tab.evaluate(() => document.documentElement.dataset.theme);
      await tab.locator('.ds-theme-toggle').click();
      expect(await tab.evaluate(() => document.documentElement.dataset.theme)).not.toBe(before);
      await tab.locator('.ds-search-trigger').click();
      await tab.getByRole('dialog').locator('input').fill('zanzibar');
      await expect
        .poll(() => tab.getByRole('dialog').getByRole('option').filter({ hasText: 'Other' }).count())
        .toBeGreaterThan(0);
      // Style attributes (authors', components') are allowed.
      expect(await tab.locator('#coloured').evaluate((n) => getComputedStyle(n).color)).toBe(
        'rgb(102, 51, 153)',
      );
      expect(violations).toEqual([]);

      // The policy is in force: a script injected into the page does not run.
      const ran = await tab.evaluate(async () => {
        const script = document.createElement('script');
        script.textContent = 'window.injected = true';
        document.body.appendChild(script);
        await new Promise((resolve) => setTimeout(resolve, 50));
        return (window as unknown as { injected?: boolean }).injected === true;
      });
      expect(ran).toBe(false);
      await expect.poll(() => violations.length).toBeGreaterThan(0);
      await context.close();
    });
  });
});
