import { describe, expect, it } from 'vitest';
import { ExportError } from '../../../src/export/errors.ts';
import { resolveOptions } from '../../../src/export/options.ts';
import { warningKind } from '../../../src/export/report.ts';
import { loadSite } from '../../../src/export/source/load-site.ts';
import { docsRepo, navigationLabels, page, tempDir } from '../fixtures.ts';

const options = resolveOptions();

async function failure(dir: string, exportOptions = options): Promise<ExportError> {
  const error = await loadSite(dir, exportOptions).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ExportError);
  return error as ExportError;
}

describe('loadSite', () => {
  it('reads docs.json tabs, nested groups, anchors and global links', async () => {
    const dir = docsRepo({
      'docs.json': {
        name: 'Acme',
        colors: { primary: '#112233' },
        navigation: {
          tabs: [
            {
              tab: 'Guides',
              groups: [{ group: 'Start', pages: ['index', { group: 'Deep', pages: ['a/b'] }] }],
            },
            { tab: 'More', anchors: [{ anchor: 'Inner', pages: ['c'] }] },
            { tab: 'Blog', href: 'https://blog.example.com' },
          ],
          global: { anchors: [{ anchor: 'Status', href: 'https://status.example.com' }] },
        },
      },
      'index.mdx': page('Home'),
      'a/b.mdx': page('B page'),
      'c.md': page('C page'),
    });
    const site = await loadSite(dir, options);
    expect(site.sections.map((s) => s.label)).toEqual(['Guides', 'More']);
    expect(navigationLabels(site.sections[0]?.items ?? [], site.pages)).toEqual([
      { Start: ['Home', { Deep: ['B page'] }] },
    ]);
    expect(navigationLabels(site.sections[1]?.items ?? [], site.pages)).toEqual([{ Inner: ['C page'] }]);
    expect(site.globalLinks.map((l) => l.label)).toEqual(['Blog', 'Status']);
    expect(site.pages.map((p) => [p.route, p.output])).toEqual([
      ['', 'index.html'],
      ['a/b', 'a/b.html'],
      ['c', 'c.html'],
    ]);
    expect(site.pages[1]?.breadcrumb).toEqual(['Guides', 'Start', 'Deep']);
    expect(site.config.colors.primary).toBe('#112233');
  });

  it('keeps every page of every divider kind (versions, languages, dropdowns, products, menus)', async () => {
    const dir = docsRepo({
      'docs.json': {
        name: 'Many',
        navigation: {
          versions: [
            {
              version: 'v2',
              languages: [
                {
                  language: 'en',
                  dropdowns: [
                    {
                      dropdown: 'Dd',
                      products: [
                        { product: 'P', tabs: [{ tab: 'T', menu: [{ item: 'M', pages: ['deep'] }] }] },
                      ],
                    },
                  ],
                },
              ],
            },
            { version: 'v1', pages: ['old'] },
          ],
        },
      },
      'deep.mdx': page('Deep'),
      'old.mdx': page('Old'),
    });
    const site = await loadSite(dir, options);
    expect(site.pages.map((p) => p.title)).toEqual(['Deep', 'Old']);
    // Every level above the sidebar is a choice on the way to a section; the tab names it.
    expect(site.sections.map((s) => s.label)).toEqual(['T', 'v1']);
    expect(site.sections[0]?.path.map((c) => `${c.kind}:${c.label}`)).toEqual([
      'version:v2',
      'language:English',
      'dropdown:Dd',
      'product:P',
      'tab:T',
      'dropdown:M',
    ]);
    expect(site.sections[1]?.path.map((c) => `${c.kind}:${c.label}`)).toEqual(['version:v1']);
    expect(site.pages[0]?.breadcrumb).toEqual(['T']);
  });

  it('lists every navigation entry whose page is missing, at once, with its location', async () => {
    const dir = docsRepo({
      'docs.json': {
        name: 'X',
        navigation: {
          groups: [{ group: 'G', pages: ['here', 'gone-1', { group: 'H', pages: ['gone-2'] }] }],
        },
      },
      'here.mdx': page('Here'),
    });
    const expected = [
      expect.stringMatching(/navigation\.groups\[0\]\.pages\[1\]: page "gone-1" does not exist/),
      expect.stringMatching(/navigation\.groups\[0\]\.pages\[2\]\.pages\[0\]: page "gone-2" does not exist/),
    ];
    // Strict: refused, every entry named at once.
    const error = await failure(dir, resolveOptions({ strict: true }));
    expect(error.problems.map((p) => p.message)).toEqual(expected);
    expect(error.problems.every((p) => p.file === 'docs.json')).toBe(true);
    // Otherwise, as the platform does: warnings, the entries left out, the rest built.
    const site = await loadSite(dir, options);
    const missing = site.warnings.filter((w) => /does not exist/.test(w.message));
    expect(missing.map((w) => w.message)).toEqual(expected);
    expect(missing.map((w) => warningKind(w.message))).toEqual(['missing page', 'missing page']);
    expect(site.pages.map((p) => p.route)).toEqual(['here']);
    expect(navigationLabels(site.sections[0]?.items ?? [], site.pages)).toEqual([{ G: ['Here'] }]); // H lost its one entry
  });

  it('names the file, line and column of invalid JSON', async () => {
    const dir = docsRepo({ 'docs.json': '{\n  "name": "X",\n  "navigation": {\n}' });
    const error = await failure(dir);
    expect(error.problems[0]).toMatchObject({ file: 'docs.json', line: 4 });
    expect(error.message).toContain('docs.json is not valid JSON');
  });

  it('names the field of an invalid setting', async () => {
    const dir = docsRepo({
      'docs.json': { name: 'X', colors: { primary: 'green' }, navigation: { pages: ['a'] } },
      'a.mdx': page('A'),
    });
    const error = await failure(dir);
    expect(error.message).toMatch(/docs\.json: colors\.primary: expected a hex color/);
  });

  it('says so when there is no docs.json', async () => {
    const error = await failure(tempDir());
    expect(error.message).toMatch(/no docs\.json \(or legacy mint\.json\)/);
  });

  it('refuses navigation paths that leave the repository, and symlinks pointing outside', async () => {
    const outside = docsRepo({ 'secret.mdx': page('Secret') });
    const dir = docsRepo(
      { 'docs.json': { name: 'X', navigation: { pages: ['../../etc/passwd', 'linked'] } } },
      { 'linked.mdx': `${outside}/secret.mdx` },
    );
    const error = await failure(dir);
    const text = error.message;
    expect(text).toMatch(/pages\[0\].*leaves the repository/);
    expect(text).toMatch(/symlink leading outside the repository/);
  });

  it('builds a page whose frontmatter is invalid without it, with a warning naming file and line', async () => {
    const dir = docsRepo({
      'docs.json': { name: 'X', navigation: { pages: ['intro'] } },
      'intro.mdx': '---\ntitle: Welcome\nbad: [unclosed\n---\n\nText\n',
    });
    const site = await loadSite(dir, options);
    expect(site.pages.map((p) => [p.route, p.title])).toEqual([['intro', 'Intro']]);
    const warning = site.warnings.find((w) => w.message.startsWith('invalid frontmatter'));
    expect(warning).toMatchObject({ file: 'intro.mdx' });
    expect(warning?.line).toBeGreaterThanOrEqual(2);
  });

  it('accepts the legacy mint.json, assigning groups to tabs by URL prefix', async () => {
    const dir = docsRepo({
      'mint.json': {
        name: 'Legacy',
        tabs: [{ name: 'API', url: 'api' }],
        anchors: [{ name: 'GitHub', url: 'https://github.com/acme' }],
        navigation: [
          { group: 'Intro', pages: ['intro'] },
          { group: 'Endpoints', pages: ['api/users'] },
        ],
      },
      'intro.mdx': page('Intro'),
      'api/users.mdx': page('Users'),
    });
    const site = await loadSite(dir, options);
    expect(site.config.configFile).toBe('mint.json');
    expect(site.sections.map((s) => s.label)).toEqual(['Documentation', 'API']);
    expect(site.pages.find((p) => p.title === 'Users')?.section).toBe(1);
    expect(site.globalLinks).toEqual([{ label: 'GitHub', href: 'https://github.com/acme', icon: undefined }]);
  });

  it('includes MDX pages outside the navigation as unlisted pages, but not README-like .md files', async () => {
    const dir = docsRepo({
      'docs.json': { name: 'X', navigation: { pages: ['a'] } },
      'a.mdx': page('A'),
      'orphan.mdx': page('Orphan'),
      'README.md': '# Readme',
      'snippets/part.mdx': 'A snippet',
    });
    const site = await loadSite(dir, options);
    expect(site.pages.map((p) => [p.title, p.listed])).toEqual([
      ['A', true],
      ['Orphan', false],
    ]);
  });

  it('keeps only the requested paths for rendering', async () => {
    const dir = docsRepo({
      'docs.json': { name: 'X', navigation: { pages: ['a', 'b/c', 'b/d'] } },
      'a.mdx': page('A'),
      'b/c.mdx': page('C'),
      'b/d.mdx': page('D'),
    });
    const site = await loadSite(dir, resolveOptions({ paths: ['/b'] }));
    expect(site.pages.map((p) => [p.route, p.rendered])).toEqual([
      ['a', false],
      ['b/c', true],
      ['b/d', true],
    ]);
    await expect(loadSite(dir, resolveOptions({ paths: ['/b', '/nope', 'x/y'] }))).rejects.toThrow(
      '2 requested paths name no page: /nope, x/y',
    );
  });

  it('selects the home page alone with "index"', async () => {
    const dir = docsRepo({
      'docs.json': { name: 'X', navigation: { pages: ['index', 'a', 'b/c'] } },
      'index.mdx': page('Home'),
      'a.mdx': page('A'),
      'b/c.mdx': page('C'),
    });
    for (const paths of [['index'], ['/'], ['index', 'b']]) {
      const site = await loadSite(dir, resolveOptions({ paths }));
      expect(site.pages.filter((p) => p.rendered).map((p) => p.route)).toEqual(
        paths.includes('b') ? ['', 'b/c'] : [''],
      );
    }
  });

  it('selects where a site without an index page starts with "index" (its index.html leads there)', async () => {
    const dir = docsRepo({
      'docs.json': { name: 'X', navigation: { pages: ['intro', 'a'] } },
      'intro.mdx': page('Intro'),
      'a.mdx': page('A'),
    });
    const site = await loadSite(dir, resolveOptions({ paths: ['index'] }));
    expect(site.pages.filter((p) => p.rendered).map((p) => p.route)).toEqual(['intro']);
  });
});
