import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { type ExportOptionsInput, resolveOptions } from '../../../src/export/options.ts';
import { exportSite } from '../../../src/export/pipeline.ts';
import { exportOptions } from '../../../src/service/export-engine.ts';
import { docsRepo, page, tempDir } from '../fixtures.ts';

const run = promisify(execFile);

const withAnalytics = (integrations: object) =>
  docsRepo({
    'docs.json': { name: 'A', navigation: { pages: ['a'] }, integrations },
    'a.mdx': page('A'),
  });

const both = {
  plausible: { domain: 'docs.example.com' },
  ga4: { measurementId: 'G-ABC123' },
};

async function exportedPage(source: string, options?: ExportOptionsInput) {
  const out = join(tempDir(), 'site');
  const result = await exportSite({ source, outDir: out, workers: 1, options });
  return { html: readFileSync(join(out, 'a.html'), 'utf8'), warnings: result.warnings };
}

const scriptSources = (html: string) => [...html.matchAll(/<script[^>]* src="([^"]+)"/g)].map((m) => m[1]);

describe('analytics: one rule for the CLI, the Admin API and the operator', () => {
  it('is on by default wherever the export starts, off when asked, never when air-gapped', () => {
    const site = { domain: 'd.example.com', organization: 'o', source: { path: '/x' }, features: {} };
    const record = { version: undefined, paths: undefined };
    const api = (deployment: 'cloud' | 'air-gapped', features = {}) =>
      resolveOptions(exportOptions({ ...site, deployment, features }, record)).features.analytics;
    expect(api('cloud')).toBe(true);
    expect(api('cloud', { analytics: false })).toBe(false);
    expect(api('air-gapped', { analytics: true })).toBe(false);
    // The CLI passes its flags (--no-analytics turns it off), the library caller may pass nothing.
    expect(resolveOptions({ features: { search: true, analytics: true } }).features.analytics).toBe(true);
    expect(resolveOptions({}).features.analytics).toBe(true);
  });

  it('the CLI includes analytics configured in docs.json by default and leaves it out with --no-analytics', {
    timeout: 60_000,
  }, async () => {
    const source = withAnalytics(both);
    const cli = async (...flags: string[]) => {
      const out = join(tempDir(), 'cli');
      await run(process.execPath, ['src/cli/main.ts', 'export', source, '--out-dir', out, ...flags]);
      return readFileSync(join(out, 'a.html'), 'utf8');
    };
    expect(await cli()).toContain('src="https://plausible.io/js/script.js"');
    expect(await cli('--no-analytics')).not.toMatch(/plausible|googletagmanager/);
  });

  it('loads scripts only from the hosts each integration documents, allowed by the page policy', async () => {
    const { html } = await exportedPage(withAnalytics(both));
    expect(scriptSources(html)).toEqual([
      '_docsnap/site.js',
      'https://plausible.io/js/script.js',
      'https://www.googletagmanager.com/gtag/js?id=G-ABC123',
    ]);
    const policy = (
      /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1] ?? ''
    ).replaceAll('&#x27;', "'");
    expect(policy).toMatch(
      /script-src 'self'( 'sha256-[^']+')+ https:\/\/plausible\.io https:\/\/\*\.googletagmanager\.com;/,
    );
    expect(policy).toContain("connect-src 'self' https://plausible.io https://*.google-analytics.com");
  });

  it('refuses a Plausible server elsewhere than plausible.io, with a warning naming docs.json', async () => {
    const { html, warnings } = await exportedPage(
      withAnalytics({ plausible: { domain: 'docs.example.com', server: 'https://evil.example.net' } }),
    );
    expect(html).not.toContain('evil.example.net');
    expect(scriptSources(html)).toEqual(['_docsnap/site.js']);
    expect(warnings).toContainEqual({
      file: 'docs.json',
      message: expect.stringMatching(/integrations\.plausible\.server "evil\.example\.net".*plausible\.io/),
    });
    const documented = await exportedPage(
      withAnalytics({ plausible: { domain: 'docs.example.com', server: 'plausible.io' } }),
    );
    expect(scriptSources(documented.html)).toContain('https://plausible.io/js/script.js');
  });

  it('takes a GA4 measurement id only in its documented form', async () => {
    const { html } = await exportedPage(withAnalytics({ ga4: { measurementId: "G-1');alert('x" } }));
    expect(html).not.toMatch(/googletagmanager|alert/);
  });
});
