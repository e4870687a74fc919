import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SourceProblem } from '../../../src/export/errors.ts';
import { exportSite } from '../../../src/export/pipeline.ts';
import { tempDir } from '../fixtures.ts';
import { hostileRepo, URL_VECTORS } from './hostile-repo.ts';
import { hostileUrlsIn } from './scan.ts';

const deployments = ['cloud', 'air-gapped'] as const;
const exported = new Map<string, { dir: string; warnings: SourceProblem[] }>();

beforeAll(async () => {
  const source = hostileRepo();
  for (const deployment of deployments) {
    const dir = join(tempDir(), 'site');
    const result = await exportSite({ source, outDir: dir, workers: 1, options: { deployment } });
    exported.set(deployment, { dir, warnings: result.warnings });
  }
}, 120_000);

describe.each(deployments)('a hostile repository exported for %s', (deployment) => {
  it(`keeps every one of the ${URL_VECTORS.length} script-URL vectors out of pages and scripts`, () => {
    const { dir } = exported.get(deployment) ?? { dir: '' };
    expect(hostileUrlsIn(dir, URL_VECTORS)).toEqual([]);
  });

  it('names the file of each refused URL in a warning', () => {
    const { warnings } = exported.get(deployment) ?? { warnings: [] };
    const refused = (file: string) =>
      warnings.filter((w) => w.file === file && /URL|scheme/i.test(w.message)).map((w) => w.message);
    expect(refused('index.mdx').length).toBeGreaterThanOrEqual(10);
    expect(refused('raw.md').length).toBeGreaterThanOrEqual(1);
    expect(refused('external.mdx').join('\n')).toMatch(/url/);
    expect(refused('big/external.mdx').join('\n')).toMatch(/url/);
    const config = refused('docs.json').join('\n');
    for (const where of ['navbar', 'footer', 'logo', 'favicon', 'redirects', 'navigation'])
      expect(config).toContain(where);
  });
});
