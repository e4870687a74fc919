/**
 * npm run bench:export — the export pipeline beside Hugo on the same content.
 *
 * Generates the synthetic 10,000-page site (seed 7) and its Hugo twin (tools/synthetic-site.ts),
 * then in the same run: `docsnap export` end to end (render, search index, archive: the product the
 * API and the operator ship) and `hugo --quiet -d OUT` on the twin (a site directory: Hugo's product). Prints wall time, pages per second and peak RSS of both.
 * Target: docsnap at most half of Hugo's wall time, peak RSS under 1 GiB.
 *
 *   npm run bench:export [-- --pages 10000 --seed 7]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { markdownParser } from '../src/export/markdown/parse.ts';
import { writeSyntheticSite } from '../tools/synthetic-site.ts';
import { measure } from './measure.ts';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '10000' },
    seed: { type: 'string', default: '7' },
    keep: { type: 'boolean', default: false },
  },
});
const pages = Number(values.pages);
const repo = fileURLToPath(new URL('..', import.meta.url));
let hugoVersion: string;
try {
  hugoVersion = execFileSync('hugo', ['version'], { encoding: 'utf8' }).trim();
} catch {
  console.error('hugo is missing: the benchmark runs it beside docsnap. Install it: apt-get install hugo');
  process.exit(1);
}
const work = mkdtempSync(join(tmpdir(), 'docsnap-bench-export-'));

try {
  console.log(`generating ${pages} pages (seed ${values.seed}) in ${work} ...`);
  for (const format of ['docs', 'hugo'] as const)
    writeSyntheticSite(join(work, format), { pages, seed: Number(values.seed), format });
  console.log(
    `machine: ${availableParallelism()} cores; node ${process.version}; ${hugoVersion}; docsnap Markdown parser: ${markdownParser}`,
  );

  const archive = join(work, 'site.tar.gz');
  const docsnap = await measure('docsnap export', process.execPath, [
    join(repo, 'src/cli/main.ts'),
    'export',
    join(work, 'docs'),
    '--out',
    archive,
  ]);
  if (docsnap.exitCode !== 0) throw new Error(`docsnap export failed:\n${docsnap.output}`);
  const hugo = await measure('hugo', 'hugo', ['--quiet', '-d', join(work, 'hugo-out')], {
    cwd: join(work, 'hugo'),
  });
  if (hugo.exitCode !== 0) throw new Error(`hugo failed:\n${hugo.output}`);

  const rows = [docsnap, hugo].map((m) => ({
    tool: m.name,
    'wall s': m.wallSeconds.toFixed(1),
    'pages/s': Math.round(pages / m.wallSeconds),
    'peak RSS MiB': Math.round(m.peakRssMiB),
  }));
  console.table(rows);
  const ratio = docsnap.wallSeconds / hugo.wallSeconds;
  console.log(`archive: ${(statSync(archive).size / 1024 / 1024).toFixed(1)} MiB`);
  console.log(
    `docsnap / hugo wall time: ${ratio.toFixed(2)} (target ≤ 0.50) ${ratio <= 0.5 ? 'MET' : 'NOT MET'}`,
  );
  console.log(
    `docsnap peak RSS: ${Math.round(docsnap.peakRssMiB)} MiB (target < 1024) ${docsnap.peakRssMiB < 1024 ? 'MET' : 'NOT MET'}`,
  );
  console.log(
    docsnap.output
      .split('\n')
      .filter((l) => /^(exported|sha256|size|\d+ warning)/.test(l))
      .join('\n'),
  );
} finally {
  if (!values.keep) rmSync(work, { recursive: true, force: true });
  else console.log(`kept ${work}`);
}
