import cors from '@fastify/cors';
import fastJson from 'fast-json-stringify';
import Fastify, { LogController } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { ApiConfig } from '../contract/api-config.ts';
import type { AgentJobs } from '../service/agent-jobs.ts';
import type { ApiKeys } from '../service/api-keys.ts';
import type { ExportJobs } from '../service/export-jobs.ts';
import type { ObjectStore } from '../storage/object-store.ts';
import { authentication } from './plugins/authentication.ts';
import { answerBadUrl, answerClientError, errors } from './plugins/errors.ts';
import { jsonBodies } from './plugins/json-bodies.ts';
import { openapi } from './plugins/openapi.ts';
import { rateLimits } from './plugins/rate-limits.ts';
import { requestLog } from './plugins/request-log.ts';
import { signedDownloads } from './plugins/signed-downloads.ts';
import { agentJobRoutes } from './routes/agent-jobs.ts';
import { staticExportJobRoutes } from './routes/static-export-jobs.ts';

export interface ApiServices {
  exportJobs: ExportJobs;
  agentJobs: AgentJobs;
  keys: ApiKeys;
  store: ObjectStore;
}

/**
 * The Admin API (spec section 4) as a Fastify server: schema-first routes validated with the zod
 * contract (the OpenAPI document is generated from the same schemas), bearer admin keys, rate
 * limits per organization, and `{error}` bodies for every failure. Each concern is a plugin
 * (plugins/), each resource a route module (routes/).
 */
export async function buildApiServer(
  config: Pick<ApiConfig, 'server' | 'organizations' | 'rateLimits'>,
  services: ApiServices,
  logger: Logger,
) {
  const { connections } = config.server;
  const app = Fastify({
    loggerInstance: logger,
    bodyLimit: config.server.bodyLimitBytes,
    trustProxy: config.server.trustProxy,
    return503OnClosing: true,
    // Sockets that send nothing, or too slowly, are closed: they would hold file descriptors.
    connectionTimeout: connections.idleTimeout,
    keepAliveTimeout: connections.keepAliveTimeout,
    requestTimeout: connections.requestTimeout,
    http: {
      maxHeaderSize: connections.maxHeaderBytes,
      headersTimeout: connections.headersTimeout,
      // How often Node checks the two timeouts above (30 s by default).
      connectionsCheckingInterval: 1_000,
    },
    clientErrorHandler: answerClientError,
    frameworkErrors: answerBadUrl,
    // One line per request (plugins/request-log.ts) instead of Fastify's two, and no child logger
    // per request: each line names its request id itself. Both are a large share of a status call.
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: (logger) => logger,
    // Path parameters of any length reach the route (which answers 404 for an id that names no
    // job); the header size limit bounds them.
    routerOptions: { maxParamLength: 64 * 1024 },
  }).withTypeProvider<ZodTypeProvider>();
  app.server.maxConnections = connections.max;
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializer);

  await app.register(errors);
  await app.register(jsonBodies);
  await app.register(openapi);
  // A docs site's API playground calls from the reader's browser: only the origins configured may.
  // Before authentication, so that a refusal (401) carries the CORS headers the browser needs to read it.
  if (config.server.corsOrigins.length > 0)
    await app.register(cors, {
      origin: config.server.corsOrigins,
      methods: ['GET', 'POST', 'DELETE'],
      allowedHeaders: ['Authorization', 'Content-Type'],
      maxAge: 600,
    });
  await app.register(authentication, { keys: services.keys });
  await app.register(rateLimits);
  await app.register(requestLog);

  await app.register(agentJobRoutes, {
    agentJobs: services.agentJobs,
    organizations: config.organizations,
    limit: config.rateLimits.agentJobs,
  });
  await app.register(staticExportJobRoutes, {
    exportJobs: services.exportJobs,
    limit: config.rateLimits.staticExport,
  });
  if (services.store.downloads) await app.register(signedDownloads, { downloads: services.store.downloads });
  app.get('/healthz', { schema: { hide: true } }, async () => ({ ok: true }));
  return app;
}

/**
 * Responses are written by fast-json-stringify from the JSON Schema of their zod schema: the
 * same shape, without a zod pass over every response (the services' types already guarantee
 * it), which is most of the cost of a status call.
 */
function responseSerializer({ schema }: { schema: unknown }): (data: unknown) => string {
  const jsonSchema = z.toJSONSchema(schema as z.ZodType, {
    target: 'draft-7',
    io: 'output',
    unrepresentable: 'any',
  });
  return fastJson(jsonSchema as Parameters<typeof fastJson>[0]);
}

export type ApiServer = Awaited<ReturnType<typeof buildApiServer>>;
