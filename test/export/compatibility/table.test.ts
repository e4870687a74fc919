import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** docs/export.md's compatibility table and the suite in this folder name the same tests. */

const here = fileURLToPath(new URL('.', import.meta.url));
const docs = readFileSync(fileURLToPath(new URL('../../../docs/export.md', import.meta.url)), 'utf8');

function tableRows(): Array<{ key: string; support: string; test: string }> {
  const section = /## docs\.json compatibility\n([\s\S]*?)\n## /.exec(docs)?.[1] ?? '';
  return section
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| Key') && !line.startsWith('|---'))
    .map((line) => {
      const [key = '', support = '', test = ''] = line.slice(2, -2).split(' | ');
      return { key, support, test };
    });
}

function suiteTests(): string[] {
  return readdirSync(here)
    .filter((file) => file.endsWith('.test.ts') && file !== 'table.test.ts')
    .flatMap((file) =>
      [...readFileSync(`${here}/${file}`, 'utf8').matchAll(/\bit\(\s*'((?:[^'\\]|\\.)*)'/g)].map((m) =>
        (m[1] ?? '').replace(/\\'/g, "'"),
      ),
    );
}

describe('docs.json compatibility table', () => {
  it('has a row for every test of the suite, and a test of the suite for every row', () => {
    const rows = tableRows();
    const tests = suiteTests();
    expect(rows.length).toBeGreaterThan(40);
    expect([...new Set(rows.map((row) => row.test))].sort()).toEqual([...new Set(tests)].sort());
  });

  it('says of every row whether the key is honoured or accepted with a note', () => {
    for (const row of tableRows())
      expect(['honoured', 'accepted with a note'], row.key).toContain(row.support);
  });
});
