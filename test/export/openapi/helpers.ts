import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Element } from 'hast';
import { h } from 'hastscript';
import type { DeploymentKind, RenderContext } from '../../../src/export/render-context.ts';

export interface FakeContext extends RenderContext {
  warnings: string[];
  codeBlocks: { code: string; language?: string; meta?: string }[];
}

/** A RenderContext that records what the renderer asked of it. */
export function fakeContext(deployment: DeploymentKind = 'cloud'): FakeContext {
  const warnings: string[] = [];
  const codeBlocks: FakeContext['codeBlocks'] = [];
  return {
    warnings,
    codeBlocks,
    deployment,
    iconLibrary: 'lucide',
    resolveHref: (href) => (href.startsWith('/') ? `..${href}.html` : href),
    resolveAsset: (src) => (src.startsWith('/') ? `..${src}` : src),
    warn: (message) => {
      warnings.push(message);
    },
    codeBlock: (code, language, meta): Element => {
      codeBlocks.push({
        code,
        ...(language !== undefined ? { language } : {}),
        ...(meta !== undefined ? { meta } : {}),
      });
      return h(
        'div',
        { className: ['ds-code'], dataLanguage: language, dataTitle: meta },
        h('pre', h('code', code)),
      );
    },
    icon: () => undefined,
  };
}

/** A temporary repository with the given files (text, or objects written as JSON). */
export async function tempRepo(
  files: Record<string, string | object>,
): Promise<{ root: string; cleanup: () => Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), 'docsnap-openapi-'));
  for (const [path, content] of Object.entries(files)) {
    const target = join(root, path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  }
  return { root, cleanup: () => rm(root, { recursive: true, force: true }) };
}

/** A small but complete OpenAPI 3.0 document exercising what the renderer must show. */
export function petstore(): Record<string, unknown> {
  return {
    openapi: '3.0.3',
    info: { title: 'Pets', version: '1.0.0' },
    servers: [{ url: 'https://{region}.pets.example.com/v1', variables: { region: { default: 'eu' } } }],
    security: [{ bearerAuth: [] }],
    paths: {
      '/pets/{petId}': {
        parameters: [
          {
            name: 'petId',
            in: 'path',
            required: true,
            description: 'The pet.',
            schema: { type: 'string', format: 'uuid' },
          },
          { name: 'X-Trace', in: 'header', description: 'path-level header', schema: { type: 'string' } },
        ],
        get: {
          summary: 'Get a pet',
          operationId: 'getPet',
          tags: ['pets'],
          description:
            'Returns **one** pet. See [the guide](/guides/pets) and [bad](javascript:alert(1)).\n\n' +
            '<script>alert("x")</script>\n\n![diagram](https://cdn.example.com/d.png)',
          parameters: [
            {
              name: 'X-Trace',
              in: 'header',
              required: true,
              description: 'operation-level header',
              schema: { type: 'string' },
            },
            {
              name: 'fields',
              in: 'query',
              description: 'Which fields to return.',
              schema: { type: 'array', items: { type: 'string', enum: ['name', 'tag', 'owner'] } },
            },
            {
              name: 'limit',
              in: 'query',
              schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
            },
            { name: 'session', in: 'cookie', schema: { type: 'string' } },
            { name: 'Accept', in: 'header', schema: { type: 'string' } },
          ],
          responses: {
            '200': {
              description: 'The pet.',
              headers: { 'X-Rate-Limit': { description: 'Calls left.', schema: { type: 'integer' } } },
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } },
            },
            '404': {
              description: 'No such pet.',
              content: {
                'application/json': {
                  schema: { $ref: '#/components/schemas/Error' },
                  examples: {
                    missing: { summary: 'Missing', value: { code: 404, message: 'pet not found' } },
                  },
                },
              },
            },
            default: { description: 'Unexpected error.' },
          },
        },
        put: {
          summary: 'Replace a pet',
          deprecated: true,
          'x-codeSamples': [
            { lang: 'JavaScript', label: 'Node SDK', source: 'await pets.replace(id, pet);' },
          ],
          requestBody: {
            required: true,
            description: 'The new pet.',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/NewPet' } } },
          },
          responses: { '204': { description: 'Replaced.' } },
        },
      },
      '/pets': {
        post: {
          summary: 'Create a pet',
          security: [],
          requestBody: {
            content: {
              'application/json': {
                schema: { $ref: '#/components/schemas/NewPet' },
                example: { name: 'Rex', kind: { bark: 'loud' } },
              },
            },
          },
          responses: {
            '201': {
              description: 'Created.',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } },
            },
          },
        },
      },
      '/trees': {
        get: {
          summary: 'A recursive structure',
          security: [{ apiKey: [] }, {}],
          responses: {
            '200': {
              description: 'OK',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Node' } } },
            },
          },
        },
      },
    },
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'Get one in the dashboard.' },
      },
      schemas: {
        NewPet: {
          type: 'object',
          required: ['name', 'kind'],
          properties: {
            id: { type: 'string', readOnly: true },
            name: { type: 'string', description: 'Pet name.', minLength: 1, maxLength: 64 },
            born: { type: 'string', format: 'date-time', nullable: true },
            status: { type: 'string', enum: ['available', 'sold'], default: 'available' },
            kind: { oneOf: [{ $ref: '#/components/schemas/Dog' }, { $ref: '#/components/schemas/Cat' }] },
            tags: { type: 'array', items: { $ref: '#/components/schemas/Tag' } },
            owner: { type: 'object', properties: { email: { type: 'string', format: 'email' } } },
          },
        },
        Pet: {
          allOf: [
            { $ref: '#/components/schemas/NewPet' },
            { type: 'object', required: ['id'], properties: { id: { type: 'string', format: 'uuid' } } },
          ],
        },
        Dog: { type: 'object', title: 'Dog', properties: { bark: { type: 'string' } } },
        Cat: { type: 'object', title: 'Cat', properties: { lives: { type: 'integer' } } },
        Tag: { type: 'object', properties: { label: { type: 'string', example: 'friendly' } } },
        Error: { type: 'object', properties: { code: { type: 'integer' }, message: { type: 'string' } } },
        Node: {
          type: 'object',
          properties: {
            value: { type: 'string' },
            children: { type: 'array', items: { $ref: '#/components/schemas/Node' } },
            parent: { $ref: '#/components/schemas/Node', description: 'The parent node.' },
          },
        },
      },
    },
  };
}
