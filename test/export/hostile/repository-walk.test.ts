import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExportError } from '../../../src/export/errors.ts';
import { exportSite } from '../../../src/export/pipeline.ts';
import { DocsRepository } from '../../../src/export/source/repository.ts';
import { docsRepo, page, tempDir } from '../fixtures.ts';
import { symlinkLoopRepo } from './repos.ts';

/** Finding: symlinked folders made the repository walk grow exponentially on the main thread. */

const config = {
  name: 'Hostile',
  colors: { primary: '#0a7' },
  navigation: { groups: [{ group: 'Start', pages: ['index'] }] },
};

describe('the repository walk', () => {
  it('walks three symlinks to ".." once each, in bounded time', async () => {
    const repo = symlinkLoopRepo();
    const started = Date.now();
    const refused: string[] = [];
    const files = DocsRepository.open(repo).listFiles(undefined, (path) => refused.push(path));
    expect(files).toEqual(['docs.json', 'guides/a.mdx', 'index.mdx']);
    expect(refused).toEqual(['guides/l1', 'guides/l2', 'guides/l3']);
    const result = await exportSite({ source: repo, archivePath: join(tempDir(), 'site.tar.gz') });
    expect(result.pageCount).toBe(2);
    expect(result.warnings.map((w) => w.file)).toEqual(
      expect.arrayContaining(['guides/l1', 'guides/l2', 'guides/l3']),
    );
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('counts a folder reached by many symlinks (a DAG of 2^16 paths) once', () => {
    // d0 holds a page; d(k+1) holds two links to d(k): 2^16 paths lead to the one page.
    const repo = docsRepo({ 'docs.json': config, 'index.mdx': page('Home'), 'd0/p.mdx': page('P') });
    for (let k = 1; k <= 16; k++) {
      mkdirSync(join(repo, `d${k}`));
      symlinkSync(`../d${k - 1}`, join(repo, `d${k}`, 'a'));
      symlinkSync(`../d${k - 1}`, join(repo, `d${k}`, 'b'));
    }
    const files = DocsRepository.open(repo).listFiles();
    expect(files).toEqual(['d0/p.mdx', 'docs.json', 'index.mdx']);
  });

  it('a symlink loop (a → b → a) is refused by name, not followed', () => {
    const repo = docsRepo({ 'docs.json': config, 'index.mdx': page('Home') }, { a: 'b', b: 'a' });
    const refused: Array<[string, string]> = [];
    DocsRepository.open(repo).listFiles(undefined, (path, reason) => refused.push([path, reason]));
    expect(refused).toEqual([
      ['a', 'a: a symlink loop'],
      ['b', 'b: a symlink loop'],
    ]);
  });

  it.each([
    [
      'files',
      { repositoryFiles: 5, folderDepth: 32, repositoryBytes: 1e9 },
      /more than 5 files \(budgets.repositoryFiles\)/,
    ],
    [
      'depth',
      { repositoryFiles: 1e5, folderDepth: 3, repositoryBytes: 1e9 },
      /a\/a\/a\/a: folders nested more than 3 deep \(budgets.folderDepth\)/,
    ],
    [
      'bytes',
      { repositoryFiles: 1e5, folderDepth: 32, repositoryBytes: 2 * 1024 ** 2 },
      /more than 2 MiB \(budgets.repositoryBytes\)/,
    ],
  ])('stops past the limit of %s with a named error', (_kind, limits, message) => {
    const repo = docsRepo({ 'docs.json': config, 'index.mdx': page('Home') });
    for (let i = 0; i < 8; i++) writeFileSync(join(repo, `f${i}.txt`), Buffer.alloc(512 * 1024));
    mkdirSync(join(repo, 'a/a/a/a/a'), { recursive: true });
    const error = (() => {
      try {
        DocsRepository.open(repo).listFiles(limits);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ExportError);
    expect((error as Error).message).toMatch(message);
  });

  it('walks 40 folders deep without recursion when the limit allows it', () => {
    const deep = Array.from({ length: 40 }, () => 'd').join('/');
    const repo = docsRepo({ 'docs.json': config, 'index.mdx': page('Home'), [`${deep}/x.png`]: 'png' });
    const files = DocsRepository.open(repo).listFiles({
      repositoryFiles: 10,
      folderDepth: 64,
      repositoryBytes: 1e6,
    });
    expect(files).toContain(`${deep}/x.png`);
  });
});

describe('pages per export', () => {
  it('50,001 navigation entries naming one operation stop at the limit of pages, in linear time', async () => {
    const entries = Array.from({ length: 50_001 }, () => 'GET /things');
    const repo = docsRepo({
      'docs.json': {
        ...config,
        navigation: { groups: [{ group: 'API', openapi: 'api.json', pages: entries }] },
      },
      'api.json': {
        openapi: '3.0.0',
        info: { title: 'T', version: '1' },
        paths: { '/things': { get: { summary: 'List things', responses: { 200: { description: 'ok' } } } } },
      },
    });
    const started = Date.now();
    const error = await exportSite({ source: repo, archivePath: join(tempDir(), 'site.tar.gz') }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ExportError);
    expect((error as Error).message).toBe(
      'docs.json: the site has 50001 pages, more than 50000 (budgets.pages)',
    );
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});
