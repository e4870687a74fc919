import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ExportOptionsInput } from '../../../src/export/options.ts';
import { type ExportResult, exportSite } from '../../../src/export/pipeline.ts';
import { docsRepo, tempDir } from '../fixtures.ts';

/**
 * The compatibility suite's fixture: a small repository written from the format's reference,
 * exported whole, with what a test reads from the output. Each test of the suite is named after
 * the docs.json key or navigation kind it shows, as docs/export.md's compatibility table lists it.
 */
export interface ExportedFixture {
  result: ExportResult;
  outDir: string;
  /** The text of an output file. */
  file(path: string): string;
  /** Warning messages, "file: message". */
  warnings: string[];
}

export async function exportFixture(
  files: Record<string, string | object>,
  options: ExportOptionsInput = {},
): Promise<ExportedFixture> {
  const outDir = join(tempDir(), 'site');
  const result = await exportSite({ source: docsRepo(files), outDir, options, workers: 1 });
  return {
    result,
    outDir,
    file: (path) => readFileSync(join(outDir, path), 'utf8'),
    warnings: result.warnings.map((w) => `${w.file}: ${w.message}`),
  };
}
