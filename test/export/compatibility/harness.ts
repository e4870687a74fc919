import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import type { ExportOptionsInput } from '../../../src/export/options.ts';
import { type ExportResult, exportSite } from '../../../src/export/pipeline.ts';
import { launchChromium, serveSite } from '../browser-harness.ts';
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

/** A one-pixel PNG, for fixtures that need an image file. */
export const PNG_PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
).toString('latin1');

/**
 * A fixture exported once for a test file, served over HTTP on loopback, with a Chromium to look
 * at it: the hooks start them before the file's tests and stop them after. Read the fields in tests.
 */
export function exportedForBrowser(
  files: Record<string, string | object>,
  options: ExportOptionsInput = {},
): { site: ExportedFixture; base: string; browser: Browser } {
  const state = {} as { site: ExportedFixture; base: string; browser: Browser };
  let server: Server | undefined;
  beforeAll(async () => {
    state.site = await exportFixture(files, options);
    const http = await serveSite(state.site.outDir);
    server = http.server;
    state.base = http.base;
    state.browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await state.browser?.close();
    server?.close();
  });
  return state;
}
