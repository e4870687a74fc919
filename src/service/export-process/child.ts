import { ExportError } from '../../export/errors.ts';
import { resolveOptions } from '../../export/options.ts';
import { exportSite } from '../../export/pipeline.ts';
import { homeRoute, loadSite } from '../../export/source/load-site.ts';
import { fetchRemoteSpec } from '../remote-openapi.ts';
import type { ChildMessage, IsolatedExportRequest, IsolatedExportResult, ParentMessage } from './messages.ts';

/**
 * The process an export runs in (see pool.ts): it takes one export at a time from its parent,
 * reports progress, and sends back the result or the error as data. It holds nothing of the
 * server that started it: no keys, no store credentials, no other tenant's jobs.
 */
const send = (message: ChildMessage) => process.send?.(message);

process.on('message', async (message: ParentMessage) => {
  if (message.type !== 'export') return;
  try {
    if (message.request.pagesOnly) {
      send({ type: 'result', result: await pagesOf(message.request) });
      return;
    }
    const result = await exportSite({
      ...message.request,
      fetchRemoteSpec,
      onProgress: (progress) => send({ type: 'progress', progress }),
    });
    send({
      type: 'result',
      result: { pageCount: result.pageCount, archive: result.archive, warnings: result.warnings },
    });
  } catch (error) {
    send({
      type: 'error',
      error:
        error instanceof ExportError
          ? { kind: 'export', message: error.message, problems: error.problems }
          : { kind: 'internal', message: (error as Error)?.stack ?? String(error), problems: [] },
    });
  }
});

/** The site loaded as an export would load it (the same checks and budgets), its pages' routes. */
async function pagesOf(request: IsolatedExportRequest): Promise<IsolatedExportResult> {
  const options = resolveOptions({ ...request.options, paths: undefined });
  const site = await loadSite(request.source, options, fetchRemoteSpec);
  return {
    pageCount: site.pages.length,
    warnings: site.warnings,
    routes: site.pages.map((page) => page.route),
    home: homeRoute(site.pages, site.sections),
  };
}

// The parent going away (a crash, a kill -9) takes its exports with it.
process.on('disconnect', () => process.exit(0));
