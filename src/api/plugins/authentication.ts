import fp from 'fastify-plugin';
import type { ApiKeys, KeyCheck } from '../../service/api-keys.ts';
import { ServiceRefusal } from '../../service/errors.ts';

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

/** The security requirement of an authenticated operation in the OpenAPI document. */
export const bearer = [{ adminKey: [] }];

/**
 * Bearer admin keys on every route whose config says `authenticate: true`; the key's organization
 * becomes `request.organization`. A callback hook, not an async one: nearly every request is
 * answered from the keys in memory, and a promise per request is a measurable share of the time
 * of a status call.
 */
export const authentication = fp<{ keys: ApiKeys }>(
  async (app, { keys }) => {
    app.decorateRequest('organization', '');
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
      const known = keys.check(key);
      if (known) return settle(known);
      keys.authenticate(key).then(settle, done);
    });
  },
  { name: 'docsnap-authentication' },
);
