import swagger from '@fastify/swagger';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

/** The OpenAPI document, generated from the routes' zod schemas, served at /openapi.json. */
export const openapi = fp(
  async (app) => {
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
    // After every route is known: the document is made once, on first request.
    app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  },
  { name: 'docsnap-openapi' },
);
