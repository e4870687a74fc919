import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { diagramOptions } from '../../../src/export/diagrams/mermaid.ts';
import { exportedForBrowser } from '../compatibility/harness.ts';
import { page } from '../fixtures.ts';

/**
 * Mermaid diagrams: the source in the page, drawn in the browser by the Mermaid bundle the site
 * ships (only pages with a diagram load it), in the reader's theme, from http and file://, with
 * nothing loaded from elsewhere and nothing authored run.
 */

const FLOW = 'flowchart TD\n  A[Start] --> B{Ready?}\n  B -->|yes| C[Ship]\n  B -->|no| D[Fix]\n  D --> B';
const files = {
  'docs.json': {
    name: 'Diagrams',
    navigation: { groups: [{ group: 'G', pages: ['index', 'none', 'hostile'] }] },
  },
  'index.mdx': page(
    'Home',
    [
      '```mermaid placement="top-right"',
      FLOW,
      '```',
      '',
      '<Mermaid chart={"sequenceDiagram\\n  Alice->>Bob: Hello"} />',
      '',
      '```mermaid actions={false}',
      'flowchart TD',
      '  this is not ( mermaid',
      '```',
      '',
      '```mermaid',
      'flowchart LR',
      '  Short --> Wide',
      '```',
    ].join('\n'),
  ),
  'none.mdx': page('None', 'No diagram here.\n\n```js\nconst a = 1;\n```'),
  'hostile.mdx': page(
    'Hostile',
    [
      '```mermaid',
      'flowchart LR',
      '  A["<img src=x onerror=alert(1)>"] --> B["<script>alert(2)</script>"]',
      '  click A "javascript:alert(3)"',
      '  click B call alert(4)',
      '```',
    ].join('\n'),
  ),
};

const fixture = exportedForBrowser(files, { deployment: 'air-gapped' });

/** Opens a page, recording requests, failed responses, CSP violations and dialogs. */
async function open(url: string) {
  const tab = await fixture.browser.newPage();
  const requests: string[] = [];
  const failed: string[] = [];
  const dialogs: string[] = [];
  tab.on('request', (request) => requests.push(request.url()));
  tab.on('response', (response) => {
    if (response.status() >= 400) failed.push(response.url());
  });
  tab.on('dialog', async (dialog) => {
    dialogs.push(dialog.message());
    await dialog.dismiss();
  });
  await tab.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { violations: string[] }).violations = seen;
    document.addEventListener('securitypolicyviolation', (event) => seen.push(event.violatedDirective));
  });
  await tab.goto(url);
  const violations = () => tab.evaluate(() => (window as unknown as { violations: string[] }).violations);
  return { tab, requests, failed, dialogs, violations };
}

const drawn = (tab: Page, count: number) =>
  tab.waitForFunction((n) => document.querySelectorAll('.ds-mermaid-drawn svg').length >= n, count);

describe('Mermaid diagrams', () => {
  it('pages carry the source; only pages with a diagram load Mermaid; fence settings are not a title', () => {
    const html = fixture.site.file('index.html');
    expect(html).toContain(
      '<div class="ds-mermaid" data-placement="top-right"><pre class="ds-mermaid-source"',
    );
    expect(html).toContain(`tabindex="0">${FLOW}</pre>`);
    expect(html).toContain('sequenceDiagram\n  Alice->>Bob: Hello</pre>');
    expect(html).toContain('data-actions="false"');
    expect(html).not.toContain('ds-code-title');
    expect(html).toMatch(/<script src="_docsnap\/mermaid\/mermaid\.min\.js" defer><\/script>/);
    const none = fixture.site.file('none.html');
    expect(none).not.toContain('mermaid');
    // Only diagram pages let Mermaid write style elements; the others keep styles to the site's own.
    const styleSources = (page: string) =>
      /style-src ([^;]*);/.exec(page.replaceAll('&#x27;', "'"))?.[1]?.split(' ');
    expect(styleSources(none)).not.toContain("'unsafe-inline'");
    expect(styleSources(html)).toEqual(["'self'", "'unsafe-inline'"]);
  });

  it('draws every diagram in the browser, from the site itself, and keeps the source of one it cannot read', async () => {
    const { tab, requests, failed, violations } = await open(`${fixture.base}index.html`);
    await drawn(tab, 3);
    const state = await tab.evaluate(() =>
      [...document.querySelectorAll('.ds-mermaid')].map((block) => ({
        drawn: block.classList.contains('ds-mermaid-drawn'),
        failed: block.classList.contains('ds-mermaid-failed'),
        sourceShown:
          getComputedStyle(block.querySelector('.ds-mermaid-source') as Element).display !== 'none',
        text: block.querySelector('svg')?.textContent ?? '',
        actions: block.querySelectorAll('.ds-mermaid-action').length,
      })),
    );
    // Zoom in, out, reset and four pan arrows: on its own on a diagram taller than 120 px.
    expect(state[0]).toMatchObject({ drawn: true, sourceShown: false, actions: 7 });
    expect(state[0]?.text).toContain('Ready?');
    expect(state[1]).toMatchObject({ drawn: true, sourceShown: false });
    expect(state[1]?.text).toContain('Hello');
    await tab.waitForFunction(() => document.querySelector('.ds-mermaid:nth-of-type(3).ds-mermaid-failed'));
    expect(state[2]).toMatchObject({ drawn: false, sourceShown: true, actions: 0 });
    // A short diagram with no setting has no controls.
    expect(state[3]).toMatchObject({ drawn: true, actions: 0 });
    expect(requests.filter((url) => !url.startsWith(fixture.base))).toEqual([]);
    expect(failed).toEqual([]);
    expect(await violations()).toEqual([]);
    await tab.close();
  });

  it('zooms in and back', async () => {
    const { tab } = await open(`${fixture.base}index.html`);
    await drawn(tab, 2);
    await tab.click('.ds-mermaid >> nth=0 >> button[aria-label="Zoom in"]');
    expect(await tab.$eval('.ds-mermaid-figure svg', (svg) => (svg as SVGElement).style.transform)).toBe(
      'scale(1.25)',
    );
    await tab.click('.ds-mermaid >> nth=0 >> button[aria-label="Reset zoom"]');
    expect(await tab.$eval('.ds-mermaid-figure svg', (svg) => (svg as SVGElement).style.transform)).toBe('');
    await tab.close();
  });

  it('draws again in the dark theme when the reader switches', async () => {
    const { tab, violations } = await open(`${fixture.base}index.html`);
    await drawn(tab, 2);
    const background = () =>
      tab.$eval(
        '.ds-mermaid-figure svg .node rect, .ds-mermaid-figure svg .node polygon',
        (shape) => getComputedStyle(shape).fill,
      );
    const light = await background();
    await tab.click('.ds-theme-toggle');
    await tab.waitForFunction(() => document.querySelector('.ds-mermaid-figure svg')?.id.endsWith('-2'));
    const dark = await background();
    expect(dark).not.toBe(light);
    expect(await violations()).toEqual([]);
    await tab.close();
  });

  it('draws from file:// as well', async () => {
    const { tab, failed } = await open(pathToFileURL(`${fixture.site.outDir}/index.html`).href);
    await drawn(tab, 2);
    expect(failed).toEqual([]);
    await tab.close();
  });

  it('runs nothing a diagram names: no script, handler or script link survives, click bindings are off', async () => {
    const { tab, dialogs, violations } = await open(`${fixture.base}hostile.html`);
    await drawn(tab, 1);
    await tab.click('.ds-mermaid-figure .node >> nth=0').catch(() => {});
    await tab.click('.ds-mermaid-figure .node >> nth=1').catch(() => {});
    const markup = await tab.$eval('.ds-mermaid-figure', (figure) => figure.innerHTML);
    // Mermaid keeps a label's HTML (as on the platform) after DOMPurify: no script, handler or script link.
    expect(markup).toContain('<img src="x"');
    expect(markup).not.toMatch(/<script|javascript:|onerror=|\bhref=/i);
    expect(dialogs).toEqual([]);
    // Mermaid measures a label's HTML in the page before it sanitizes it: the page's policy is what
    // stops the handler there (inline handlers are never allowed), and nothing else is refused.
    expect((await violations()).filter((directive) => directive !== 'script-src-attr')).toEqual([]);
    await tab.close();
  });
});

describe('diagram settings', () => {
  it('reads placement and actions, and falls back for values the platform does not document', () => {
    expect(diagramOptions('placement="top-left" actions={false}')).toEqual({
      placement: 'top-left',
      actions: false,
    });
    expect(diagramOptions('actions={true}')).toEqual({ placement: 'bottom-right', actions: true });
    expect(diagramOptions('placement="middle"')).toEqual({ placement: 'bottom-right' });
    expect(diagramOptions(undefined)).toEqual({ placement: 'bottom-right' });
  });
});
