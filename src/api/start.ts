import type { DestinationStream } from 'pino';
import type { ApiConfig } from '../contract/api-config.ts';
import { AgentJobs } from '../service/agent-jobs.ts';
import { ApiKeys } from '../service/api-keys.ts';
import { ExportJobs } from '../service/export-jobs.ts';
import type { ObjectStore } from '../storage/object-store.ts';
import { openObjectStore } from '../storage/open-store.ts';
import { createLogger } from './logging.ts';
import { type ApiServer, buildApiServer } from './server.ts';

/** How long a stopping server lets requests in flight finish. */
const CLOSE_GRACE_MS = 10_000;

export interface RunningApi {
  app: ApiServer;
  /** http://host:port of the listening server. */
  url: string;
  store: ObjectStore;
  exportJobs: ExportJobs;
  /** Stops accepting requests and cancels running exports (they resume on the next start). */
  close(): Promise<void>;
}

/** `docsnap api`: the store, the services, jobs left over by a previous run, then the HTTP server. */
export async function startApi(
  config: ApiConfig,
  options: { logDestination?: DestinationStream; logLevel?: string } = {},
): Promise<RunningApi> {
  const logger = createLogger({ level: options.logLevel, destination: options.logDestination });
  let url = '';
  const store = openObjectStore(config.storage, () => url);
  const exportJobs = new ExportJobs(store, config, logger.child({ component: 'export-jobs' }));
  const keys = new ApiKeys(store, config.auth.keyPrefix);
  const stopRefreshingKeys = keys.refreshEvery(config.auth.keyRefresh, (error) =>
    logger.warn({ err: error.message }, 'could not read the admin keys again; the last ones stay in use'),
  );
  const app = await buildApiServer(
    config,
    { exportJobs, agentJobs: new AgentJobs(store), keys, store },
    logger,
  );
  const address = await app.listen({ host: config.server.host, port: config.server.port });
  url = address.replace('[::1]', 'localhost');
  await exportJobs.recover();
  const stopRetention = exportJobs.keepRetention(
    { maxAgeMs: config.retention.maxAge, keepPerSite: config.retention.keepPerSite },
    config.retention.sweepEvery,
  );
  return {
    app,
    url,
    store,
    exportJobs,
    close: async () => {
      // Requests in flight get a grace period; a client that never finishes reading a response
      // does not hold the shutdown past it.
      stopRefreshingKeys();
      stopRetention();
      const forced = setTimeout(() => app.server.closeAllConnections(), CLOSE_GRACE_MS).unref();
      await app.close();
      clearTimeout(forced);
      await exportJobs.close();
    },
  };
}
