import { threadId } from 'node:worker_threads';
import { workerData } from 'piscina';
import type { ExportOptions } from './options.ts';
import { BatchRenderer, type RenderOutcome } from './render-batch.ts';
import type { SiteModel } from './source/load-site.ts';

/**
 * A render worker: receives the site model once (workerData) and renders batches of pages into
 * its own spool file. Only metadata goes back to the main thread, so the pages' text never
 * crosses threads and the main thread stays free for indexing.
 */
const { site, options, spoolDir } = workerData as {
  site: SiteModel;
  options: ExportOptions;
  spoolDir: string;
};
const renderer = new BatchRenderer(site, options, spoolDir, `pages-${threadId}.spool`);

export default function renderBatch(pages: number[]): Promise<RenderOutcome[]> {
  return renderer.render(pages);
}
