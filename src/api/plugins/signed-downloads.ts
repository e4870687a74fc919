import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { LinkDownloads } from '../../storage/object-store.ts';

/**
 * The links of a store without a server of its own (the local directory store): GET
 * `<pathPrefix><key>?expires=…&signature=…` streams the object after the store checked the link.
 * Needs no admin key: the signature is the permission.
 */
export const signedDownloads: FastifyPluginAsyncZod<{ downloads: LinkDownloads }> = async (
  app,
  { downloads },
) => {
  app.get(
    `${downloads.pathPrefix}*`,
    {
      schema: {
        hide: true,
        querystring: z.object({ expires: z.string().default(''), signature: z.string().default('') }),
      },
    },
    async (request, reply) => {
      const key = (request.params as { '*': string })['*'];
      const opened = await downloads.open(key, request.query.expires, request.query.signature);
      if ('refused' in opened) return reply.code(opened.notFound ? 404 : 403).send({ error: opened.refused });
      return reply
        .header('content-type', 'application/gzip')
        .header('content-length', opened.size)
        .header('cache-control', 'private, no-store')
        .send(opened.stream);
    },
  );
};
