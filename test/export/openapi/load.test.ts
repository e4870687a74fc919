import { readFile, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  clearOpenApiCache,
  findOperation,
  listOperations,
  loadOpenApi,
  OpenApiError,
  parseOperationRef,
  renderOperation,
  type SchemaObject,
} from '../../../src/export/openapi/index.ts';
import { CORPORA, EXAMPLE_SITE, HAVE_CORPORA, syntheticSite, withoutCorpora } from '../fixtures.ts';
import { fakeContext, petstore, tempRepo } from './helpers.ts';

const cleanups: (() => Promise<void>)[] = [];
async function repo(files: Record<string, string | object>): Promise<string> {
  const { root, cleanup } = await tempRepo(files);
  cleanups.push(cleanup);
  return root;
}
afterEach(async () => {
  clearOpenApiCache();
  vi.restoreAllMocks();
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

// A real server that counts requests: the loader must never contact it.
let server: Server;
let requests = 0;
let base = '';
beforeAll(async () => {
  server = createServer((_req, res) => {
    requests++;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(petstore()));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((done) => server.close(() => done()));
});

const YAML_SPEC = `openapi: 3.1.0
info:
  title: YAML API
  version: "1"
paths:
  /things/{id}:
    get:
      summary: Get a thing
      parameters:
        - name: id
          in: path
          required: true
          schema: { type: integer }
      responses:
        "200":
          description: OK
          content:
            application/json:
              schema:
                $ref: "./schemas/thing.yaml#/Thing"
`;
const THING_YAML = `Thing:
  type: object
  properties:
    id: { type: integer }
    owner:
      $ref: "../common.json#/components/schemas/Owner"
`;
const COMMON_JSON = {
  components: {
    schemas: { Owner: { type: 'object', properties: { email: { type: 'string', format: 'email' } } } },
  },
};

describe('loadOpenApi', () => {
  it('loads a JSON file and resolves internal $refs, keeping shared schemas shared', async () => {
    const root = await repo({ 'openapi.json': petstore() });
    const spec = await loadOpenApi('openapi.json', { repoRoot: root });
    expect(spec.file).toBe('openapi.json');
    expect(spec.version).toBe('3.0.3');
    expect(spec.title).toBe('Pets');
    expect(spec.warnings).toEqual([]);
    const put = findOperation(spec, 'PUT', '/pets/{petId}');
    const post = findOperation(spec, 'post', '/pets');
    const putSchema = put?.requestBody?.content[0]?.schema;
    expect(putSchema?.type).toBe('object');
    expect(putSchema).toBe(post?.requestBody?.content[0]?.schema);
    const refs: unknown[] = [];
    const seen = new Set<object>();
    const visit = (node: unknown) => {
      if (typeof node !== 'object' || node === null || seen.has(node)) return;
      seen.add(node);
      if ('$ref' in node) refs.push(node);
      Object.values(node).forEach(visit);
    };
    visit(spec.document);
    expect(refs).toEqual([]);
  });

  it('loads YAML with relative-file refs inside the repository, a leading "/" meaning the root', async () => {
    const root = await repo({
      'specs/api.yaml': YAML_SPEC,
      'specs/schemas/thing.yaml': THING_YAML,
      'specs/common.json': COMMON_JSON,
    });
    const spec = await loadOpenApi('/specs/api.yaml', { repoRoot: root });
    expect(spec.file).toBe('specs/api.yaml');
    expect(spec.version).toBe('3.1.0');
    const op = findOperation(spec, 'GET', '/things/{id}');
    const schema = op?.responses[0]?.content[0]?.schema as SchemaObject;
    const owner = (schema.properties as Record<string, SchemaObject>).owner as SchemaObject;
    expect((owner.properties as Record<string, SchemaObject>).email).toEqual({
      type: 'string',
      format: 'email',
    });
    expect(spec.warnings).toEqual([]);
  });

  it('turns recursive schemas into cycles, not infinite copies', async () => {
    const root = await repo({ 'openapi.json': petstore() });
    const spec = await loadOpenApi('openapi.json', { repoRoot: root });
    const node = (spec.document.components as { schemas: Record<string, SchemaObject> }).schemas
      .Node as SchemaObject;
    const properties = node.properties as Record<string, SchemaObject>;
    expect((properties.children as SchemaObject).items).toBe(node);
    // The $ref with a sibling description becomes a refined copy of the same schema.
    expect(properties.parent?.description).toBe('The parent node.');
    expect(properties.parent?.properties).toBe(node.properties);
  });

  it('refuses a remote URL at once, without any network request', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const root = await repo({});
    const started = Date.now();
    for (const url of [`${base}/openapi.json`, 'https://spec.example.com/openapi.json']) {
      const error = await loadOpenApi(url, { repoRoot: root }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OpenApiError);
      expect((error as OpenApiError).file).toBe(url);
      expect((error as Error).message).toContain(url);
      expect((error as Error).message).toMatch(/never fetched/);
      expect((error as Error).message).toMatch(/local copy/);
    }
    expect(Date.now() - started).toBeLessThan(1000);
    expect(requests).toBe(0);
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('leaves a remote $ref unresolved with a warning and fetches nothing', async () => {
    const doc = petstore();
    (doc.components as { schemas: Record<string, unknown> }).schemas.Tag = {
      $ref: `${base}/schemas.json#/Tag`,
    };
    const root = await repo({ 'openapi.json': doc });
    const spec = await loadOpenApi('openapi.json', { repoRoot: root });
    expect(requests).toBe(0);
    expect(spec.warnings).toHaveLength(1);
    expect(spec.warnings[0]).toContain(`${base}/schemas.json#/Tag`);
    expect(spec.warnings[0]).toMatch(/never fetched/);
    const op = findOperation(spec, 'PUT', '/pets/{petId}');
    if (!op) throw new Error('operation missing');
    const ctx = fakeContext();
    renderOperation(op, ctx);
    expect(ctx.warnings.some((w) => w.includes('/schemas.json#/Tag'))).toBe(true);
  });

  it('refuses paths that leave the repository', async () => {
    const outside = await repo({ 'secret.json': petstore() });
    const root = await repo({ 'docs/openapi.json': petstore() });
    await symlink(join(outside, 'secret.json'), join(root, 'linked.json'));
    await expect(loadOpenApi('../secret.json', { repoRoot: root })).rejects.toThrow(
      /"\.\.\/secret\.json" is outside the repository/,
    );
    await expect(loadOpenApi('docs/../../x.json', { repoRoot: root })).rejects.toThrow(
      /outside the repository/,
    );
    await expect(loadOpenApi(join(outside, 'secret.json'), { repoRoot: root })).rejects.toThrow(OpenApiError);
    await expect(loadOpenApi('linked.json', { repoRoot: root })).rejects.toThrow(
      /symbolic link .* outside the repository/,
    );
    // Inside the repository, absolute paths and the leading-slash form both work.
    await expect(loadOpenApi(join(root, 'docs/openapi.json'), { repoRoot: root })).resolves.toMatchObject({
      file: 'docs/openapi.json',
    });
  });

  it('does not follow a $ref out of the repository', async () => {
    const outside = await repo({ 'schemas.json': { Tag: { type: 'string' } } });
    const doc = petstore();
    (doc.components as { schemas: Record<string, unknown> }).schemas.Tag = {
      $ref: `../${outside.split('/').pop()}/schemas.json#/Tag`,
    };
    const root = await repo({ 'openapi.json': doc });
    const spec = await loadOpenApi('openapi.json', { repoRoot: root });
    expect(spec.warnings.join('\n')).toMatch(/outside the repository/);
  });

  it('reports a missing file, a directory and a missing $ref pointer clearly', async () => {
    const doc = petstore();
    (doc.components as { schemas: Record<string, unknown> }).schemas.Tag = {
      $ref: '#/components/schemas/Nope',
    };
    const root = await repo({ 'openapi.json': doc, 'dir/x.txt': 'x' });
    await expect(loadOpenApi('missing.yaml', { repoRoot: root })).rejects.toThrow(
      /"missing\.yaml" not found/,
    );
    await expect(loadOpenApi('dir', { repoRoot: root })).rejects.toThrow(/not a regular file/);
    const spec = await loadOpenApi('openapi.json', { repoRoot: root });
    expect(spec.warnings).toEqual([
      expect.stringContaining('"#/components/schemas/Nope" does not exist in openapi.json'),
    ]);
  });

  it('reports invalid JSON and YAML with the file and line', async () => {
    const root = await repo({
      'bad.json': '{\n  "openapi": "3.0.0",\n  "info": {,\n}\n',
      'bad.yaml': 'openapi: 3.0.0\ninfo:\n  title: [unclosed\n  version: 1\npaths: {}\n',
    });
    await expect(loadOpenApi('bad.json', { repoRoot: root })).rejects.toThrow(
      /"bad\.json": invalid JSON at line 3, column 12: Expected property name/,
    );
    const yamlError = (await loadOpenApi('bad.yaml', { repoRoot: root }).catch((e: unknown) => e)) as Error;
    expect(yamlError).toBeInstanceOf(OpenApiError);
    expect(yamlError.message).toMatch(/"bad\.yaml": invalid YAML at line \d+, column \d+/);
  });

  it('refuses Swagger 2.0 and documents that are not OpenAPI 3', async () => {
    const root = await repo({
      'swagger.json': { swagger: '2.0', info: { title: 'old', version: '1' }, paths: {} },
      'other.yaml': 'name: not an api\n',
      'v4.json': { openapi: '4.0.0', paths: {} },
    });
    await expect(loadOpenApi('swagger.json', { repoRoot: root })).rejects.toThrow(
      /"swagger\.json" is Swagger 2\.0; only OpenAPI 3\.x is supported/,
    );
    await expect(loadOpenApi('other.yaml', { repoRoot: root })).rejects.toThrow(
      /"other\.yaml" is not an OpenAPI 3\.x document: it has no "openapi" field/,
    );
    await expect(loadOpenApi('v4.json', { repoRoot: root })).rejects.toThrow(/declares "openapi": "4\.0\.0"/);
  });

  it('caches per file and reloads when the file changes', async () => {
    const root = await repo({ 'openapi.json': petstore() });
    const [a, b] = await Promise.all([
      loadOpenApi('openapi.json', { repoRoot: root }),
      loadOpenApi('/openapi.json', { repoRoot: root }),
    ]);
    expect(a).toBe(b);
    expect(await loadOpenApi('openapi.json', { repoRoot: root })).toBe(a);
    const changed = petstore();
    (changed.info as { title: string }).title = 'Pets, renamed';
    await writeFile(join(root, 'openapi.json'), JSON.stringify(changed));
    const c = await loadOpenApi('openapi.json', { repoRoot: root });
    expect(c).not.toBe(a);
    expect(c.title).toBe('Pets, renamed');
  });
});

describe('operations', () => {
  it('lists operations and finds them by method and path, loosely on parameter names', async () => {
    const root = await repo({ 'openapi.json': petstore() });
    const spec = await loadOpenApi('openapi.json', { repoRoot: root });
    expect(listOperations(spec).map((o) => `${o.method} ${o.path}`)).toEqual([
      'GET /pets/{petId}',
      'PUT /pets/{petId}',
      'POST /pets',
      'GET /trees',
    ]);
    expect(findOperation(spec, 'GET', '/pets/{id}')?.operationId).toBe('getPet');
    expect(findOperation(spec, 'GET', '/pets/{petId}/')?.operationId).toBe('getPet');
    expect(findOperation(spec, 'DELETE', '/pets/{petId}')).toBeUndefined();
    expect(findOperation(spec, 'BREW', '/pets')).toBeUndefined();
  });

  it('normalizes parameters, security and servers', async () => {
    const root = await repo({ 'openapi.json': petstore() });
    const spec = await loadOpenApi('openapi.json', { repoRoot: root });
    const get = findOperation(spec, 'GET', '/pets/{petId}');
    expect(get?.parameters.map((p) => `${p.in}:${p.name}:${p.required}`)).toEqual([
      'path:petId:true',
      'header:X-Trace:true',
      'query:fields:false',
      'query:limit:false',
      'cookie:session:false',
    ]);
    expect(get?.parameters.find((p) => p.name === 'X-Trace')?.description).toBe('operation-level header');
    expect(get?.servers).toEqual([{ url: 'https://eu.pets.example.com/v1' }]);
    expect(get?.security).toEqual([
      [expect.objectContaining({ name: 'bearerAuth', type: 'http', scheme: 'bearer' })],
    ]);
    expect(findOperation(spec, 'POST', '/pets')?.security).toEqual([]);
    expect(get?.responses.map((r) => r.status)).toEqual(['200', '404', 'default']);
    expect(get?.responses[0]?.headers[0]).toMatchObject({ name: 'X-Rate-Limit', description: 'Calls left.' });
    expect(findOperation(spec, 'PUT', '/pets/{petId}')).toMatchObject({
      deprecated: true,
      codeSamples: [{ lang: 'JavaScript' }],
    });
  });
});

/** The operations a docs.json tab names, directly ("GET /users") or by pages with `openapi:` frontmatter. */
async function operationsOfTab(root: string, tab: { groups: unknown }) {
  const entries: string[] = [];
  const walk = (node: unknown) => {
    if (typeof node === 'string') entries.push(node);
    else if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object' && 'pages' in node) walk(node.pages);
  };
  walk(tab.groups);
  const refs = [];
  for (const entry of entries) {
    const direct = parseOperationRef(entry);
    if (direct) {
      refs.push(direct);
      continue;
    }
    const frontmatter = /^openapi:\s*"([^"]+)"/m.exec(await readFile(join(root, `${entry}.mdx`), 'utf8'));
    const ref = frontmatter?.[1] && parseOperationRef(frontmatter[1]);
    if (ref) refs.push(ref);
  }
  return refs;
}

/** Renders every operation a tab names, expecting no warning and a curl example against `server`. */
async function expectOperationsRender(
  root: string,
  tab: { openapi: string; groups: unknown },
  server: string,
) {
  const refs = await operationsOfTab(root, tab);
  expect(refs.length).toBeGreaterThan(0);
  const spec = await loadOpenApi(tab.openapi, { repoRoot: root });
  expect(listOperations(spec)).toHaveLength(refs.length);
  for (const ref of refs) {
    const op = findOperation(spec, ref.method, ref.path);
    expect(op, `${ref.method} ${ref.path}`).toBeDefined();
    if (!op) continue;
    const ctx = fakeContext('air-gapped');
    renderOperation(op, ctx);
    expect(ctx.warnings).toEqual([]);
    expect(ctx.codeBlocks[0]?.code).toContain(`--request ${op.method}`);
    expect(ctx.codeBlocks[0]?.code).toContain(server);
  }
  return refs;
}

describe('generated, example and real sites', () => {
  it('resolves every API page of a generated site against its openapi.json', async () => {
    const site = syntheticSite(60);
    const docs = JSON.parse(await readFile(join(site.dir, 'docs.json'), 'utf8'));
    const apiTab = docs.navigation.tabs.find((t: { openapi?: string }) => t.openapi);
    expect(apiTab.openapi).toBe('openapi.json');
    const refs = await expectOperationsRender(site.dir, apiTab, 'https://api.example.com/v1/');
    const operations = site.pages.flatMap((p) =>
      p.operation ? [`${p.operation.method} ${p.operation.path}`] : [],
    );
    expect(refs.map((r) => `${r.method} ${r.path}`).sort()).toEqual(operations.sort());
  });

  it('resolves every API page of the example site against the Admin API document', async () => {
    const docs = JSON.parse(await readFile(join(EXAMPLE_SITE, 'docs.json'), 'utf8'));
    const apiTab = docs.navigation.tabs.find((t: { openapi?: string }) => t.openapi);
    const refs = await expectOperationsRender(EXAMPLE_SITE, apiTab, 'http://127.0.0.1:8080/v');
    expect(refs.map((r) => `${r.method} ${r.path}`)).toContain('GET /v2/agent/{projectId}/job/{id}');
  });

  it.skipIf(!HAVE_CORPORA)(
    withoutCorpora("refuses novu-docs' remote OpenAPI URL without touching the network"),
    async () => {
      const corpus = join(CORPORA, 'novu-docs');
      const text = await readFile(join(corpus, 'docs.json'), 'utf8');
      const url = /"openapi":\s*"(https?:[^"]+)"/.exec(text)?.[1];
      expect(url).toMatch(/^https:/);
      const fetchSpy = vi.spyOn(globalThis, 'fetch');
      await expect(loadOpenApi(url as string, { repoRoot: corpus })).rejects.toThrow(
        /remote URL, which is never fetched/,
      );
      expect(fetchSpy).not.toHaveBeenCalled();
    },
  );
});
