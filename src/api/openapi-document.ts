import { ApiConfig } from '../contract/api-config.ts';
import { createLogger } from './logging.ts';
import { type ApiServices, buildApiServer } from './server.ts';

/**
 * The Admin API's OpenAPI document, as `GET /openapi.json` serves it, built without storage or a
 * port: the routes are registered and described, and no request is ever served, so the services
 * behind them are never called.
 */
export async function adminApiOpenApiDocument(): Promise<Record<string, unknown>> {
  const config = ApiConfig.parse({
    organizations: [{ id: 'example', plan: 'enterprise', projects: ['example'] }],
    sites: [],
    storage: { local: { dir: '/nonexistent' } },
  });
  const unused = { store: {} } as ApiServices;
  const app = await buildApiServer(config, unused, createLogger({ level: 'silent' }));
  try {
    await app.ready();
    return app.swagger() as unknown as Record<string, unknown>;
  } finally {
    await app.close();
  }
}
