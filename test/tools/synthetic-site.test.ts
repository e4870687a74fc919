import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportSite } from '../../src/export/pipeline.ts';
import { writeSyntheticSite } from '../../tools/synthetic-site.ts';
import { tempDir } from '../export/fixtures.ts';
import { checkSite } from '../export/site-check.ts';

/** One sha256 over every file's path and bytes. */
function digest(dir: string): string {
  const hash = createHash('sha256');
  const files = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
  for (const file of files) hash.update(`${file}\0`).update(readFileSync(join(dir, file)));
  return hash.digest('hex');
}

const hasHugo = (() => {
  try {
    execFileSync('hugo', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe('the synthetic site generator (tools/synthetic-site.ts)', () => {
  it.each(['docs', 'hugo'] as const)('writes the same bytes for the same seed (%s format)', (format) => {
    const write = (seed: number) => {
      const dir = join(tempDir(), 'site');
      writeSyntheticSite(dir, { pages: 150, seed, format });
      return digest(dir);
    };
    const first = write(3);
    expect(write(3)).toBe(first);
    expect(write(4)).not.toBe(first);
  });

  it('averages about 5 KB of source per page, like real repositories', () => {
    const dir = join(tempDir(), 'site');
    const site = writeSyntheticSite(dir, { pages: 400 });
    const content = site.pages.filter((p) => !p.operation);
    const bytes = content.reduce((sum, p) => sum + readFileSync(join(dir, `${p.path}.mdx`)).length, 0);
    expect(bytes / content.length).toBeGreaterThan(4000);
    expect(bytes / content.length).toBeLessThan(7000);
  });

  it('makes a site docsnap exports with no warning: every page, every operation, no broken link', {
    timeout: 60_000,
  }, async () => {
    const source = join(tempDir(), 'site');
    const site = writeSyntheticSite(source, { pages: 240, seed: 11 });
    const docsJson = JSON.parse(readFileSync(join(source, 'docs.json'), 'utf8'));
    expect(docsJson.navigation.tabs.map((t: { tab: string }) => t.tab)).toEqual(site.sections);
    const operations = site.pages.filter((p) => p.operation);
    expect(operations.length).toBe(36);
    expect(new Set(operations.map((p) => p.operation?.namedBy))).toEqual(new Set(['navigation', 'page']));

    const out = join(tempDir(), 'out');
    const result = await exportSite({ source, outDir: out, options: { deployment: 'air-gapped' } });
    expect(result.warnings).toEqual([]);
    expect(result.pageCount).toBe(240);
    const check = checkSite(out);
    expect(check.brokenLinks).toEqual([]);
    expect(check.externalLoads).toEqual([]);
    const html = Object.keys(result.manifest.files)
      .filter((f) => f.startsWith('api-reference/') && f.endsWith('.html'))
      .map((f) => readFileSync(join(out, f), 'utf8'));
    expect(html.filter((page) => page.includes('ds-api'))).toHaveLength(operations.length);
  });

  it('writes a Hugo twin with the same pages, linking only to pages that exist', () => {
    const dir = join(tempDir(), 'hugo');
    const site = writeSyntheticSite(dir, { pages: 120, format: 'hugo' });
    for (const page of site.pages) {
      const text = readFileSync(join(dir, 'content', `${page.path}.md`), 'utf8');
      expect(text).toContain(`title: ${JSON.stringify(page.title)}`);
      for (const [, target] of text.matchAll(/relref "\/([^"]+)"/g))
        expect(existsSync(join(dir, 'content', target as string)), target).toBe(true);
    }
  });

  it.skipIf(!hasHugo)(
    `builds with Hugo${hasHugo ? '' : ' (skipped: hugo is not installed; apt-get install hugo)'}`,
    { timeout: 60_000 },
    () => {
      const dir = join(tempDir(), 'hugo');
      const site = writeSyntheticSite(dir, { pages: 120, format: 'hugo' });
      execFileSync('hugo', ['--quiet', '-d', join(dir, 'public')], { cwd: dir, stdio: 'pipe' });
      const first = site.pages[0];
      expect(readFileSync(join(dir, 'public', first?.path ?? '', 'index.html'), 'utf8')).toContain(
        first?.title,
      );
    },
  );
});
