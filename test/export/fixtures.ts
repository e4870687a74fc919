import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';
import type { SiteNavItem } from '../../src/export/source/load-site.ts';
import { type SyntheticSite, writeSyntheticSite } from '../../tools/synthetic-site.ts';

/**
 * The project's example docs site (examples/docs-site: docsnap's own documentation), the site
 * tests export when they need a real one, and how many pages its export has.
 */
export const EXAMPLE_SITE = fileURLToPath(new URL('../../examples/docs-site', import.meta.url));
export const EXAMPLE_SITE_PAGES = 19;

export { CORPORA, HAVE_CORPORA, withoutCorpora } from './corpora.ts';

const made: string[] = [];
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A temporary directory removed after the test file. */
export function tempDir(prefix = 'docsnap-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/**
 * Writes a small docs repository: `files` maps paths to contents (objects become JSON);
 * `symlinks` maps link paths to their targets.
 */
export function docsRepo(
  files: Record<string, string | object>,
  symlinks: Record<string, string> = {},
): string {
  const dir = tempDir('docsnap-repo-');
  for (const [path, contents] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(
      join(dir, path),
      typeof contents === 'string' ? contents : JSON.stringify(contents, null, 2),
    );
  }
  for (const [path, target] of Object.entries(symlinks)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    symlinkSync(target, join(dir, path));
  }
  return dir;
}

/** A synthetic site of `pages` pages (tools/synthetic-site.ts) in a temporary directory. */
export function syntheticSite(pages: number, seed = 7): SyntheticSite & { dir: string } {
  const dir = join(tempDir('docsnap-synthetic-'), 'site');
  return { dir, ...writeSyntheticSite(dir, { pages, seed }) };
}

export const page = (title: string, body = 'Some text.') =>
  `---\ntitle: ${JSON.stringify(title)}\n---\n\n${body}\n`;

/** A site's navigation as labels: page titles, `link:` labels, and groups as { label: [...] }. */
export function navigationLabels(items: SiteNavItem[], pages: { title: string }[]): unknown[] {
  return items.map((item) =>
    item.kind === 'page'
      ? pages[item.page]?.title
      : item.kind === 'link'
        ? `link:${item.label}`
        : { [item.label]: navigationLabels(item.items, pages) },
  );
}
