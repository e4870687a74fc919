import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { type RefusalKind, ServiceRefusal } from '../../service/errors.ts';

const STATUS: Record<RefusalKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  'too-many': 429,
};

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

/**
 * Every failure as `{error}` with its status: the services' refusals, validation, Fastify's own
 * errors, unknown routes (404) and known paths asked with another method (405 with Allow). A 500
 * says nothing about the server's insides; the log has it.
 */
export const errors = fp(
  async (app) => {
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
  },
  { name: 'docsnap-errors' },
);

function fittingStatus(request: FastifyRequest, status: number): number {
  const documented = DOCUMENTED_STATUSES[`${request.method} ${request.routeOptions.url}`];
  if (!documented || documented.includes(status) || status === 429 || status >= 500) return status;
  return documented.includes(400) ? 400 : status;
}

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

/** Statuses for the errors of Node's HTTP parser (llhttp codes and Node's own). */
const CLIENT_ERRORS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'the request headers are too large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'the request did not arrive in time'],
  HPE_UNEXPECTED_CONTENT_LENGTH: [400, 'Content-Length and Transfer-Encoding together'],
  HPE_INVALID_TRANSFER_ENCODING: [400, 'an invalid Transfer-Encoding'],
  HPE_INVALID_CONTENT_LENGTH: [400, 'an invalid Content-Length'],
};

/**
 * The server's `clientErrorHandler`: Node's parser refuses a request (431, a Content-Length and
 * Transfer-Encoding conflict…) before Fastify sees it; the answer is still `{error}` with the
 * status, then the connection is closed.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
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
 * The server's `frameworkErrors`: a bad percent-encoding in the URL, answered without quoting the
 * URL back (the message of Fastify's own error would).
 */
export function answerBadUrl(_error: unknown, _request: unknown, reply: unknown): void {
  (reply as FastifyReply).code(400).send({ error: 'the URL is not valid percent-encoding' });
}
