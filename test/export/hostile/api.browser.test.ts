import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import type { Element } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import type { Browser } from 'playwright-core';
import { visit } from 'unist-util-visit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportSite } from '../../../src/export/pipeline.ts';
import { launchChromium, serveSite } from '../browser-harness.ts';
import { docsRepo, tempDir } from '../fixtures.ts';
import { hostileUrlsIn } from './scan.ts';

/**
 * A hostile OpenAPI document: its servers, parameter and field names, examples, code samples and
 * security schemes go into the API page's samples, its playground form (attributes) and the
 * playground's script. None may become script, a handler, a script URL or a request the reader
 * did not send.
 */

const X = (n: number) => `"><img src=x onerror=alert(${n})>`;

const document = {
  openapi: '3.1.0',
  info: { title: 'Hostile', version: '1' },
  servers: [
    { url: 'javascript:alert(1)//' },
    { url: `https://api.example.com/${X(2)}` },
    { url: '{s}://x.example.com', variables: { s: { default: 'javascript' } } },
  ],
  components: {
    securitySchemes: {
      [X(3)]: { type: 'apiKey', in: 'header', name: X(4) },
      basic: { type: 'http', scheme: `basic${X(5)}` },
    },
  },
  security: [{ [X(3)]: [] }],
  paths: {
    '/items/{id}': {
      post: {
        summary: 'Create item',
        description: '[click](javascript:alert(6)) <script>alert(7)</script>',
        parameters: [
          {
            name: X(8),
            in: 'query',
            required: true,
            schema: { type: 'string', example: '</script><script>alert(9)</script>' },
          },
          { name: 'id', in: 'path', required: true, schema: { type: 'string', example: X(10) } },
          { name: 'x-h', in: 'header', schema: { type: 'string', default: "'; alert(11); '" } },
        ],
        requestBody: {
          content: {
            'multipart/form-data': {
              schema: {
                type: 'object',
                properties: {
                  [X(12)]: { type: 'string', example: '</textarea><script>alert(13)</script>' },
                  file: { type: 'string', format: 'binary' },
                },
              },
            },
          },
        },
        'x-codeSamples': [
          { lang: X(14), label: X(15), source: '</code></pre><script>alert(16)</script>' },
          { lang: 'python', source: 'print("</script><script>alert(17)</script>")' },
        ],
        responses: {
          200: {
            description: 'OK',
            content: { 'application/json': { example: { html: '<script>alert(18)</script>' } } },
          },
        },
      },
    },
  },
};

let browser: Browser;
let outDir: string;
let http: { base: string; server: Server };

beforeAll(async () => {
  outDir = join(tempDir(), 'site');
  await exportSite({
    source: docsRepo({
      'docs.json': {
        name: 'Hostile API',
        navigation: { tabs: [{ tab: 'API', openapi: 'openapi.json', pages: ['POST /items/{id}'] }] },
      },
      'openapi.json': document,
    }),
    outDir,
    workers: 1,
  });
  http = await serveSite(outDir);
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => http?.server.close(resolve));
});

describe('a hostile OpenAPI document on an API page with its playground', () => {
  it('leaves no script, handler or script URL in the page; servers that are not http(s) are dropped', () => {
    const html = readFileSync(join(outDir, 'api/create-item.html'), 'utf8');
    const found: string[] = [];
    visit(fromHtml(html), 'element', (node: Element) => {
      const text = node.children.map((child) => ('value' in child ? child.value : '')).join('');
      if (node.tagName === 'script' && /alert/.test(text)) found.push(`inline script: ${text.slice(0, 60)}`);
      for (const name of Object.keys(node.properties))
        if (/^on/i.test(name)) found.push(`<${node.tagName} ${name}>`);
      if (node.tagName === 'img') found.push(`<img ${String(node.properties.src)}>`);
    });
    expect(found).toEqual([]);
    expect(hostileUrlsIn(outDir, [])).toEqual([]);
    expect(html).not.toMatch(/value="javascript:/i);
    expect(html).toContain('https://api.example.com/');
  });

  it('runs nothing and sends nothing while a reader opens the playground, fills it in and presses Send', async () => {
    const context = await browser.newContext();
    const tab = await context.newPage();
    const dialogs: string[] = [];
    const requests: string[] = [];
    tab.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    tab.on('request', (request) => {
      if (!request.url().startsWith(http.base)) requests.push(request.url());
    });
    await tab.goto(`${http.base}api/create-item.html`);
    await tab.click('.ds-try-summary');
    expect(requests).toEqual([]);
    // A base URL typed in as javascript: is refused in words, not followed.
    await tab.fill('[data-try="base"]', 'javascript:alert(19)');
    await tab.click('.ds-try-send');
    await expect.poll(() => tab.textContent('.ds-try-result')).toContain('must be http or https');
    // Every field filled with the document's own hostile example values, then sent to a closed port.
    for (const input of await tab.$$('[data-try="param"]')) {
      const placeholder = (await input.getAttribute('placeholder')) ?? 'x';
      await input.fill(placeholder);
    }
    await tab.fill('[data-try="base"]', 'http://127.0.0.1:9');
    await tab.click('.ds-try-send');
    await expect.poll(() => tab.textContent('.ds-try-result')).toMatch(/No response/);
    expect(dialogs).toEqual([]);
    expect(requests.every((url) => url.startsWith('http://127.0.0.1:9/'))).toBe(true);
    await context.close();
  });
});
