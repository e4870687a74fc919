import type { Server } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportSite } from '../../../src/export/pipeline.ts';
import { startTestApi, type TestApi } from '../../api/helpers.ts';
import { accessibilityViolations, launchChromium, serveSite } from '../browser-harness.ts';
import { EXAMPLE_SITE, tempDir } from '../fixtures.ts';

/**
 * Dogfood: the example docs site's API reference is docsnap api's own OpenAPI document. Exported,
 * served, and opened in Chromium, its playground talks to a real `docsnap api` on loopback.
 */

const PAGE = 'api-reference/start-static-export-job.html';
let browser: Browser;
let server: Server;
let base: string;
let outDir: string;
let airGapped: string;
let api: TestApi;

beforeAll(async () => {
  outDir = join(tempDir(), 'site');
  await exportSite({ source: EXAMPLE_SITE, outDir, workers: 1 });
  const http = await serveSite(outDir);
  server = http.server;
  base = http.base;
  api = await startTestApi(
    '',
    undefined,
    undefined,
    `server: { host: 127.0.0.1, port: 0, corsOrigins: ["${new URL(base).origin}", "null"] }`,
  );
  airGapped = join(tempDir(), 'air-gapped');
  await exportSite({
    source: EXAMPLE_SITE,
    outDir: airGapped,
    options: { deployment: 'air-gapped', playgroundOrigins: [api.url] },
    workers: 1,
  });
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  server?.close();
  await api?.close();
});

async function send(tab: Page, fields: { base?: string; key?: string; body?: string }) {
  if (!(await tab.isVisible('.ds-try-form'))) await tab.click('.ds-try-summary');
  if (fields.base !== undefined) await tab.fill('[data-try="base"]', fields.base);
  if (fields.key !== undefined) await tab.fill('[data-try="auth"]', fields.key);
  if (fields.body !== undefined) await tab.fill('[data-try="body"]', fields.body);
  const before = await tab.$eval('.ds-try-result', (r) => r.textContent);
  await tab.click('.ds-try-send');
  await tab.waitForFunction((previous) => {
    const text = document.querySelector('.ds-try-result')?.textContent ?? '';
    return text !== previous && !text.startsWith('Sending');
  }, before);
  return {
    status: await tab.$eval('.ds-try-status', (s) => s.textContent ?? ''),
    text: await tab.$eval('.ds-try-result', (r) => r.textContent ?? ''),
  };
}

const BODY = JSON.stringify({ domain: 'docs.acme.test', paths: ['/introduction'] });

describe('the API playground against a real docsnap api', () => {
  for (const [how, url] of [
    ['http', () => `${base}${PAGE}`],
    ['file://', () => pathToFileURL(join(outDir, PAGE)).href],
  ] as const) {
    it(`starts an export (202 and a jobId), then shows 401 for a wrong key, over ${how}`, async () => {
      const tab = await browser.newPage();
      const requests: string[] = [];
      tab.on('request', (request) => requests.push(request.url()));
      await tab.goto(url());
      // Nothing is sent until Send is pressed.
      expect(requests.filter((r) => r.startsWith(api.url))).toEqual([]);
      const accepted = await send(tab, { base: api.url, key: api.keys.acme, body: BODY });
      expect(accepted.status).toMatch(/^202/);
      expect(accepted.text).toMatch(/"jobId": "se_[0-9a-f]{16}"/);
      const refused = await send(tab, { key: 'docsnap_wrong' });
      expect(refused.status).toMatch(/^401/);
      expect(refused.text).toContain('"error"');
      await tab.close();
    });
  }

  it('explains a request that gets no response: the server unreachable or not allowing this site (CORS)', async () => {
    const tab = await browser.newPage();
    await tab.goto(`${base}${PAGE}`);
    const closed = await send(tab, { base: 'http://127.0.0.1:9', key: api.keys.acme, body: BODY });
    expect(closed.status).toBe('No response');
    expect(closed.text).toMatch(/not reachable from here/);
    expect(closed.text).toMatch(/CORS headers \(Access-Control-Allow-Origin/);
    await tab.close();
  });

  it('keeps credentials in the page unless asked, then only for the tab', async () => {
    const context = await browser.newContext();
    const tab = await context.newPage();
    await tab.goto(`${base}${PAGE}`);
    await tab.click('.ds-try-summary');
    await tab.fill('[data-try="auth"]', 'docsnap_secret');
    await tab.reload();
    await tab.click('.ds-try-summary');
    expect(await tab.inputValue('[data-try="auth"]')).toBe('');
    await tab.fill('[data-try="auth"]', 'docsnap_secret');
    await tab.check('[data-try="remember"]');
    expect(await tab.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('ds-try')))).toEqual(
      [],
    );
    await tab.reload();
    await tab.click('.ds-try-summary');
    expect(await tab.inputValue('[data-try="auth"]')).toBe('docsnap_secret');
    await context.close();
  });

  it('works from the keyboard alone', async () => {
    const tab = await browser.newPage();
    await tab.goto(`${base}${PAGE}`);
    await tab.focus('.ds-try-summary');
    await tab.keyboard.press('Enter');
    await tab.focus('[data-try="base"]');
    await tab.keyboard.press('Control+A');
    await tab.keyboard.type(api.url);
    await tab.keyboard.press('Tab');
    await tab.keyboard.type(api.keys.acme);
    await tab.focus('[data-try="body"]');
    await tab.keyboard.press('Control+A');
    await tab.keyboard.type(BODY);
    await tab.focus('.ds-try-send');
    await tab.keyboard.press('Enter');
    await tab.waitForFunction(() =>
      /^\d{3}/.test(document.querySelector('.ds-try-status')?.textContent ?? ''),
    );
    expect(await tab.$eval('.ds-try-status', (s) => s.textContent)).toMatch(/^202/);
    await tab.close();
  });

  it('air-gapped: sends only to the origins the export named, in the page and in its policy', async () => {
    const tab = await browser.newPage();
    await tab.goto(pathToFileURL(join(airGapped, PAGE)).href);
    const policy = await tab.$eval('meta[http-equiv="Content-Security-Policy"]', (m) =>
      m.getAttribute('content'),
    );
    expect(policy).toContain(`connect-src 'self' ${api.url}`);
    const elsewhere = await send(tab, { base: 'http://127.0.0.2:9', key: api.keys.acme, body: BODY });
    expect(elsewhere.text).toContain(`This site may send requests only to ${api.url}`);
    const accepted = await send(tab, { base: api.url });
    expect(accepted.status).toMatch(/^202/);
    await tab.close();
  });

  it('request samples: every default language, the chosen one remembered across pages', async () => {
    const context = await browser.newContext();
    const tab = await context.newPage();
    await tab.goto(`${base}${PAGE}`);
    const options = await tab.$$eval('.ds-api-samples[data-samples="request"] option', (o) =>
      o.map((x) => x.textContent),
    );
    expect(options).toEqual(['cURL', 'Python', 'JavaScript', 'PHP', 'Go', 'Java', 'Ruby']);
    await tab.selectOption('.ds-api-samples[data-samples="request"] select', 'go');
    await tab.goto(`${base}api-reference/get-static-export-job-status.html`);
    const shown = await tab.$$eval('.ds-api-samples[data-samples="request"] .ds-api-sample', (s) =>
      s.filter((x) => !(x as HTMLElement).hidden).map((x) => (x as HTMLElement).dataset.sample),
    );
    expect(shown).toEqual(['go']);
    await context.close();
  });

  it('has no accessibility violation with the playground open and an answer shown, in light and dark themes (axe-core)', async () => {
    for (const theme of ['light', 'dark']) {
      // bypassCSP: axe is injected as a script the page's policy rightly refuses.
      const context = await browser.newContext({ bypassCSP: true });
      await context.addInitScript((t) => localStorage.setItem('ds-theme', t), theme);
      const tab = await context.newPage();
      await tab.goto(`${base}${PAGE}`);
      const answered = await send(tab, { base: api.url, key: 'docsnap_wrong', body: BODY });
      expect(answered.status).toMatch(/^401/);
      expect(await accessibilityViolations(tab), `answer (${theme})`).toEqual([]);
      await send(tab, { base: 'http://127.0.0.1:9' });
      expect(await accessibilityViolations(tab), `network explanation (${theme})`).toEqual([]);
      await context.close();
    }
  });
});
