import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SiteConfig } from '../../src/contract/api-config.ts';
import { ExportEngine } from '../../src/service/export-engine.ts';
import { LocalObjectStore } from '../../src/storage/local-store.ts';

/** The job engine on its own: no organizations, plans or keys, as the operator's embedded exporter uses it. */
const dirs: string[] = [];
const quiet = { info() {}, warn() {}, error() {} };
const site: SiteConfig = {
  domain: 'docs.example.test',
  organization: 'unused',
  source: { path: join(import.meta.dirname, '../../examples/docs-site') },
  deployment: 'air-gapped',
} as SiteConfig;

function engineOn(dir: string, sites: SiteConfig[]) {
  return new ExportEngine(
    new LocalObjectStore(dir, () => 'http://127.0.0.1:1'),
    { links: { lifetime: 60_000 }, exports: { concurrency: 1, perOwner: { queued: 2 } } },
    quiet,
    { siteOf: (domain) => sites.find((s) => s.domain === domain) },
  );
}

async function settled(engine: ExportEngine, jobId: string) {
  for (;;) {
    const record = await engine.find(jobId);
    if (record && (record.status === 'completed' || record.status === 'failed')) return record;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('the export engine', () => {
  it('runs a job for any owner, with no tenancy configured, and links its archive', {
    timeout: 60_000,
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docsnap-engine-'));
    dirs.push(dir);
    const engine = engineOn(dir, [site]);
    try {
      const queued = await engine.submit('docs/my-site', site, {});
      expect(queued).toMatchObject({ status: 'queued', organization: 'docs/my-site', domain: site.domain });
      const done = await settled(engine, queued.jobId);
      expect(done).toMatchObject({ status: 'completed', progress: 100 });
      expect(done.pageCount).toBeGreaterThan(0);
      const bundle = await engine.bundle(done);
      expect(bundle.bundleUrl).toContain(`/downloads/bundles/${queued.jobId}.tar.gz?`);
      expect(await engine.find('se_0000000000000000')).toBeUndefined();
    } finally {
      await engine.close();
    }
  });

  it('gives one owner every slot while nobody else waits, and half of them once another owner does', {
    timeout: 30_000,
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docsnap-engine-'));
    dirs.push(dir);
    const runningNow = new Map<string, number>();
    const peak = new Map<string, number>();
    const engine = new ExportEngine(
      new LocalObjectStore(dir, () => 'http://127.0.0.1:1'),
      { links: { lifetime: 60_000 }, exports: { concurrency: 4, perOwner: { queued: 50 } } },
      quiet,
      {
        siteOf: () => site,
        // Exports that take a moment, counted per owner (the version label names the owner here).
        runner: async (request) => {
          const owner = request.options.version as string;
          runningNow.set(owner, (runningNow.get(owner) ?? 0) + 1);
          peak.set(owner, Math.max(peak.get(owner) ?? 0, runningNow.get(owner) ?? 0));
          await new Promise((resolve) => setTimeout(resolve, 300));
          runningNow.set(owner, (runningNow.get(owner) ?? 0) - 1);
          writeFileSync(request.archivePath, 'archive');
          return { pageCount: 1, warnings: [], archive: { sizeBytes: 7, sha256: 'x', files: 1 } as never };
        },
      },
    );
    try {
      const alone = await Promise.all([1, 2, 3, 4].map(() => engine.submit('a', site, { version: 'a' })));
      for (const job of alone) await settled(engine, job.jobId);
      expect(peak.get('a')).toBe(4);
      peak.clear();
      const busy = await Promise.all(
        [1, 2, 3, 4, 5, 6].map(() => engine.submit('a', site, { version: 'a' })),
      );
      const other = await Promise.all([1, 2, 3].map(() => engine.submit('b', site, { version: 'b' })));
      for (const job of [...busy, ...other]) await settled(engine, job.jobId);
      // a had all four slots when b arrived; from then on each gets its half.
      expect(peak.get('b')).toBe(2);
    } finally {
      await engine.close();
    }
  });

  it('refuses an owner past its waiting limit, and fails a resumed job whose site is gone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docsnap-engine-'));
    dirs.push(dir);
    const first = engineOn(dir, [site]);
    const jobs: string[] = [];
    // The first takes the one slot, two wait: the limit.
    for (let i = 0; i < 3; i++) jobs.push((await first.submit('a', site, {})).jobId);
    await expect(first.submit('a', site, {})).rejects.toThrow(/2 export jobs of yours are waiting/);
    await first.submit('b', site, {}); // another owner is not held to a's limit
    await first.close();

    const second = engineOn(dir, []);
    try {
      expect(await second.recover()).toEqual([]);
      for (const jobId of jobs)
        expect(await second.find(jobId)).toMatchObject({
          status: 'failed',
          error: expect.stringMatching(/docs\.example\.test is no longer configured/),
        });
    } finally {
      await second.close();
    }
  });
});
