import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExportError, type SourceProblem } from '../../../src/export/errors.ts';
import { resolveOptions } from '../../../src/export/options.ts';
import { exportSite } from '../../../src/export/pipeline.ts';
import { splitFrontmatter } from '../../../src/export/source/frontmatter.ts';
import { ignoredFiles, MINTIGNORE_LIMITS } from '../../../src/export/source/ignored-files.ts';
import { loadSite } from '../../../src/export/source/load-site.ts';
import { DocsRepository } from '../../../src/export/source/repository.ts';
import { docsRepo, page, tempDir } from '../fixtures.ts';

/**
 * Findings of an attacker's look at .mintignore, pages outside the navigation and lenient
 * frontmatter: each one's repository, and the bound that stops it.
 */
const config = { name: 'Hostile', navigation: { pages: ['index'] } };
const options = resolveOptions();

async function loadError(dir: string): Promise<ExportError> {
  const error = await loadSite(dir, options).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ExportError);
  return error as ExportError;
}

describe('a hostile .mintignore', () => {
  it('runs of "**" are merged: 1,000 patterns over paths of 4 KB take milliseconds, not minutes', async () => {
    // Was 189 s for 20 files: each "**" a backtracking group, four in a row.
    const patterns = Array.from({ length: 1000 }, (_, i) => `a/**/**/**/**/b${i}`).join('\n');
    const deep = `a/${Array.from({ length: 31 }, () => 'a'.repeat(120)).join('/')}`;
    const files: Record<string, string> = { 'docs.json': JSON.stringify(config), 'index.mdx': page('Home') };
    for (let i = 0; i < 20; i++) files[`${deep}/${'a'.repeat(200)}${i}.png`] = '';
    const dir = docsRepo({ ...files, '.mintignore': patterns });
    const started = performance.now();
    const site = await loadSite(dir, options);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(site.assets).toHaveLength(20);
  });

  it('refuses patterns of more than one "**" between folders', () => {
    const problems: SourceProblem[] = [];
    const dir = docsRepo({ '.mintignore': 'a/**/b/**/c\n**/drafts/**\n**/x/**/y/**/z\n**/x/**/y\n' });
    const ignored = ignoredFiles(DocsRepository.open(dir), problems);
    expect(problems.map((p) => p.message)).toEqual([
      'a pattern with more than 1 "**" between folders is not applied',
      'a pattern with more than 1 "**" between folders is not applied',
    ]);
    expect(ignored('docs/drafts/plan.mdx', false)).toBe(true);
    expect(ignored('a/q/b/r/c', false)).toBe(false); // a/**/b/**/c, refused
    expect(ignored('docs/x/deep/y', false)).toBe(true);
  });

  it('is bounded in matching work over the whole walk, with an error naming it', async () => {
    expect(MINTIGNORE_LIMITS.matchingWork).toBeLessThanOrEqual(1e9);
    // 1,000 patterns × 1,100 paths of ~1,000 characters: past the bound.
    const folder = Array.from({ length: 8 }, (_, i) => `${i}${'f'.repeat(120)}`).join('/');
    const dir = docsRepo({
      'docs.json': config,
      'index.mdx': page('Home'),
      '.mintignore': Array.from({ length: 1000 }, (_, i) => `skip-${i}.txt`).join('\n'),
    });
    mkdirSync(join(dir, folder), { recursive: true });
    for (let i = 0; i < 1100; i++) writeFileSync(join(dir, folder, `${'n'.repeat(40)}${i}.png`), '');
    const error = await loadError(dir);
    expect(error.message).toMatch(
      /^\.mintignore: its 1000 patterns tried on every path of the repository are more matching than an export does/,
    );
  });

  it('cannot take back a default with "!"', async () => {
    const dir = docsRepo({
      'docs.json': config,
      'index.mdx': page('Home'),
      'README.md': '# Readme',
      'build/out.md': '# Built',
      '.mintignore': '!README.md\n!build/**\n',
    });
    const site = await loadSite(dir, options);
    expect(site.pages.map((p) => p.route)).toEqual(['']);
  });

  it('leaves ignored files counted against the number of files the walk allows', () => {
    const files: Record<string, string> = { 'docs.json': JSON.stringify(config), '.mintignore': '*.bin\n' };
    for (let i = 0; i < 20; i++) files[`d/f${i}.bin`] = '';
    const repo = DocsRepository.open(docsRepo(files));
    const problems: SourceProblem[] = [];
    expect(() =>
      repo.listFiles(
        { repositoryFiles: 10, folderDepth: 32, repositoryBytes: 1e9 },
        () => {},
        ignoredFiles(repo, problems),
      ),
    ).toThrow(/more than 10 files \(budgets\.repositoryFiles\)/);
  });
});

describe('pages outside the navigation', () => {
  it('a symlinked page cannot publish a dot file (.env, .git/config)', async () => {
    const dir = docsRepo(
      {
        'docs.json': config,
        'index.mdx': page('Home'),
        '.env': 'TOKEN=hunter2\n',
        '.git/config': '[remote "origin"]\n  url = https://user:secret@git.example.com/x\n',
      },
      { 'leak.md': '.env', 'gitcfg.txt': '.git/config' },
    );
    const out = tempDir();
    const result = await exportSite({ source: dir, outDir: out });
    expect(result.pageCount).toBe(1);
    expect(result.warnings.map((w) => `${w.file}: ${w.message}`)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^gitcfg\.txt: .*a symlink into a dot file or folder/),
        expect.stringMatching(/^leak\.md: .*a symlink into a dot file or folder/),
      ]),
    );
    expect(readFileSync(join(out, 'llms-full.txt'), 'utf8')).not.toContain('hunter2');
  });

  it('many page files fail the pages budget before they are placed, in linear time', async () => {
    const files: Record<string, string> = { 'docs.json': JSON.stringify(config), 'index.mdx': page('Home') };
    for (let i = 0; i < 3000; i++) files[`d${i % 30}/p${i}.md`] = '# P\n';
    const dir = docsRepo(files);
    const started = performance.now();
    const site = await loadSite(dir, options);
    expect(site.pages).toHaveLength(3001);
    expect(performance.now() - started).toBeLessThan(10_000);
    const error = await loadSite(dir, resolveOptions({ budgets: { pages: 1000 } })).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toMatch(/the site has 3001 pages, more than 1000 \(budgets\.pages\)/);
  });
});

describe('hostile frontmatter', () => {
  it('longer than 64 KiB is not parsed: a warning, the page built without it', () => {
    const text = `---\ntitle: T\n${'k: "a\n'.repeat(20_000)}---\nBody\n`;
    const started = performance.now();
    const { meta, problem } = splitFrontmatter(text, 'big.mdx');
    expect(performance.now() - started).toBeLessThan(500);
    expect(meta).toEqual({});
    expect(problem?.message).toMatch(/longer than 64 KiB/);
  });

  it('expanding more than 100 aliases is a warning, not a failed export', () => {
    const aliases = Array.from({ length: 101 }, () => '*a').join(', ');
    const { meta, problem } = splitFrontmatter(
      `---\nbase: &a x\nlist: [${aliases}]\ntitle: T\n---\n`,
      'a.mdx',
    );
    expect(meta).toEqual({});
    expect(problem).toMatchObject({ file: 'a.mdx', message: expect.stringMatching(/^invalid frontmatter/) });
  });
});
