import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExportError } from '../../../src/export/errors.ts';
import { resolveOptions } from '../../../src/export/options.ts';
import { exportSite } from '../../../src/export/pipeline.ts';
import { warningKind } from '../../../src/export/report.ts';
import { MINTIGNORE_LIMITS } from '../../../src/export/source/ignored-files.ts';
import { isIndexed, loadSite } from '../../../src/export/source/load-site.ts';
import { docsRepo, page, tempDir } from '../fixtures.ts';
import { checkSite } from '../site-check.ts';

/**
 * Repositories as they are found in the wild, built as the platform builds them (its public
 * documentation: hidden pages, .mintignore, OpenAPI setup, reusable snippets, images).
 */
const options = resolveOptions();
const openapi = (path: string, summary: string) => ({
  openapi: '3.0.3',
  info: { title: 'API', version: '1' },
  paths: { [path]: { post: { summary, responses: { '200': { description: 'OK' } } } } },
});

describe('paths a page names', () => {
  const dir = () =>
    docsRepo({
      'docs.json': {
        name: 'X',
        navigation: {
          pages: [
            'index',
            'ja/api-references/indexer/endpoints/public/status',
            'api/nested/ping',
            'api/rooted',
            'api/escape',
          ],
        },
      },
      'index.mdx': page('Home'),
      // Relative to the page: ../indexer.json from endpoints/public/ is endpoints/indexer.json.
      'ja/api-references/indexer/endpoints/public/status.mdx':
        '---\ntitle: Status\nopenapi: ../indexer.json post /rpc/status\n---\n',
      'ja/api-references/indexer/endpoints/indexer.json': openapi('/rpc/status', 'Indexer status'),
      // A bare relative path with no file beside the page: from the root, as the platform's examples have it.
      'api/nested/ping.mdx': '---\ntitle: Ping\nopenapi: openapi.json POST /ping\n---\n',
      'openapi.json': openapi('/ping', 'Ping'),
      'api/rooted.mdx': '---\ntitle: Rooted\nopenapi: /openapi.json POST /ping\n---\n',
      // Leaves the repository: refused, the page built without the operation.
      'api/escape.mdx': '---\ntitle: Escape\nopenapi: ../../../../etc/openapi.json POST /ping\n---\n',
      'images/logo.png': 'png',
      'guides/deep/page.mdx': page('Deep', '![Logo](images/logo.png)\n\n![Beside](./shot.png)'),
      'guides/deep/shot.png': 'png',
    });

  it('resolves OpenAPI files beside the page, then from the root, never outside', async () => {
    const site = await loadSite(dir(), options);
    const byRoute = new Map(site.pages.map((p) => [p.route, p]));
    expect(byRoute.get('ja/api-references/indexer/endpoints/public/status')?.operation?.file).toBe(
      'ja/api-references/indexer/endpoints/indexer.json',
    );
    expect(byRoute.get('api/nested/ping')?.operation?.file).toBe('openapi.json');
    expect(byRoute.get('api/rooted')?.operation?.file).toBe('openapi.json');
    expect(byRoute.get('api/escape')?.operation).toBeUndefined();
    expect(site.warnings.map((w) => `${w.file}: ${w.message}`)).toContainEqual(
      expect.stringMatching(/^api\/escape\.mdx: frontmatter openapi: refused path .* leaves the repository/),
    );
  });

  it('renders them, and images named from the root or beside the page, with no broken reference', async () => {
    const out = tempDir();
    const result = await exportSite({ source: dir(), outDir: out });
    const html = readFileSync(join(out, 'ja/api-references/indexer/endpoints/public/status.html'), 'utf8');
    expect(html).toContain('/rpc/status');
    expect(result.warnings.filter((w) => warningKind(w.message) === 'broken link')).toEqual([]);
    const check = checkSite(out);
    expect(check.brokenLinks).toEqual([]);
    const deep = readFileSync(join(out, 'guides/deep/page.html'), 'utf8');
    expect(deep).toContain('src="../../images/logo.png"');
    expect(deep).toContain('src="shot.png"');
  });
});

describe('pages outside the navigation', () => {
  const files = {
    'docs.json': { name: 'X', navigation: { pages: ['index'] } },
    'index.mdx': page(
      'Home',
      'See [the orphan](/guides/orphan), [the notes](/notes) and [a snippet user](/uses-snippet).',
    ),
    'guides/orphan.mdx': page('Orphan', 'Reachable by its URL.'),
    'notes.md': '---\ntitle: Notes\n---\n\nPlain Markdown page.\n',
    'uses-snippet.mdx':
      '---\ntitle: Uses a snippet\n---\n\nimport Part from "/parts/part.mdx";\n\n<Part />\n',
    'parts/part.mdx': 'A part, imported: a snippet, not a page.\n',
    'snippets/tip.mdx': 'A snippet by place.\n',
    'README.md': '# Repository readme\n',
    'docs/CHANGELOG.md': '# Changes\n',
  };

  it('builds every page file, unlisted and not indexed, except snippets and the default ignored files', async () => {
    const site = await loadSite(docsRepo(files), options);
    const routes = site.pages.map((p) => p.route).sort();
    expect(routes).toEqual(['', 'guides/orphan', 'notes', 'uses-snippet']);
    const orphan = site.pages.find((p) => p.route === 'guides/orphan');
    expect(orphan?.listed).toBe(false);
    expect(orphan && isIndexed(site, orphan)).toBe(false);
  });

  it('indexes them with seo.indexing "all"', async () => {
    const dir = docsRepo({
      ...files,
      'docs.json': { name: 'X', seo: { indexing: 'all' }, navigation: { pages: ['index'] } },
    });
    const site = await loadSite(dir, options);
    const orphan = site.pages.find((p) => p.route === 'guides/orphan');
    expect(orphan && isIndexed(site, orphan)).toBe(true);
  });

  it('links into them work, and they stay out of the sitemap by default', async () => {
    const out = tempDir();
    const result = await exportSite({
      source: docsRepo(files),
      outDir: out,
      options: { siteUrl: 'https://docs.example.com' },
    });
    expect(result.warnings.filter((w) => warningKind(w.message) === 'broken link')).toEqual([]);
    expect(checkSite(out).brokenLinks).toEqual([]);
    expect(readFileSync(join(out, 'notes.html'), 'utf8')).toContain('Plain Markdown page.');
    expect(existsSync(join(out, 'parts/part.html'))).toBe(false);
    expect(existsSync(join(out, 'README.html'))).toBe(false);
    const sitemap = readFileSync(join(out, 'sitemap.xml'), 'utf8');
    expect(sitemap).toContain('https://docs.example.com/</loc>');
    expect(sitemap).not.toContain('orphan');
  });
});

describe('.mintignore', () => {
  const files = {
    'docs.json': { name: 'X', navigation: { pages: ['index', 'drafts/plan'] } },
    'index.mdx': page('Home', '![Secret](/internal/diagram.png)'),
    '.mintignore': '# drafts and internal notes\ndrafts/\n*.draft.mdx\n**/internal/**\n!keep.draft.mdx\n',
    'drafts/plan.mdx': page('Plan'),
    'idea.draft.mdx': page('Idea'),
    'keep.draft.mdx': page('Kept'),
    'guides/internal/notes.mdx': page('Internal'),
    'internal/diagram.png': 'png',
    'build/output.mdx': page('Build output'),
  };

  it('leaves out what it matches, pages and files, and the navigation entries naming them', async () => {
    const site = await loadSite(docsRepo(files), options);
    expect(site.pages.map((p) => p.route).sort()).toEqual(['', 'keep.draft']);
    expect(site.assets).toEqual([]);
    const missing = site.warnings.filter((w) => warningKind(w.message) === 'missing page');
    expect(missing.map((w) => w.message)).toEqual([expect.stringMatching(/pages\[1\]: page "drafts\/plan"/)]);
  });

  it('is bounded: too many patterns, or patterns of too many wildcards, are reported and not applied', async () => {
    const many = Array.from({ length: MINTIGNORE_LIMITS.patterns + 5 }, (_, i) => `dir-${i}/`).join('\n');
    const site = await loadSite(
      docsRepo({
        ...files,
        '.mintignore': `${'*a'.repeat(20)}\n${many}\n`,
      }),
      options,
    );
    const notes = site.warnings.filter((w) => w.file === '.mintignore').map((w) => w.message);
    expect(notes).toEqual([
      expect.stringMatching(/more than 8 wildcards is not applied/),
      expect.stringMatching(/more than 1000 patterns/),
    ]);
  });

  it('is not read through a symlink leading outside the repository', async () => {
    const outside = docsRepo({ 'patterns.txt': '*.mdx\n' });
    const dir = docsRepo(
      { 'docs.json': { name: 'X', navigation: { pages: ['index'] } }, 'index.mdx': page('Home') },
      { '.mintignore': join(outside, 'patterns.txt') },
    );
    const site = await loadSite(dir, options);
    expect(site.pages.map((p) => p.route)).toEqual(['']);
    expect(site.warnings).toContainEqual(
      expect.objectContaining({
        file: '.mintignore',
        message: expect.stringMatching(/^not applied: .*symlink/),
      }),
    );
  });
});

describe('strict exports', () => {
  const dir = () =>
    docsRepo({
      'docs.json': { name: 'X', navigation: { pages: ['index', 'gone'] } },
      'index.mdx': page('Home'),
      'bad.mdx': '---\ntitle: [unclosed\n---\n\nText\n',
    });

  it('build past missing pages and invalid frontmatter with warnings', async () => {
    const result = await exportSite({ source: dir(), outDir: tempDir() });
    expect(result.pageCount).toBe(2);
    expect(result.warnings.map((w) => warningKind(w.message)).sort()).toEqual([
      'invalid frontmatter',
      'missing page',
      'missing title', // bad.mdx, built without its frontmatter
    ]);
  });

  it('refuse them, all at once', async () => {
    const error = await exportSite({ source: dir(), outDir: tempDir(), options: { strict: true } }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ExportError);
    expect((error as ExportError).problems.map((p) => p.file).sort()).toEqual(['bad.mdx', 'docs.json']);
    expect((error as ExportError).message).toMatch(
      /2 problems the platform builds past, refused because the export is strict/,
    );
  });
});

describe('files a page links that the platform serves', () => {
  it('OpenAPI documents are published at their path; other JSON is not', async () => {
    const out = tempDir();
    const result = await exportSite({
      source: docsRepo({
        'docs.json': { name: 'X', navigation: { pages: ['index'] } },
        'index.mdx': page('Home', '[Download the spec](/openapi.json) or [the YAML one](/specs/v2.yaml).'),
        'openapi.json': openapi('/ping', 'Ping'),
        'specs/v2.yaml': 'openapi: 3.1.0\ninfo: { title: V2, version: "2" }\npaths: {}\n',
        'package.json': { name: 'docs', version: '1.0.0' },
      }),
      outDir: out,
    });
    expect(result.warnings.filter((w) => warningKind(w.message) === 'broken link')).toEqual([]);
    expect(JSON.parse(readFileSync(join(out, 'openapi.json'), 'utf8'))).toMatchObject({ openapi: '3.0.3' });
    expect(existsSync(join(out, 'specs/v2.yaml'))).toBe(true);
    expect(existsSync(join(out, 'package.json'))).toBe(false);
    expect(existsSync(join(out, 'docs.json'))).toBe(false);
  });

  it('a logo or favicon that does not exist is one warning on docs.json, not a broken link per page', async () => {
    const result = await exportSite({
      source: docsRepo({
        'docs.json': {
          name: 'X',
          favicon: '/favicon.svg',
          logo: { light: '/logo/light.svg', dark: '/logo/dark.svg' },
          navigation: { pages: ['a', 'b', 'c'] },
        },
        'a.mdx': page('A'),
        'b.mdx': page('B'),
        'c.mdx': page('C'),
        'logo/dark.svg':
          '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>',
      }),
      outDir: tempDir(),
    });
    expect(result.warnings.map((w) => `${w.file}: ${w.message}`).sort()).toEqual([
      'docs.json: favicon: "/favicon.svg" does not exist; left out',
      'docs.json: logo.light: "/logo/light.svg" does not exist; left out',
    ]);
    expect(result.warnings.map((w) => warningKind(w.message))).toEqual(['missing file', 'missing file']);
  });
});
