/**
 * The peer of `npm run bench:api`: a bare Fastify route returning the same JSON as the job status
 * endpoint, with no authentication, validation, rate limiting or logging.
 */
import Fastify from 'fastify';

const body = JSON.parse(process.argv[2] ?? '{}');
const app = Fastify({ logger: false });
app.get('/v1/static-export/jobs/:jobId', async () => body);
const address = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`listening ${address}\n`);
