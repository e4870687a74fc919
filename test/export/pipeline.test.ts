import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExportError } from '../../src/export/errors.ts';
import { exportSite, MANIFEST_FILE } from '../../src/export/pipeline.ts';
import {
  CORPORA,
  docsRepo,
  EXAMPLE_SITE,
  EXAMPLE_SITE_PAGES,
  HAVE_CORPORA,
  page,
  tempDir,
  withoutCorpora,
} from './fixtures.ts';
import { checkSite } from './site-check.ts';

// Files the platform ignores by default among the .md ones (its documented list).
const REPOSITORY_DOCUMENTS = new Set(['README.md', 'LICENSE.md', 'CHANGELOG.md', 'CONTRIBUTING.md']);
const countPages = (dir: string): number =>
  readdirSync(dir, { withFileTypes: true, recursive: true }).filter(
    (e) =>
      e.isFile() &&
      /\.mdx?$/.test(e.name) &&
      !REPOSITORY_DOCUMENTS.has(e.name) &&
      !e.parentPath.includes('snippets') &&
      !e.parentPath.includes('/.'),
  ).length;

// The example site always; the real corpora when they are beside the repository.
const sites = [
  { name: 'the example site', source: EXAMPLE_SITE, present: true, pages: () => EXAMPLE_SITE_PAGES },
  ...['mcp-docs', 'novu-docs'].map((corpus) => ({
    name: `the ${corpus} corpus`,
    source: join(CORPORA, corpus),
    present: HAVE_CORPORA,
    // Every .mdx and .md page of the repository (snippets and ignored files aside) is exported:
    // none is silently dropped.
    pages: () => countPages(join(CORPORA, corpus)),
  })),
];

for (const { name, source, present, pages } of sites) {
  const title = `exporting ${name}, air-gapped`;
  describe.skipIf(!present)(present ? title : withoutCorpora(title), () => {
    const outDir = join(tempDir(), 'site');
    const archiveDir = tempDir();
    let result: Awaited<ReturnType<typeof exportSite>>;

    it('renders every page with no error', { timeout: 120_000 }, async () => {
      result = await exportSite({
        source,
        outDir,
        archivePath: join(archiveDir, 'site.tar.gz'),
        options: { deployment: 'air-gapped', version: 'test' },
      });
      expect(result.pageCount).toBe(pages());
      expect(result.manifest.pageCount).toBe(result.pageCount);
      expect(existsSync(join(outDir, 'index.html'))).toBe(true);
      expect(existsSync(join(outDir, '404.html'))).toBe(true);
      expect(existsSync(join(outDir, 'llms.txt'))).toBe(true);
      expect(readFileSync(join(outDir, 'llms-full.txt'), 'utf8').length).toBeGreaterThan(1000);
      const manifest = JSON.parse(readFileSync(join(outDir, MANIFEST_FILE), 'utf8'));
      expect(manifest.generator).toMatch(/^docsnap \d/);
      for (const file of Object.keys(manifest.files)) expect(existsSync(join(outDir, file)), file).toBe(true);
      expect(result.archive?.sha256).toMatch(/^[0-9a-f]{64}$/);
    });

    it('writes the same files, with the hashes of the manifest, to the directory and the archive', () => {
      const unpacked = tempDir();
      execFileSync('tar', ['-xzf', join(archiveDir, 'site.tar.gz'), '-C', unpacked]);
      const listing = (dir: string) =>
        readdirSync(dir, { recursive: true, withFileTypes: true })
          .filter((e) => e.isFile())
          .map((e) => relative(dir, join(e.parentPath, e.name)))
          .sort();
      const expected = [...Object.keys(result.manifest.files), MANIFEST_FILE].sort();
      expect(listing(outDir)).toEqual(expected);
      expect(listing(unpacked)).toEqual(expected);
      for (const [file, sha256] of Object.entries(result.manifest.files)) {
        for (const dir of [outDir, unpacked]) {
          expect(
            createHash('sha256')
              .update(readFileSync(join(dir, file)))
              .digest('hex'),
            file,
          ).toBe(sha256);
        }
      }
      // Nothing of the export's working files is left beside the site or the archive.
      expect(readdirSync(dirname(outDir))).toEqual(['site']);
      expect(readdirSync(archiveDir)).toEqual(['site.tar.gz']);
    });

    it('has no broken internal link (anchors included) and loads nothing from another origin', () => {
      const check = checkSite(outDir);
      expect(check.pages).toBeGreaterThanOrEqual(result.pageCount);
      expect(check.brokenLinks).toEqual([]);
      expect(check.externalLoads).toEqual([]);
    });

    it('writes a Markdown copy next to every page', () => {
      for (const file of Object.keys(result.manifest.files).filter(
        (f) => f.endsWith('.html') && f !== '404.html',
      )) {
        const md = file.replace(/\.html$/, '.md');
        if (!existsSync(join(outDir, md))) continue; // redirect pages have no Markdown copy
        expect(readFileSync(join(outDir, md), 'utf8')).toMatch(/^# /);
      }
    });
  });
}

describe('the example site (examples/docs-site)', () => {
  it('exports with no warning, its API reference from the Admin API document', async () => {
    const out = tempDir();
    const result = await exportSite({ source: EXAMPLE_SITE, outDir: out });
    expect(result.warnings).toEqual([]);
    const html = readFileSync(join(out, 'api-reference/start-static-export-job.html'), 'utf8');
    expect(html).toContain('ds-api');
    expect(html).toContain('/v1/static-export/jobs');
  });
});

describe('export archive', () => {
  it('is byte-for-byte reproducible', { timeout: 120_000 }, async () => {
    const dir = tempDir();
    const source = EXAMPLE_SITE;
    const one = await exportSite({
      source,
      archivePath: join(dir, 'one.tar.gz'),
      options: { deployment: 'air-gapped' },
    });
    const two = await exportSite({
      source,
      archivePath: join(dir, 'two.tar.gz'),
      options: { deployment: 'air-gapped' },
      workers: 1,
    });
    expect(two.manifest).toEqual(one.manifest);
    expect(two.archive?.sha256).toBe(one.archive?.sha256);
    expect(readFileSync(join(dir, 'one.tar.gz')).equals(readFileSync(join(dir, 'two.tar.gz')))).toBe(true);
  });
});

describe('export options and output', () => {
  it('writes sitemap.xml and canonical links for a site URL, and redirect pages', async () => {
    const dir = docsRepo({
      'docs.json': {
        name: 'S',
        navigation: { pages: ['index', 'guide/start'] },
        redirects: [{ source: '/old', destination: '/guide/start#install' }],
      },
      'index.mdx': page('Home', 'See [start](/guide/start#install).'),
      'guide/start.mdx': page('Start', '## Install\n\nRun it.'),
    });
    const out = tempDir();
    const progress: number[] = [];
    await exportSite({
      source: dir,
      outDir: out,
      options: { siteUrl: 'https://docs.example.com/' },
      onProgress: (p) => progress.push(p.progress),
    });
    expect(readFileSync(join(out, 'sitemap.xml'), 'utf8')).toContain(
      '<loc>https://docs.example.com/guide/start.html</loc>',
    );
    expect(readFileSync(join(out, 'guide/start.html'), 'utf8')).toContain(
      '<link rel="canonical" href="https://docs.example.com/guide/start.html">',
    );
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toContain('href="guide/start.html#install"');
    expect(readFileSync(join(out, 'old.html'), 'utf8')).toContain('url=guide/start.html#install');
    expect(progress.at(-1)).toBe(100);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(checkSite(out).brokenLinks).toEqual([]);
  });

  it('reports a page with an MDX syntax error by file and line, and keeps an earlier export', async () => {
    const good = docsRepo({ 'docs.json': { name: 'S', navigation: { pages: ['a'] } }, 'a.mdx': page('A') });
    const out = tempDir();
    await exportSite({ source: good, outDir: out });
    const bad = docsRepo({
      'docs.json': { name: 'S', navigation: { pages: ['a'] } },
      'a.mdx': page('A', 'Text\n\n<Tabs>\n<Tab title="x">\nnever closed\n'),
    });
    const error = await exportSite({ source: bad, outDir: out }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExportError);
    expect((error as Error).message).toMatch(/a\.mdx:\d+:\d+: Expected a closing tag/);
    expect(readFileSync(join(out, 'a.html'), 'utf8')).toContain('<h1 class="ds-title">A</h1>');
  });

  it('refuses to write into a directory that holds something else', async () => {
    const source = docsRepo({ 'docs.json': { name: 'S', navigation: { pages: ['a'] } }, 'a.mdx': page('A') });
    const out = docsRepo({ 'precious.txt': 'keep me' });
    await expect(exportSite({ source, outDir: out })).rejects.toThrow(
      /not empty and holds no earlier docsnap export/,
    );
    expect(readFileSync(join(out, 'precious.txt'), 'utf8')).toBe('keep me');
  });
});

describe('deployment features', () => {
  const withAnalytics = () =>
    docsRepo({
      'docs.json': {
        name: 'A',
        navigation: { pages: ['a'] },
        integrations: { plausible: { domain: 'docs.example.com' } },
      },
      'a.mdx': page('A'),
    });

  it('includes analytics only when docs.json configures it, and never in an air-gapped export', async () => {
    const out = tempDir();
    await exportSite({ source: withAnalytics(), outDir: out, options: { deployment: 'cloud' } });
    expect(readFileSync(join(out, 'a.html'), 'utf8')).toContain('src="https://plausible.io/js/script.js"');

    const gapped = tempDir();
    await exportSite({
      source: withAnalytics(),
      outDir: gapped,
      options: { deployment: 'air-gapped', features: { search: true, analytics: true } },
    });
    expect(readFileSync(join(gapped, 'a.html'), 'utf8')).not.toContain('plausible');

    const unconfigured = tempDir();
    await exportSite({
      source: docsRepo({ 'docs.json': { name: 'A', navigation: { pages: ['a'] } }, 'a.mdx': page('A') }),
      outDir: unconfigured,
    });
    expect(readFileSync(join(unconfigured, 'a.html'), 'utf8')).not.toMatch(/<script[^>]+src="https?:/);
  });

  it('without the opt-in, never fetches a remote OpenAPI document: a notice and a warning, or a local override', async () => {
    const spec = {
      openapi: '3.0.3',
      info: { title: 'T', version: '1' },
      paths: { '/users': { get: { summary: 'List users', responses: { 200: { description: 'OK' } } } } },
    };
    const source = docsRepo({
      'docs.json': {
        name: 'A',
        navigation: {
          tabs: [{ tab: 'API', openapi: 'https://api.example.com/openapi.json', pages: ['GET /users'] }],
        },
      },
      'specs/local.json': spec,
    });
    const remote = tempDir();
    const result = await exportSite({ source, outDir: remote });
    const html = readFileSync(join(remote, 'api/get-users.html'), 'utf8');
    expect(html).toContain('API reference unavailable in this export');
    expect(result.warnings.map((w) => w.message).join('\n')).toMatch(
      /https:\/\/api\.example\.com\/openapi\.json is remote/,
    );

    const local = tempDir();
    await exportSite({
      source,
      outDir: local,
      options: { openapiOverrides: { 'https://api.example.com/openapi.json': 'specs/local.json' } },
    });
    const rendered = readFileSync(join(local, 'api/list-users.html'), 'utf8');
    expect(rendered).toContain('List users');
    expect(rendered).toContain('ds-api');
  });
});
