import { createHash } from 'node:crypto';
import { threadId } from 'node:worker_threads';
import { workerData } from 'piscina';
import { ExportError, type SourceProblem } from './errors.ts';
import type { ExportOptions } from './options.ts';
import { type SpoolSlice, SpoolWriter } from './output/page-spool.ts';
import { markdownPath } from './output/site-files.ts';
import { PageRenderer, type RenderedPage } from './pages/render-page.ts';
import type { SiteModel } from './source/load-site.ts';

/** A page file in this thread's spool, with its sha256. */
export type SpooledFile = SpoolSlice & { sha256: string };

/** A rendered page as the main thread sees it: its files are in a spool already. */
export type WrittenPage = Omit<RenderedPage, 'html' | 'markdown'> & {
  index: number;
  files: Record<string, SpooledFile>;
};

/** A page that could not be rendered because of bad input, sent back as data (errors lose their class between threads). */
export interface RenderFailure {
  index: number;
  failure: { message: string; problems: SourceProblem[] };
}
export type RenderOutcome = WrittenPage | RenderFailure;

/**
 * A render worker: receives the site model once (workerData) and renders batches of pages,
 * appending each page's HTML and Markdown to its own spool file (output/page-spool.ts). Only
 * metadata goes back to the main thread, so the pages' text never crosses threads and the main
 * thread stays free for indexing.
 */
const { site, options, spoolDir } = workerData as {
  site: SiteModel;
  options: ExportOptions;
  spoolDir: string;
};
const renderer = new PageRenderer(site, options);
const spool = new SpoolWriter(spoolDir, `pages-${threadId}.spool`);

function spooled(contents: string): SpooledFile {
  const bytes = Buffer.from(contents);
  return { ...spool.append(bytes), sha256: createHash('sha256').update(bytes).digest('hex') };
}

export default async function renderBatch(pages: number[]): Promise<RenderOutcome[]> {
  const results: RenderOutcome[] = [];
  spool.open();
  try {
    for (const index of pages) results.push(await renderOne(index));
  } finally {
    spool.close();
  }
  return results;
}

async function renderOne(index: number): Promise<RenderOutcome> {
  try {
    const { html, markdown, ...rest } = await renderer.render(index);
    const md = markdownPath(rest.output);
    return { ...rest, index, files: { [rest.output]: spooled(html), [md]: spooled(markdown) } };
  } catch (error) {
    if (!(error instanceof ExportError)) throw error;
    return { index, failure: { message: error.message, problems: error.problems } };
  }
}
