import { workerData } from 'piscina';
import { ExportError, type SourceProblem } from './errors.ts';
import type { ExportOptions } from './options.ts';
import { PageRenderer, type RenderedPage } from './pages/render-page.ts';
import type { SiteModel } from './source/load-site.ts';

/** A page that could not be rendered because of bad input, sent back as data (errors lose their class between threads). */
export interface RenderFailure {
  index: number;
  failure: { message: string; problems: SourceProblem[] };
}
export type RenderOutcome = (RenderedPage & { index: number }) | RenderFailure;

/**
 * A render worker: receives the site model once (workerData) and renders batches of pages.
 * Batches amortize the cost of crossing threads; results go straight back to be written.
 */
const { site, options } = workerData as { site: SiteModel; options: ExportOptions };
const renderer = new PageRenderer(site, options);

export default async function renderBatch(pages: number[]): Promise<RenderOutcome[]> {
  const results: RenderOutcome[] = [];
  for (const index of pages) {
    try {
      results.push({ index, ...(await renderer.render(index)) });
    } catch (error) {
      if (!(error instanceof ExportError)) throw error;
      results.push({ index, failure: { message: error.message, problems: error.problems } });
    }
  }
  return results;
}
