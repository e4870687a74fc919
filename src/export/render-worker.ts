import { workerData } from 'piscina';
import type { ExportOptions } from './options.ts';
import { PageRenderer, type RenderedPage } from './pages/render-page.ts';
import type { SiteModel } from './source/load-site.ts';

/**
 * A render worker: receives the site model once (workerData) and renders batches of pages.
 * Batches amortize the cost of crossing threads; results go straight back to be written.
 */
const { site, options } = workerData as { site: SiteModel; options: ExportOptions };
const renderer = new PageRenderer(site, options);

export default async function renderBatch(pages: number[]): Promise<Array<RenderedPage & { index: number }>> {
  const results: Array<RenderedPage & { index: number }> = [];
  for (const index of pages) results.push({ index, ...(await renderer.render(index)) });
  return results;
}
