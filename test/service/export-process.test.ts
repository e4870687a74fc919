import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ExportError } from '../../src/export/errors.ts';
import { ExportLimitExceeded } from '../../src/service/errors.ts';
import { ExportProcessPool } from '../../src/service/export-process/pool.ts';
import { docsRepo, page, tempDir } from '../export/fixtures.ts';
import { memoryBombRepo } from '../export/hostile/repos.ts';

const config = {
  name: 'Pool',
  colors: { primary: '#0a7' },
  navigation: { groups: [{ group: 'Start', pages: ['index'] }] },
};

/** A site big enough that its export takes seconds. */
function slowRepo(): string {
  const files: Record<string, string | object> = { 'index.mdx': page('Home') };
  const pages = Array.from({ length: 1500 }, (_, i) => `p${i}`);
  for (const name of pages) files[`${name}.mdx`] = page(name, '## Heading\n\nText with `code`.\n'.repeat(40));
  files['docs.json'] = {
    ...config,
    navigation: { groups: [{ group: 'Start', pages: ['index', ...pages] }] },
  };
  return docsRepo(files);
}

describe('export processes', () => {
  const work = tempDir();
  const pools: ExportProcessPool[] = [];
  afterAll(() => Promise.all(pools.map((p) => p.close())));
  const pool = (limits: { memoryMiB?: number; timeoutMs?: number } = {}) => {
    const made = new ExportProcessPool({ log: { warn: () => {} }, limits });
    pools.push(made);
    return made;
  };
  let n = 0;
  const run = (p: ExportProcessPool, source: string, signal = new AbortController().signal) =>
    p.run(
      { source, archivePath: join(work, `site-${n++}.tar.gz`), workDir: work, options: {} },
      { signal, onProgress: () => {} },
    );

  /** Runs `work` while timing the event loop of this (the parent) process. */
  async function withLoopWatch<T>(work: Promise<T>): Promise<{ result: T; worstLagMs: number }> {
    let worstLagMs = 0;
    let last = performance.now();
    const tick = setInterval(() => {
      const now = performance.now();
      worstLagMs = Math.max(worstLagMs, now - last - 20);
      last = now;
    }, 20);
    try {
      return { result: await work, worstLagMs };
    } finally {
      clearInterval(tick);
    }
  }

  it('exports in a child process and keeps it for the next export', { timeout: 60_000 }, async () => {
    const p = pool();
    const repo = docsRepo({ 'docs.json': config, 'index.mdx': page('Home') });
    const first = await run(p, repo);
    expect(first.pageCount).toBe(1);
    expect(first.archive?.sha256).toMatch(/^[0-9a-f]{64}$/);
    const started = performance.now();
    const second = await run(p, repo);
    expect(second.archive?.sha256).toBe(first.archive?.sha256);
    // No process start the second time (a start loads the whole pipeline: about a second).
    expect(performance.now() - started).toBeLessThan(first.pageCount * 1000);
  });

  it('bad content fails as an ExportError with its problems, across the process boundary', async () => {
    const p = pool();
    const repo = docsRepo({
      'docs.json': { ...config, navigation: { groups: [{ group: 'A', pages: ['../outside'] }] } },
    });
    const error = await run(p, repo).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExportError);
    expect((error as ExportError).problems[0]?.message).toMatch(/"\.\.\/outside": it leaves the repository/);
  });

  it('stops an export past its memory limit, while this process stays responsive', {
    timeout: 60_000,
  }, async () => {
    const p = pool({ memoryMiB: 300 });
    const repo = memoryBombRepo();
    const { result: error, worstLagMs } = await withLoopWatch(run(p, repo).catch((e: unknown) => e));
    expect(error).toBeInstanceOf(ExportLimitExceeded);
    expect((error as Error).message).toBe('the export used more than 300 MiB of memory, its limit');
    expect(worstLagMs).toBeLessThan(500);
    // The pool goes on: the next export gets a new process.
    const fine = await run(p, docsRepo({ 'docs.json': config, 'index.mdx': page('Home') }));
    expect(fine.pageCount).toBe(1);
  });

  it('stops an export past its time limit', { timeout: 60_000 }, async () => {
    const p = pool({ timeoutMs: 1500 });
    const started = performance.now();
    const error = await run(p, slowRepo()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExportLimitExceeded);
    expect((error as Error).message).toBe('the export ran longer than 2 s, its time limit');
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('a cancelled export stops at once', { timeout: 60_000 }, async () => {
    const p = pool();
    const abort = new AbortController();
    const running = run(p, slowRepo(), abort.signal).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 500));
    const stoppedAt = performance.now();
    abort.abort();
    const error = await running;
    expect(error).toBeInstanceOf(ExportError);
    expect((error as Error).message).toBe('export cancelled');
    expect(performance.now() - stoppedAt).toBeLessThan(1000);
  });
});
