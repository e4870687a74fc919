import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeArchive } from '../../../src/export/archive/archive.ts';
import { ExportError } from '../../../src/export/errors.ts';
import { exportSite } from '../../../src/export/pipeline.ts';
import { toRoute, unsafeNameReason } from '../../../src/export/source/routes.ts';
import { docsRepo, page, tempDir } from '../fixtures.ts';

/** Finding: names made from a repository's routes could land outside the output (tar-slip). */

const config = (extra: object = {}) => ({
  name: 'Hostile',
  colors: { primary: '#0a7' },
  navigation: { groups: [{ group: 'Start', pages: ['index'] }] },
  ...extra,
});

/** Python's tarfile with the 'data' filter: refuses absolute names, `..`, links out and devices. */
function strictExtract(archive: string, into: string): void {
  execFileSync('python3', [
    '-c',
    'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2], filter="data")',
    archive,
    into,
  ]);
}

async function exportFails(source: string, options: { outDir?: string; archivePath?: string }) {
  const error = await exportSite({ source, ...options }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ExportError);
  return error as ExportError;
}

describe('routes from any source stay inside the output', () => {
  it.each([
    ['/../../x', '..'],
    ['/../escape', '..'],
    ['/a/../../b', '..'],
    ['/back\\slash', 'backslash'],
    ['/new\nline', 'control character'],
    ['/evil\u202Egnp.html', 'bidirectional'],
  ])('a redirect source %j is refused, naming the field', async (source, reason) => {
    const work = tempDir();
    const repo = docsRepo({
      'docs.json': config({
        redirects: [
          { source: '/fine', destination: '/' },
          { source, destination: '/' },
        ],
      }),
      'index.mdx': page('Home'),
    });
    const outDir = join(work, 'site', 'out');
    const error = await exportFails(repo, { outDir, archivePath: join(work, 'site.tar.gz') });
    expect(error.message).toContain('redirects[1].source');
    expect(error.message).toContain(reason);
    // Nothing was written: not the escaping file, not the site, not the archive.
    expect(existsSync(join(work, 'x.html'))).toBe(false);
    expect(existsSync(join(work, 'site', 'escape.html'))).toBe(false);
    expect(existsSync(outDir)).toBe(false);
    expect(existsSync(join(work, 'site.tar.gz'))).toBe(false);
  });

  it('a navigation entry with a backslash or a bidi override is refused with its JSON path', async () => {
    const repo = docsRepo({
      'docs.json': config({
        navigation: { groups: [{ group: 'Start', pages: ['index', 'a\\b', 'r\u202Eevil'] }] },
      }),
      'index.mdx': page('Home'),
      'a\\b.mdx': page('Backslash'),
      'r\u202Eevil.mdx': page('Bidi'),
    });
    const error = await exportFails(repo, { archivePath: join(tempDir(), 'site.tar.gz') });
    expect(error.problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/navigation.*\[1\].*backslash/),
      expect.stringMatching(/navigation.*\[2\].*bidirectional/),
    ]);
  });

  it('a page file outside the navigation with an unsafe name is left out with a warning', async () => {
    const repo = docsRepo({
      'docs.json': config(),
      'index.mdx': page('Home'),
      'tab\there.mdx': page('Control'),
    });
    const work = tempDir();
    const result = await exportSite({ source: repo, archivePath: join(work, 'site.tar.gz') });
    expect(Object.keys(result.manifest.files).some((f) => f.includes('\t'))).toBe(false);
    expect(result.warnings).toContainEqual(
      expect.objectContaining({ file: 'tab\there.mdx', message: expect.stringContaining('left out') }),
    );
  });

  it('every entry of a hostile repository archive unpacks inside, with a strict extractor', async () => {
    const repo = docsRepo({
      'docs.json': config({
        redirects: [
          { source: '/old', destination: '/' },
          { source: '/deep/old/', destination: '/guide' },
        ],
        navigation: { groups: [{ group: 'Start', pages: ['index', 'sub/../guide', '/guide/'] }] },
      }),
      'index.mdx': page('Home'),
      'guide.mdx': page('Guide'),
    });
    const work = tempDir();
    await exportSite({ source: repo, archivePath: join(work, 'site.tar.gz') });
    const into = join(work, 'unpacked');
    strictExtract(join(work, 'site.tar.gz'), into);
    const listing = readdirSync(into, { recursive: true }).map(String);
    expect(listing).toContain('old.html');
    expect(listing).toContain(join('deep', 'old.html'));
    expect(readdirSync(work).sort()).toEqual(['site.tar.gz', 'unpacked']);
  });

  it('the archive writer refuses an unsafe entry name whatever made it (defence in depth)', async () => {
    const work = tempDir();
    const source = { size: () => 1, read: () => Buffer.from('x'), stream: () => null as never };
    for (const name of ['../x.html', '/etc/x', 'a/../../x', 'a\\b', '']) {
      const error = await writeArchive(source, [name], join(work, 'a.tar.gz')).catch((e: unknown) => e);
      expect(error, name).toBeInstanceOf(ExportError);
    }
    expect(readdirSync(work)).toEqual([]);
  });
});

describe('the route policy', () => {
  it.each([
    ['', 'it is empty'],
    ['C:/windows', 'it is an absolute path'],
    ['guide/intro.html', undefined],
    ['a/../b', 'it leaves the output directory (..)'],
    ['/abs', 'it is an absolute path'],
    ['a//b', 'it has an empty or "." path segment'],
    ['a\u0085b', 'it contains a control character'],
    ['a\u2066b', 'it contains a bidirectional text override'],
  ])('%j → %s', (name, reason) => {
    expect(unsafeNameReason(name)).toBe(reason);
  });

  it('keeps what real sites use: root slashes, index pages, unicode letters', () => {
    expect(toRoute('/quickstart/', 'f')).toBe('quickstart');
    expect(toRoute('guides/index.mdx', 'f')).toBe('guides');
    expect(toRoute('/index', 'f')).toBe('');
    expect(toRoute('/ja/はじめに', 'f')).toBe('ja/はじめに');
  });
});

describe('names that hold a colon', () => {
  it('a page route with a colon is refused, naming the entry', async () => {
    const repo = docsRepo({
      'docs.json': config({
        navigation: { groups: [{ group: 'Start', pages: ['index', 'javascript:alert(1)'] }] },
      }),
      'index.mdx': page('Home'),
      'javascript:alert(1).mdx': page('Colon'),
    });
    const error = await exportFails(repo, { archivePath: join(tempDir(), 'site.tar.gz') });
    expect(error.problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/\[1\]: route "javascript:alert\(1\)" refused: it contains a colon/),
    ]);
  });

  it('a link to a file whose name holds a colon stays a path, never read as a scheme', async () => {
    const repo = docsRepo({
      'docs.json': config(),
      'index.mdx': page('Home', '[Download](/javascript:alert(1).pdf)'),
      'javascript:alert(1).pdf': 'pdf',
    });
    const outDir = join(tempDir(), 'site');
    await exportSite({ source: repo, outDir });
    const home = readFileSync(join(outDir, 'index.html'), 'utf8');
    expect(home).toContain('href="./javascript:alert(1).pdf"');
    expect(home).not.toMatch(/href="javascript:/);
  });
});
