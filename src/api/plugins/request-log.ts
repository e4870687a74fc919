import fp from 'fastify-plugin';
import { loggableUrl } from '../logging.ts';

/**
 * One line per request, written when the response is sent (Fastify's own two lines per request are
 * turned off in the server's options). Refusals and failures carry the request's headers (the admin
 * key redacted) for whoever investigates them; successful requests stay one short line.
 */
export const requestLog = fp(
  async (app) => {
    app.addHook('onResponse', async (request, reply) => {
      const line = {
        reqId: request.id,
        method: request.method,
        url: loggableUrl(request.url),
        statusCode: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
        organization: request.organization || undefined,
      };
      if (reply.statusCode >= 400) request.log.info({ ...line, req: request.raw }, 'request refused');
      else request.log.info(line, 'request');
    });
  },
  { name: 'docsnap-request-log', dependencies: ['docsnap-authentication'] },
);
