/**
 * The peer of `npm run bench:api`: a bare Fastify route returning the same JSON as the job status
 * endpoint, with no authentication, validation, rate limiting or logging.
 *
 *   node bench/bare-fastify.ts '<json body>' [schema] [auth] [rate-limit] [logging]
 *
 * The optional layers add, one at a time, what every Admin API route has, each done the plain
 * Fastify way, so the benchmark can show what each costs on the machine it runs on: `schema`
 * (params validated and the response serialized from a JSON Schema), `auth` (a synchronous
 * onRequest hook that hashes the bearer key and compares it in constant time), `rate-limit`
 * (@fastify/rate-limit on the route), `logging` (one pino line per request, written to stdout
 * asynchronously, as a production server logs).
 */
import { hash, timingSafeEqual } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyContextConfig, LogController } from 'fastify';
import pino from 'pino';

const body = JSON.parse(process.argv[2] ?? '{}');
const layers = new Set(process.argv.slice(3));
const app = Fastify(
  layers.has('logging')
    ? {
        loggerInstance: pino(pino.destination({ dest: 1, sync: false })),
        logController: new LogController({ disableRequestLogging: true }),
      }
    : { logger: false },
);
if (layers.has('logging'))
  app.addHook('onResponse', (request, reply, done) => {
    request.log.info(
      {
        reqId: request.id,
        method: request.method,
        url: request.url,
        statusCode: reply.statusCode,
        ms: reply.elapsedTime,
      },
      'request',
    );
    done();
  });

if (layers.has('rate-limit')) await app.register(rateLimit, { global: false });
if (layers.has('auth')) {
  const expected = Buffer.from(hash('sha256', 'Bearer docsnap_bench'));
  app.addHook('onRequest', (request, _reply, done) => {
    const presented = Buffer.from(hash('sha256', request.headers.authorization ?? ''));
    timingSafeEqual(presented, expected);
    done();
  });
}
const schema = layers.has('schema')
  ? {
      params: {
        type: 'object',
        properties: { jobId: { type: 'string', pattern: '^se_[0-9a-f]{16}$' } },
        required: ['jobId'],
      },
      response: {
        200: {
          type: 'object',
          properties: Object.fromEntries(
            Object.entries(body).map(([name, value]) => [
              name,
              { type: typeof value === 'number' ? 'integer' : 'string' },
            ]),
          ),
        },
      },
    }
  : undefined;
const config: FastifyContextConfig = layers.has('rate-limit')
  ? { rateLimit: { max: 1_000_000_000, timeWindow: 60_000, hook: 'preHandler' } }
  : {};

app.get('/v1/static-export/jobs/:jobId', { schema, config }, async () => body);
const address = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`listening ${address}\n`);
