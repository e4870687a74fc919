import { createHash } from 'node:crypto';
import { ExportError, type SourceProblem } from './errors.ts';
import type { ExportOptions } from './options.ts';
import { type SpoolSlice, SpoolWriter } from './output/page-spool.ts';
import { markdownPath } from './output/site-files.ts';
import { PageRenderer, type RenderedPage } from './pages/render-page.ts';
import type { SiteModel } from './source/load-site.ts';

/** A page file in a spool, with its sha256. */
export type SpooledFile = SpoolSlice & { sha256: string };

/** A rendered page as the pipeline sees it: its files are in a spool already. */
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
 * Renders batches of pages of one site, appending each page's HTML and Markdown to its own spool
 * file (output/page-spool.ts) and returning only metadata. A render worker holds one; so does the
 * pipeline itself when a site is too small to be worth a thread.
 */
export class BatchRenderer {
  private readonly renderer: PageRenderer;
  private readonly spool: SpoolWriter;

  constructor(site: SiteModel, options: ExportOptions, spoolDir: string, spoolName: string) {
    this.renderer = new PageRenderer(site, options);
    this.spool = new SpoolWriter(spoolDir, spoolName);
  }

  async render(pages: number[]): Promise<RenderOutcome[]> {
    const results: RenderOutcome[] = [];
    this.spool.open();
    try {
      for (const index of pages) results.push(await this.renderOne(index));
    } finally {
      this.spool.close();
    }
    return results;
  }

  private async renderOne(index: number): Promise<RenderOutcome> {
    try {
      const { html, markdown, ...rest } = await this.renderer.render(index);
      const md = markdownPath(rest.output);
      return { ...rest, index, files: { [rest.output]: this.spooled(html), [md]: this.spooled(markdown) } };
    } catch (error) {
      if (!(error instanceof ExportError)) throw error;
      return { index, failure: { message: error.message, problems: error.problems } };
    }
  }

  private spooled(contents: string): SpooledFile {
    const bytes = Buffer.from(contents);
    return { ...this.spool.append(bytes), sha256: createHash('sha256').update(bytes).digest('hex') };
  }
}
