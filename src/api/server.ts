import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import fastJson from 'fast-json-stringify';
import Fastify, { type FastifyError, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import { z } from 'zod';
import {
  AgentJob,
  AgentJobParams,
  COMMON_ERRORS,
  ExportBundle,
  ExportJob,
  ExportJobParams,
  errorResponse,
  StartExportRequest,
} from '../contract/admin-api.ts';
import type { ApiConfig } from '../contract/api-config.ts';
import type { AgentJobs } from '../service/agent-jobs.ts';
import type { ApiKeys, KeyCheck } from '../service/api-keys.ts';
import { type RefusalKind, ServiceRefusal } from '../service/errors.ts';
import type { ExportJobs } from '../service/export-jobs.ts';
import { LOCAL_DOWNLOAD_PATH, LocalObjectStore } from '../storage/local-store.ts';
import type { ObjectStore } from '../storage/object-store.ts';
import { loggableUrl } from './logging.ts';
import { SharedBudgetStore } from './shared-budget-store.ts';

export interface ApiServices {
  exportJobs: ExportJobs;
  agentJobs: AgentJobs;
  keys: ApiKeys;
  store: ObjectStore;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The organization of the admin key that authenticated the request. */
    organization: string;
  }
  interface FastifyContextConfig {
    /** Routes of the Admin API need an admin key; the OpenAPI document and signed downloads do not. */
    authenticate?: boolean;
  }
}

const STATUS: Record<RefusalKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  'too-many': 429,
};

const bearer = [{ adminKey: [] }];

/**
 * The Admin API (spec section 4) as a Fastify server: schema-first routes validated with the zod
 * contract (the OpenAPI document is generated from the same schemas), bearer admin keys, per-project
 * rate limits, and `{error}` bodies for every failure.
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
    // Node's parser refuses a request (431, a Content-Length/Transfer-Encoding conflict…) before
    // Fastify sees it; the answer is still `{error}`.
    clientErrorHandler: answerClientError,
    // A bad percent-encoding in the URL (the message would quote the whole URL back).
    frameworkErrors: (_error, _request, reply) => {
      (reply as FastifyReply).code(400).send({ error: 'the URL is not valid percent-encoding' });
    },
    // One line per request (onResponse below) instead of Fastify's two, and no child logger per
    // request: each line names its request id itself. Both are a large share of a status call.
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: (logger) => logger,
    // Path parameters of any length reach the route (which answers 404 for an id that names no
    // job); the header size limit bounds them.
    routerOptions: { maxParamLength: 64 * 1024 },
  }).withTypeProvider<ZodTypeProvider>();
  app.server.maxConnections = connections.max;
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializer);
  app.decorateRequest('organization', '');

  // "No request body" endpoints are still called with Content-Type: application/json and nothing
  // after it by many clients: an empty JSON body is no body, anything else is parsed as usual.
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('text/plain'); // bodies are JSON only: anything else is 415
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') done(null, undefined);
    else json(request, body as string, done);
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.0.1',
      servers: [
        {
          url: '/',
          description: 'This server (the static export operations are under /v1, the agent job under /v2).',
        },
      ],
      info: {
        title: 'docsnap Admin API',
        version: '2.0.0',
        description: 'Agent job status and static export jobs (see the service specification).',
      },
      components: {
        securitySchemes: {
          adminKey: {
            type: 'http',
            scheme: 'bearer',
            description: 'An admin API key: Authorization: Bearer <prefix>_<secret>.',
          },
        },
      },
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  // Counted after authentication, per organization (and project for agent jobs): one tenant's
  // requests never spend another's budget, and the limit headers speak of the caller's own.
  await app.register(rateLimit, { global: false, store: SharedBudgetStore });
  // A docs site's API playground calls from the reader's browser: only the origins configured may.
  if (config.server.corsOrigins.length > 0)
    await app.register(cors, {
      origin: config.server.corsOrigins,
      methods: ['GET', 'POST', 'DELETE'],
      allowedHeaders: ['Authorization', 'Content-Type'],
      maxAge: 600,
    });

  app.addHook('onResponse', async (request, reply) => {
    const line = {
      reqId: request.id,
      method: request.method,
      url: loggableUrl(request.url),
      statusCode: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
      organization: request.organization || undefined,
    };
    // Refusals and failures carry the request's headers (the admin key redacted) for whoever
    // investigates them; successful requests stay one short line.
    if (reply.statusCode >= 400) request.log.info({ ...line, req: request.raw }, 'request refused');
    else request.log.info(line, 'request');
  });

  // A callback hook, not an async one: nearly every request is answered from the keys in
  // memory, and a promise per request is a measurable share of the time of a status call.
  app.addHook('onRequest', (request, reply, done) => {
    if (!request.routeOptions.config.authenticate) return done();
    const refuse = (message: string) => {
      reply.header('www-authenticate', 'Bearer');
      done(new ServiceRefusal('unauthenticated', message));
    };
    const settle = (result: KeyCheck) => {
      if ('refused' in result) return refuse(result.refused);
      request.organization = result.organization;
      done();
    };
    const header = request.headers.authorization;
    if (!header) return refuse('missing admin key: send Authorization: Bearer <admin key>');
    const match = /^Bearer +(\S+)$/i.exec(header);
    if (!match) return refuse('malformed Authorization header: expected Bearer <admin key>');
    const key = match[1] as string;
    const known = services.keys.check(key);
    if (known) return settle(known);
    services.keys.authenticate(key).then(settle, done);
  });

  // A known path asked with a method it does not have is 405 with Allow, not 404.
  const routeMethods = new Map<RegExp, Set<string>>();
  app.addHook('onRoute', (route) => {
    if (route.url.endsWith('*')) return;
    const pattern = new RegExp(`^${route.url.replace(/:[^/]+/g, '[^/]+')}$`);
    const known = [...routeMethods.keys()].find((p) => p.source === pattern.source) ?? pattern;
    const methods = routeMethods.get(known) ?? new Set<string>();
    for (const method of [route.method].flat()) methods.add(method);
    routeMethods.set(known, methods);
  });
  const noRoute = (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0] ?? '';
    const methods = [...routeMethods].find(([pattern]) => pattern.test(path))?.[1];
    if (methods)
      return reply
        .code(405)
        .header('allow', [...methods].join(', '))
        .send({ error: `${request.method} is not allowed on ${path}; use ${[...methods].join(' or ')}` });
    return reply.code(404).send({ error: `no route ${request.method} ${path}` });
  };
  app.setErrorHandler((error: FastifyError, request, reply) =>
    // Unknown methods may fail in body handling before the not-found handler runs.
    request.is404 ? noRoute(request, reply) : sendError(error, request, reply),
  );
  app.setNotFoundHandler(noRoute);

  const projectsOf = (organization: string) =>
    config.organizations.find((o) => o.id === organization)?.projects ?? [];

  app.get(
    '/v2/agent/:projectId/job/:id',
    {
      config: authenticatedAndLimited(
        config.rateLimits.agentJobs,
        (request) => `agent:${request.organization}:${(request.params as { projectId: string }).projectId}`,
      ),
      schema: {
        summary: 'Get agent job',
        operationId: 'getAgentJob',
        description: 'The current state of an agent job; poll until completed, archived or failed.',
        tags: ['agent jobs'],
        security: bearer,
        params: AgentJobParams,
        response: {
          200: AgentJob.describe('The agent job.'),
          404: errorResponse('No job matches the identifier in this project.'),
          ...COMMON_ERRORS,
        },
      },
    },
    async (request) => {
      const { projectId, id } = request.params;
      if (!projectsOf(request.organization).includes(projectId))
        throw new ServiceRefusal('not-found', `no agent job ${id} in project ${projectId}`);
      return services.agentJobs.get(projectId, id);
    },
  );

  const staticExportLimit = authenticatedAndLimited(
    config.rateLimits.staticExport,
    (request) => `static-export:${request.organization}`,
  );

  const knownProperties = new Set(Object.keys(StartExportRequest.shape));
  app.post(
    '/v1/static-export/jobs',
    {
      config: staticExportLimit,
      // Properties the contract may add are ignored; say which, for whoever investigates.
      preValidation: (request, _reply, done) => {
        const body = request.body;
        const unknown =
          body && typeof body === 'object'
            ? Object.keys(body).filter((key) => !knownProperties.has(key))
            : [];
        if (unknown.length > 0)
          request.log.debug(
            { reqId: request.id, unknown: unknown.slice(0, 20) },
            'ignored unknown properties',
          );
        done();
      },
      schema: {
        summary: 'Start static export job',
        operationId: 'startStaticExportJob',
        description: 'Queues a static export of a documentation domain. Requires an Enterprise plan.',
        tags: ['static export'],
        security: bearer,
        body: StartExportRequest,
        response: {
          202: ExportJob.describe('The export job was accepted and queued.'),
          400: errorResponse(
            'The request is invalid: the body is not JSON within the size limit, `domain` is not a hostname, or a `paths` entry names no page.',
          ),
          403: errorResponse(
            'The organization has no Enterprise plan, or the domain is not one of its documentation sites.',
          ),
          ...COMMON_ERRORS,
        },
      },
    },
    async (request, reply) => {
      const job = await services.exportJobs.start(request.organization, request.body);
      return reply.code(202).send(job);
    },
  );

  app.get(
    '/v1/static-export/jobs/:jobId',
    {
      config: staticExportLimit,
      schema: {
        summary: 'Get static export job status',
        operationId: 'getStaticExportJob',
        description:
          'Status, live progress (0–100) and page count. A failed export is 200 with status failed.',
        tags: ['static export'],
        security: bearer,
        params: ExportJobParams,
        response: {
          200: ExportJob.describe('The current state of the export job.'),
          404: errorResponse('No job of this organization has the identifier.'),
          ...COMMON_ERRORS,
        },
      },
    },
    async (request) => services.exportJobs.get(request.organization, request.params.jobId),
  );

  app.post(
    '/v1/static-export/jobs/:jobId/bundle',
    {
      config: staticExportLimit,
      schema: {
        summary: 'Generate export bundle',
        operationId: 'generateStaticExportBundle',
        description:
          'A presigned link to the archive of a completed job, valid until expiresAt. Calling again returns a fresh link for the same job.',
        tags: ['static export'],
        security: bearer,
        params: ExportJobParams,
        response: {
          200: ExportBundle.describe('A presigned link to the archive of the job.'),
          404: errorResponse('No job of this organization has the identifier.'),
          409: errorResponse('The job has not completed, so there is no bundle yet.'),
          415: errorResponse('A body was sent that is not JSON (this operation takes none).'),
          ...COMMON_ERRORS,
        },
      },
    },
    async (request) => services.exportJobs.bundle(request.organization, request.params.jobId),
  );

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  app.get('/healthz', { schema: { hide: true } }, async () => ({ ok: true }));

  const store = services.store;
  if (store instanceof LocalObjectStore) {
    app.get(
      `${LOCAL_DOWNLOAD_PATH}*`,
      {
        schema: {
          hide: true,
          querystring: z.object({ expires: z.string().default(''), signature: z.string().default('') }),
        },
      },
      async (request, reply) => {
        const key = (request.params as { '*': string })['*'];
        const opened = await store.openLink(key, request.query.expires, request.query.signature);
        if ('refused' in opened)
          return reply.code(opened.notFound ? 404 : 403).send({ error: opened.refused });
        return reply
          .header('content-type', 'application/gzip')
          .header('content-length', opened.size)
          .header('cache-control', 'private, no-store')
          .send(opened.stream);
      },
    );
  }
  return app;
}

/**
 * Route config of an Admin API route: an admin key, then a request limit per key of the request
 * (counted after authentication, so unauthenticated calls spend nobody's budget).
 */
function authenticatedAndLimited(
  limit: { max: number; window: number },
  keyOf: (request: FastifyRequest) => string,
) {
  return {
    authenticate: true,
    rateLimit: { max: limit.max, timeWindow: limit.window, hook: 'preHandler' as const, keyGenerator: keyOf },
  };
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

/** Statuses for the errors of Node's HTTP parser (llhttp codes and Node's own). */
const CLIENT_ERRORS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'the request headers are too large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'the request did not arrive in time'],
  HPE_UNEXPECTED_CONTENT_LENGTH: [400, 'Content-Length and Transfer-Encoding together'],
  HPE_INVALID_TRANSFER_ENCODING: [400, 'an invalid Transfer-Encoding'],
  HPE_INVALID_CONTENT_LENGTH: [400, 'an invalid Content-Length'],
};

/** A request Node's parser refused: `{error}` with the status, then the connection is closed. */
function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, message] = CLIENT_ERRORS[error.code ?? ''] ?? [400, 'a malformed HTTP request'];
  const body = JSON.stringify({ error: message });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nconnection: close\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

/**
 * The statuses the platform's published contract documents for each operation. A refusal whose
 * own status it does not list is answered with 400 where the operation documents 400 (413 and 415
 * of a start are "the request is invalid"); 401, 429 and 5xx keep theirs.
 */
const DOCUMENTED_STATUSES: Record<string, number[]> = {
  'POST /v1/static-export/jobs': [202, 400, 401, 403],
  'GET /v1/static-export/jobs/:jobId': [200, 401, 404],
  'POST /v1/static-export/jobs/:jobId/bundle': [200, 401, 404, 409],
  'GET /v2/agent/:projectId/job/:id': [200, 401, 404],
};

function fittingStatus(request: FastifyRequest, status: number): number {
  const documented = DOCUMENTED_STATUSES[`${request.method} ${request.routeOptions.url}`];
  if (!documented || documented.includes(status) || status === 429 || status >= 500) return status;
  return documented.includes(400) ? 400 : status;
}

/** Every failure as `{error}` with its status; a 500 says nothing about the server's insides. */
function sendError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error instanceof ServiceRefusal) {
    // A full queue frees up as exports finish: a client may try again soon.
    if (error.kind === 'too-many') reply.header('retry-after', '30');
    return reply.code(fittingStatus(request, STATUS[error.kind])).send({ error: error.message });
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const where = error.validationContext ?? 'request';
    const problems = error.validation.map((issue) => {
      const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
      return `${where}${field ? `.${field}` : ''}: ${issue.message}`;
    });
    return reply.code(fittingStatus(request, 400)).send({ error: problems.join('; ') });
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    if (status === 429 && !reply.hasHeader('retry-after')) reply.header('retry-after', '60');
    return reply.code(fittingStatus(request, status)).send({ error: error.message });
  }
  request.log.error({ err: error }, 'request failed');
  return reply.code(500).send({ error: 'internal server error' });
}
