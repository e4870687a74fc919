import { ExportError } from '../../export/errors.ts';
import { exportSite } from '../../export/pipeline.ts';
import { fetchRemoteSpec } from '../remote-openapi.ts';
import type { ChildMessage, ParentMessage } from './messages.ts';

/**
 * The process an export runs in (see pool.ts): it takes one export at a time from its parent,
 * reports progress, and sends back the result or the error as data. It holds nothing of the
 * server that started it: no keys, no store credentials, no other tenant's jobs.
 */
const send = (message: ChildMessage) => process.send?.(message);

process.on('message', async (message: ParentMessage) => {
  if (message.type !== 'export') return;
  try {
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

// The parent going away (a crash, a kill -9) takes its exports with it.
process.on('disconnect', () => process.exit(0));
