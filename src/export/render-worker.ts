import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { workerData } from 'piscina';
import { ExportError, type SourceProblem } from './errors.ts';
import type { ExportOptions } from './options.ts';
import { markdownPath } from './output/site-files.ts';
import { PageRenderer, type RenderedPage } from './pages/render-page.ts';
import type { SiteModel } from './source/load-site.ts';

/** A rendered page as the main thread sees it: its files are on disk already, with their sha256. */
export type WrittenPage = Omit<RenderedPage, 'html' | 'markdown'> & {
  index: number;
  files: Record<string, string>;
};

/** A page that could not be rendered because of bad input, sent back as data (errors lose their class between threads). */
export interface RenderFailure {
  index: number;
  failure: { message: string; problems: SourceProblem[] };
}
export type RenderOutcome = WrittenPage | RenderFailure;

/**
 * A render worker: receives the site model once (workerData) and renders batches of pages,
 * writing each page's HTML and Markdown itself. Only metadata goes back to the main thread, so
 * the pages' text never crosses threads and the main thread stays free for indexing.
 */
const { site, options, outDir } = workerData as { site: SiteModel; options: ExportOptions; outDir: string };
const renderer = new PageRenderer(site, options);

// Folders already made by this worker: one mkdir per folder, not per file.
const madeDirs = new Set<string>();

function write(path: string, contents: string): string {
  const full = join(outDir, path);
  const dir = dirname(full);
  if (!madeDirs.has(dir)) {
    mkdirSync(dir, { recursive: true });
    madeDirs.add(dir);
  }
  writeFileSync(full, contents);
  return createHash('sha256').update(contents).digest('hex');
}

export default async function renderBatch(pages: number[]): Promise<RenderOutcome[]> {
  const results: RenderOutcome[] = [];
  for (const index of pages) {
    try {
      const { html, markdown, ...rest } = await renderer.render(index);
      const md = markdownPath(rest.output);
      results.push({
        ...rest,
        index,
        files: { [rest.output]: write(rest.output, html), [md]: write(md, markdown) },
      });
    } catch (error) {
      if (!(error instanceof ExportError)) throw error;
      results.push({ index, failure: { message: error.message, problems: error.problems } });
    }
  }
  return results;
}
