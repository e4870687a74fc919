import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { docsRepo, page } from '../fixtures.ts';

/** Hostile docs repositories shared by the tests of everything that exports tenant content. */

const config = {
  name: 'Hostile',
  colors: { primary: '#0a7' },
  navigation: { groups: [{ group: 'Start', pages: ['index'] }] },
};

/** A docs.json whose parse alone needs a few hundred MiB: two million small objects under an unknown key. */
export function memoryBombRepo(): string {
  const repo = docsRepo({ 'index.mdx': page('Home') });
  const junk = Array.from({ length: 2_000_000 }, (_, i) => ({ k: `v${i}` }));
  writeFileSync(join(repo, 'docs.json'), JSON.stringify({ ...config, junk }));
  return repo;
}

/** Three folders that link back to the repository root: a walk that follows them never ends. */
export function symlinkLoopRepo(): string {
  return docsRepo(
    { 'docs.json': config, 'index.mdx': page('Home'), 'guides/a.mdx': page('A') },
    { 'guides/l1': '..', 'guides/l2': '..', 'guides/l3': '..' },
  );
}
