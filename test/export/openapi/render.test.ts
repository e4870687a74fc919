import type { Element, ElementContent, Root } from 'hast';
import { toHtml } from 'hast-util-to-html';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiOperation,
  clearOpenApiCache,
  findOperation,
  loadOpenApi,
  type OpenApiSpec,
  openapiAssets,
  operationMarkdown,
  renderOperation,
} from '../../../src/export/openapi/index.ts';
import { fakeContext, petstore, tempRepo } from './helpers.ts';

let spec: OpenApiSpec;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  const repo = await tempRepo({ 'openapi.json': petstore() });
  cleanup = repo.cleanup;
  spec = await loadOpenApi('openapi.json', { repoRoot: repo.root });
});
afterAll(async () => {
  clearOpenApiCache();
  await cleanup();
});

function op(method: string, path: string): ApiOperation {
  const found = findOperation(spec, method, path);
  if (!found) throw new Error(`${method} ${path} missing`);
  return found;
}

function elements(nodes: ElementContent[] | Root): Element[] {
  const out: Element[] = [];
  const visit = (node: ElementContent | Root) => {
    if (node.type === 'element') out.push(node);
    if ('children' in node) for (const child of node.children) visit(child as ElementContent);
  };
  if (Array.isArray(nodes)) nodes.forEach(visit);
  else visit(nodes);
  return out;
}

function text(node: ElementContent): string {
  if (node.type === 'text') return node.value;
  if (node.type === 'element') return node.children.map(text).join('');
  return '';
}

function byClass(nodes: ElementContent[], className: string): Element[] {
  return elements(nodes).filter(
    (e) => Array.isArray(e.properties.className) && e.properties.className.includes(className),
  );
}

function labelledBy(element: Element): string {
  const value = element.properties.ariaLabelledBy;
  return Array.isArray(value) ? value.join(' ') : String(value);
}

function field(nodes: ElementContent[], id: string): Element {
  const found = elements(nodes).find((e) => e.properties.id === id);
  if (!found) throw new Error(`no element #${id}`);
  return found;
}

describe('renderOperation', () => {
  it('shows the method badge, the server URL and the path with its parameters marked', () => {
    const ctx = fakeContext();
    const hast = renderOperation(op('GET', '/pets/{petId}'), ctx);
    const badge = byClass(hast, 'ds-api-method')[0];
    expect(badge && text(badge)).toBe('GET');
    expect(badge?.properties.className).toContain('ds-api-method-get');
    const url = byClass(hast, 'ds-api-url')[0];
    expect(url && text(url)).toBe('https://eu.pets.example.com/v1/pets/{petId}');
    expect(byClass(hast, 'ds-api-path-param').map(text)).toEqual(['{petId}']);
  });

  it('uses h2 sections with stable ids and never skips a heading level', () => {
    const render = () => renderOperation(op('GET', '/pets/{petId}'), fakeContext());
    const hast = render();
    const headings = elements(hast).filter((e) => /^h[1-6]$/.test(e.tagName));
    expect(headings.filter((h) => h.tagName === 'h2').map((h) => [h.properties.id, text(h)])).toEqual([
      ['api-authorization', 'Authorization'],
      ['api-parameters', 'Parameters'],
      ['api-responses', 'Responses'],
      ['api-examples', 'Examples'],
    ]);
    let previous = 1;
    for (const heading of headings) {
      const level = Number(heading.tagName[1]);
      expect(level).toBeLessThanOrEqual(previous + 1);
      previous = level;
    }
    const ids = elements(hast)
      .map((e) => e.properties.id)
      .filter((id) => id !== undefined);
    expect(new Set(ids).size).toBe(ids.length);
    expect(toHtml(render())).toBe(toHtml(hast));
    for (const section of elements(hast).filter((e) => e.tagName === 'section')) {
      expect(ids).toContain(labelledBy(section));
    }
  });

  it('groups parameters by location with type, required, default, enum and constraints', () => {
    const hast = renderOperation(op('GET', '/pets/{petId}'), fakeContext());
    expect(byClass(hast, 'ds-api-subheading').map(text).slice(0, 4)).toEqual([
      'Path parameters',
      'Query parameters',
      'Header parameters',
      'Cookie parameters',
    ]);
    const petId = text(field(hast, 'api-param-path-petid'));
    expect(petId).toContain('petId');
    expect(petId).toContain('string<uuid>');
    expect(petId).toContain('required');
    expect(petId).toContain('The pet.');
    const trace = text(field(hast, 'api-param-header-x-trace'));
    expect(trace).toContain('operation-level header');
    expect(trace).toContain('required');
    const limit = text(field(hast, 'api-param-query-limit'));
    expect(limit).toContain('integer');
    expect(limit).not.toContain('required');
    expect(limit).toContain('Default: 20');
    expect(limit).toContain('>= 1');
    expect(limit).toContain('<= 100');
    const fields = text(field(hast, 'api-param-query-fields'));
    expect(fields).toContain('enum<string>[]');
    expect(fields).toContain('Allowed values: "name", "tag", "owner"');
    expect(elements(hast).some((e) => e.properties.id === 'api-param-header-accept')).toBe(false);
    expect(elements(hast).some((e) => e.properties.id === 'api-param-cookie-session')).toBe(true);
  });

  it('renders the request body as nested fields: readOnly left out, nullable, enums, oneOf, arrays', () => {
    const hast = renderOperation(op('PUT', '/pets/{petId}'), fakeContext());
    const section = elements(hast).find(
      (e) => e.tagName === 'section' && labelledBy(e) === 'api-request-body',
    );
    if (!section) throw new Error('no request body section');
    const body = text(section);
    expect(body).toContain('The new pet.');
    expect(body).toContain('application/json');
    expect(elements(hast).some((e) => e.properties.id === 'api-body-id')).toBe(false);
    const name = text(field(hast, 'api-body-name'));
    expect(name).toContain('required');
    expect(name).toContain('min length: 1');
    expect(name).toContain('max length: 64');
    expect(text(field(hast, 'api-body-born'))).toContain('string<date-time> | null');
    const status = text(field(hast, 'api-body-status'));
    expect(status).toContain('Default: "available"');
    expect(status).toContain('Allowed values: "available", "sold"');
    const kind = field(hast, 'api-body-kind');
    expect(text(kind)).toContain('Dog | Cat');
    expect(text(kind)).toContain('One of:');
    expect(byClass([kind], 'ds-api-variant-name').map(text)).toEqual(['Dog', 'Cat']);
    expect(text(field(hast, 'api-body-kind-option-1-bark'))).toContain('bark');
    expect(text(field(hast, 'api-body-kind-option-2-lives'))).toContain('integer');
    expect(text(field(hast, 'api-body-tags'))).toContain('object[]');
    expect(text(field(hast, 'api-body-tags-label'))).toContain('label');
    const owner = field(hast, 'api-body-owner');
    const details = elements([owner]).find((e) => e.tagName === 'details');
    expect(details && text(details)).toContain('Show 1 child attribute');
    expect(text(field(hast, 'api-body-owner-email'))).toContain('string<email>');
    expect(byClass(hast, 'ds-api-deprecated')).toHaveLength(1);
  });

  it('renders responses per status with allOf merged, headers and examples', () => {
    const ctx = fakeContext();
    const hast = renderOperation(op('GET', '/pets/{petId}'), ctx);
    expect(byClass(hast, 'ds-api-status').map(text)).toEqual(['200', '404', 'default']);
    const id = text(field(hast, 'api-response-200-id'));
    expect(id).toContain('string<uuid>');
    expect(id).toContain('required');
    expect(text(field(hast, 'api-response-200-name'))).toContain('Pet name.');
    expect(text(field(hast, 'api-response-200-header-x-rate-limit'))).toContain('Calls left.');
    expect(text(field(hast, 'api-response-404-message'))).toContain('string');

    const requests = ctx.codeBlocks.filter(
      (block) => block.meta !== undefined && !/^\d|default/.test(block.meta),
    );
    const responses = ctx.codeBlocks.filter((block) => !requests.includes(block));
    const [curl] = requests;
    // The platform's default languages, each generated from the same request.
    expect(requests.map((r) => r.meta)).toEqual([
      'cURL',
      'Python',
      'JavaScript',
      'PHP',
      'Go',
      'Java',
      'Ruby',
    ]);
    expect(curl?.language).toBe('bash');
    expect(curl?.code).toContain('--request GET');
    expect(curl?.code).toContain(
      '--url https://eu.pets.example.com/v1/pets/3fa85f64-5717-4562-b3fc-2c963f66afa6',
    );
    expect(curl?.code).toContain("--header 'Authorization: Bearer <token>'");
    expect(curl?.code).toContain("--header 'X-Trace: <X-Trace>'");
    expect(curl?.code).not.toContain('limit=');
    expect(responses.map((r) => r.meta)).toEqual(['200', '404']);
    const pet = JSON.parse(responses[0]?.code ?? '');
    expect(pet).toMatchObject({
      id: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
      name: 'string',
      born: '2024-01-15T09:30:00Z',
    });
    expect(pet.status).toBe('available');
    expect(pet.kind).toEqual({ bark: 'string' });
    expect(pet.tags).toEqual([{ label: 'friendly' }]);
    expect(JSON.parse(responses[1]?.code ?? '')).toEqual({ code: 404, message: 'pet not found' });
    expect(responses.every((r) => r.language === 'json')).toBe(true);
  });

  it('builds the request example from the body example or schema, without readOnly fields', () => {
    const ctx = fakeContext();
    renderOperation(op('PUT', '/pets/{petId}'), ctx);
    const [curl] = ctx.codeBlocks;
    const sdk = ctx.codeBlocks.find((block) => block.meta === 'Node SDK');
    const data = /--data '([\s\S]*)'$/.exec(curl?.code ?? '')?.[1];
    const body = JSON.parse(data ?? '');
    expect(body).not.toHaveProperty('id');
    expect(body).toMatchObject({ name: 'string', status: 'available', owner: { email: 'user@example.com' } });
    expect(curl?.code).toContain("--header 'Content-Type: application/json'");
    expect(sdk).toEqual({ code: 'await pets.replace(id, pet);', language: 'javascript', meta: 'Node SDK' });

    const post = fakeContext();
    const hast = renderOperation(op('POST', '/pets'), post);
    expect(JSON.parse(/--data '([\s\S]*)'$/.exec(post.codeBlocks[0]?.code ?? '')?.[1] ?? '')).toEqual({
      name: 'Rex',
      kind: { bark: 'loud' },
    });
    expect(post.codeBlocks[0]?.code).not.toContain('Authorization');
    expect(elements(hast).some((e) => e.properties.id === 'api-authorization')).toBe(false);
  });

  it('marks circular schemas instead of expanding them forever', () => {
    const ctx = fakeContext();
    const hast = renderOperation(op('GET', '/trees'), ctx);
    const notes = byClass(hast, 'ds-api-note-circular').map(text);
    expect(notes.length).toBeGreaterThanOrEqual(2);
    expect(notes).toContain('Circular reference to Node.');
    expect(text(field(hast, 'api-response-200-children'))).toContain('Node[]');
    const parent = field(hast, 'api-response-200-parent');
    expect(text(parent)).toContain('The parent node.');
    expect(byClass([parent], 'ds-api-note-circular').map(text)).toEqual(['Circular reference to Node.']);
    expect(elements(hast).some((e) => String(e.properties.id).startsWith('api-response-200-parent-'))).toBe(
      false,
    );
    const example = JSON.parse(ctx.codeBlocks.find((block) => block.language === 'json')?.code ?? '');
    expect(example.value).toBe('string');
    expect(Array.isArray(example.children)).toBe(true);
    const auth = elements(hast).find((e) => e.tagName === 'section' && labelledBy(e) === 'api-authorization');
    expect(auth && text(auth)).toContain('Authentication is optional.');
    expect(auth && text(auth)).toContain('API key in header: X-API-Key: <api-key>');
    expect(auth && text(auth)).toContain('Get one in the dashboard.');
    expect(ctx.codeBlocks[0]?.code).toContain("--header 'X-API-Key: <apiKey>'");
    expect(ctx.warnings).toEqual([]);
  });

  it('renders descriptions as safe Markdown: no raw HTML, no script links, no external image when air-gapped', () => {
    const cloud = fakeContext('cloud');
    const html = toHtml(renderOperation(op('GET', '/pets/{petId}'), cloud));
    expect(html).toContain('Returns <strong>one</strong> pet.');
    expect(html).toContain('<a href="../guides/pets.html">the guide</a>');
    expect(html).not.toContain('javascript:');
    expect(html).toContain('<a>bad</a>');
    expect(html).not.toContain('<script');
    expect(html).toContain('<img src="https://cdn.example.com/d.png" alt="diagram">');

    const airGapped = fakeContext('air-gapped');
    const offline = toHtml(renderOperation(op('GET', '/pets/{petId}'), airGapped));
    expect(offline).not.toContain('<img');
    expect(offline).toContain('<a href="https://cdn.example.com/d.png">diagram</a>');
    expect(airGapped.warnings).toEqual([expect.stringContaining('https://cdn.example.com/d.png')]);
  });

  it('keeps pages bounded for deep and wide schemas', async () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 30; i++) deep = { type: 'object', properties: { [`level${30 - i}`]: deep } };
    const wide = {
      type: 'object',
      properties: Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`p${i}`, { type: 'integer' }])),
    };
    const repo = await tempRepo({
      'api.json': {
        openapi: '3.1.0',
        info: { title: 'x', version: '1' },
        paths: {
          '/deep': {
            get: {
              responses: { '200': { description: 'ok', content: { 'application/json': { schema: deep } } } },
            },
          },
          '/wide': {
            get: {
              responses: { '200': { description: 'ok', content: { 'application/json': { schema: wide } } } },
            },
          },
        },
      },
    });
    try {
      const api = await loadOpenApi('api.json', { repoRoot: repo.root });
      const deepHast = renderOperation(findOperation(api, 'GET', '/deep') as ApiOperation, fakeContext());
      expect(byClass(deepHast, 'ds-api-note-depth').map(text)).toEqual([
        'Nested further; not expanded here.',
      ]);
      expect(toHtml(deepHast)).not.toContain('level20');
      const wideHast = renderOperation(findOperation(api, 'GET', '/wide') as ApiOperation, fakeContext());
      expect(byClass(wideHast, 'ds-api-field').length).toBeLessThan(2000);
      expect(byClass(wideHast, 'ds-api-note-truncated')).toHaveLength(1);
    } finally {
      await repo.cleanup();
    }
  });
});

describe('operationMarkdown', () => {
  it('writes the same content as Markdown', () => {
    const md = operationMarkdown(op('GET', '/pets/{petId}'));
    expect(md.startsWith('**GET** `https://eu.pets.example.com/v1/pets/{petId}`\n')).toBe(true);
    expect(md).toContain('Returns **one** pet.');
    expect(md).toContain('## Authorization\n\n- Bearer token (JWT): `Authorization: Bearer <token>`.');
    expect(md).toContain(
      '## Parameters\n\n### Path parameters\n\n- `petId` (string<uuid>, required): The pet.',
    );
    expect(md).toContain('- `limit` (integer)\n  Default: `20`. Constraints: `>= 1`, `<= 100`.');
    expect(md).toContain('### 200 OK\n\nThe pet.');
    expect(md).toContain('- `X-Rate-Limit` (integer): Calls left.');
    expect(md).toContain('### 404 Not Found');
    expect(md).toMatch(
      /```bash cURL\ncurl --request GET \\\n {2}--url https:\/\/eu\.pets\.example\.com\/v1\/pets\/3fa85f64/,
    );
    expect(md).toContain('```json 404\n{\n  "code": 404,\n  "message": "pet not found"\n}\n```');
    expect(md).not.toContain('<script');
  });

  it('nests body fields and marks cycles', () => {
    const put = operationMarkdown(op('PUT', '/pets/{petId}'));
    expect(put).toContain('**Deprecated:**');
    expect(put).toContain('## Request body\n\nRequired.\n\nThe new pet.\n\nContent type: `application/json`');
    expect(put).toContain('- `owner` (object)\n  - `email` (string<email>)');
    expect(put).toContain(
      '- `kind` (Dog | Cat, required)\n  One of:\n  - **Dog** (object)\n    - `bark` (string)',
    );
    expect(put).toContain('```javascript Node SDK\nawait pets.replace(id, pet);\n```');
    expect(put).not.toMatch(/^- `id`/m);
    const trees = operationMarkdown(op('GET', '/trees'));
    expect(trees).toContain('*Circular reference to Node.*');
    expect(trees).toContain('Authentication is optional.');
  });
});

describe('openapiAssets', () => {
  it('points at a stylesheet that uses the theme variables and colours methods', async () => {
    const { readFile } = await import('node:fs/promises');
    expect(openapiAssets.css).toHaveLength(1);
    const css = await readFile(openapiAssets.css[0] as URL, 'utf8');
    for (const variable of ['--ds-primary', '--ds-border', '--ds-muted', '--ds-surface', '--ds-radius']) {
      expect(css).toContain(`var(${variable}`);
    }
    expect(css).toContain('html[data-theme="dark"]');
    for (const method of ['get', 'post', 'put', 'patch', 'delete'])
      expect(css).toContain(`.ds-api-method-${method}`);
  });
});
