import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ExportResult, exportSite } from '../../../src/export/pipeline.ts';
import { launchChromium, serveSite } from '../browser-harness.ts';
import { docsRepo, page, tempDir } from '../fixtures.ts';

/**
 * The repository's own stylesheets are loaded on every page, as the platform does: published
 * through the stylesheet policy, linked from every page, applied by a real browser.
 */

const repo = () =>
  docsRepo({
    'docs.json': {
      name: 'Styled',
      navigation: { groups: [{ group: 'Start', pages: ['index', 'guides/deep/page'] }] },
    },
    'index.mdx': page('Home', '<div className="brand-box">Brand</div>'),
    'guides/deep/page.mdx': page('Deep', '<div className="brand-box">Deep</div>'),
    'style.css': '.brand-box { color: rgb(1, 2, 3); background-image: url("/images/dot.png"); }\n',
    'theme/remote.css':
      '@import url(https://fonts.example.com/x.css);\n.brand-box { border-top: 3px solid rgb(4, 5, 6); }\n.remote { background: url(https://cdn.example.com/a.png) }\n',
    'theme/broken.css': '.brand-box { color: red',
    'images/dot.png': Buffer.from('89504e470d0a1a0a', 'hex').toString('latin1'),
  });

let browser: Browser;
let http: { base: string; server: Server };
let outDir: string;
let result: ExportResult;

beforeAll(async () => {
  outDir = join(tempDir(), 'site');
  result = await exportSite({ source: repo(), outDir, options: { deployment: 'air-gapped' } });
  http = await serveSite(outDir);
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  http?.server.close();
});

describe("the repository's stylesheets", () => {
  it('are published through the policy and applied on every page, at any depth', async () => {
    const tab = await browser.newPage();
    const failed: string[] = [];
    tab.on('response', (response) => {
      if (response.status() >= 400) failed.push(response.url());
    });
    for (const path of ['index.html', 'guides/deep/page.html']) {
      await tab.goto(`${http.base}${path}`);
      const style = await tab
        .locator('.brand-box')
        .evaluate((node) => [getComputedStyle(node).color, getComputedStyle(node).borderTopColor]);
      expect(style).toEqual(['rgb(1, 2, 3)', 'rgb(4, 5, 6)']);
    }
    expect(failed).toEqual([]);
    await tab.close();
  });

  it('lose what loads from elsewhere in an air-gapped export, with a warning naming the file and line', () => {
    const css = readFileSync(join(outDir, 'theme/remote.css'), 'utf8');
    expect(css).not.toContain('example.com');
    expect(readFileSync(join(outDir, 'style.css'), 'utf8')).toContain('url("images/dot.png")');
    const messages = result.warnings.filter((w) => w.file === 'theme/remote.css').map((w) => w.message);
    expect(messages).toEqual([
      expect.stringMatching(/^line 1: @import removed/),
      expect.stringMatching(/^line 3: background removed/),
    ]);
  });

  it('are left out, and not linked, when the policy refuses them', () => {
    expect(result.warnings).toContainEqual({
      file: 'theme/broken.css',
      message: expect.stringMatching(/^not valid CSS .*; the stylesheet is left out$/),
    });
    expect(result.manifest.files['theme/broken.css']).toBeUndefined();
    expect(readFileSync(join(outDir, 'index.html'), 'utf8')).not.toContain('broken.css');
    expect(result.manifest.files['theme/remote.css']).toBeDefined();
  });
});
