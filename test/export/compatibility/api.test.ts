import { describe, expect, it } from 'vitest';
import { page } from '../fixtures.ts';
import { exportFixture } from './harness.ts';

/** docs.json `api` (and mint.json's legacy `api`): how API pages show samples and the playground. */

const spec = (servers?: string[]) => ({
  openapi: '3.0.3',
  info: { title: 'T', version: '1' },
  ...(servers ? { servers: servers.map((url) => ({ url })) } : {}),
  paths: {
    '/users': {
      get: {
        summary: 'List users',
        parameters: [
          { name: 'limit', in: 'query', required: true, schema: { type: 'integer', example: 10 } },
          { name: 'cursor', in: 'query', schema: { type: 'string', example: 'abc' } },
        ],
        responses: { 200: { description: 'OK' } },
      },
    },
  },
});

const docsJson = (api: object) => ({
  'docs.json': {
    name: 'A',
    api,
    navigation: { tabs: [{ tab: 'API', openapi: 'openapi.json', pages: ['GET /users'] }] },
  },
  'openapi.json': spec(['https://api.example.com']),
});

const connectSources = (html: string) =>
  /connect-src ([^;"]*)/
    .exec(html.replace(/&#x27;/g, "'"))?.[1]
    ?.trim()
    .split(' ');

const samplesOf = (html: string) => [...html.matchAll(/data-sample="([^"]+)"/g)].map((m) => m[1]);

describe('api', () => {
  it('api.playground.display: interactive by default, simple (endpoint and credentials only) or none', async () => {
    const interactive = (await exportFixture(docsJson({}))).file('api/list-users.html');
    expect(interactive).toContain('class="ds-try ds-not-searched"');
    expect(interactive).toMatch(/data-in="query" data-name="limit"/);

    const simple = (await exportFixture(docsJson({ playground: { display: 'simple' } }))).file(
      'api/list-users.html',
    );
    expect(simple).toContain('class="ds-try ds-not-searched"');
    expect(simple).not.toContain('data-name="limit"');

    const none = await exportFixture(docsJson({ playground: { display: 'none' } }));
    expect(none.file('api/list-users.html')).not.toContain('class="ds-try');
    // The page's script still remembers the sample language, but the page may send nothing.
    expect(connectSources(none.file('api/list-users.html'))).toEqual(["'self'"]);
    expect(connectSources(interactive)).toEqual(["'self'", 'https:', 'http:']);
  });

  it('api.examples: languages in their order, required parameters only unless defaults is all, autogenerate off leaves the document’s own', async () => {
    const chosen = await exportFixture(docsJson({ examples: { languages: ['python', 'curl', 'cobol'] } }));
    const html = chosen.file('api/list-users.html');
    expect(samplesOf(html).slice(0, 2)).toEqual(['python', 'curl']);
    expect(html).toContain('limit=10');
    expect(html).not.toContain('cursor=abc');
    expect(chosen.warnings.join('\n')).toMatch(/api\.examples\.languages cobol: no sample generator/);

    const all = await exportFixture(docsJson({ examples: { defaults: 'all' } }));
    expect(all.file('api/list-users.html')).toContain('cursor=abc');

    const none = await exportFixture(docsJson({ examples: { autogenerate: false } }));
    expect(samplesOf(none.file('api/list-users.html')).filter((s) => s === 'curl')).toEqual([]);
  });

  it('api.playground.proxy and api.mdx: accepted, one note each', async () => {
    const out = await exportFixture(
      docsJson({ playground: { proxy: true }, mdx: { server: 'https://x.example.com' } }),
    );
    const notes = out.warnings.filter((w) => /api\./.test(w));
    expect(notes).toHaveLength(2);
    expect(notes[0]).toMatch(/api\.playground\.proxy: a static site has no server/);
    expect(notes[1]).toMatch(/api\.mdx: endpoints defined in MDX/);
  });

  it('mint.json api: baseUrl serves operations whose document names no server; playground.mode and request.example.languages', async () => {
    const out = await exportFixture({
      'mint.json': {
        name: 'Legacy',
        openapi: 'openapi.json',
        api: {
          baseUrl: ['https://eu.example.com', 'https://us.example.com'],
          playground: { mode: 'simple' },
          request: { example: { languages: ['go', 'bash'] } },
        },
        navigation: [{ group: 'API', pages: ['index', 'GET /users'] }],
      },
      'index.mdx': page('Home'),
      'openapi.json': spec(),
    });
    const html = out.file('documentation/list-users.html');
    expect(samplesOf(html).slice(0, 2)).toEqual(['go', 'curl']);
    expect(html).toContain('https://eu.example.com/users?limit=10');
    expect(html).toMatch(/<option value="https:\/\/us\.example\.com">/);
    expect(html).not.toContain('data-name="limit"');
  });
});
