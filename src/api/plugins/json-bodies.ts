import fp from 'fastify-plugin';

/**
 * Bodies are JSON only (anything else is 415). "No request body" endpoints are still called with
 * Content-Type: application/json and nothing after it by many clients: an empty JSON body is no
 * body, anything else is parsed as usual.
 */
export const jsonBodies = fp(
  async (app) => {
    const json = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('text/plain');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      if (body === '') done(null, undefined);
      else json(request, body as string, done);
    });
  },
  { name: 'docsnap-json-bodies' },
);
