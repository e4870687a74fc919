import { execFile, execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiOperation,
  clearOpenApiCache,
  listOperations,
  loadOpenApi,
  type OpenApiSpec,
  requestSamples,
} from '../../../src/export/openapi/index.ts';
import { startTestApi, type TestApi } from '../../api/helpers.ts';
import { EXAMPLE_SITE, tempDir } from '../fixtures.ts';
import { petstore, tempRepo } from './helpers.ts';

/**
 * Request samples are generated (samples.ts): each must be valid in its language where a checker
 * is at hand, and the cURL sample of docsnap api's own document must get a documented status from
 * a real `docsnap api`.
 */

const forms = {
  openapi: '3.0.3',
  info: { title: 'Forms', version: '1' },
  servers: [{ url: 'https://files.example.com' }],
  components: {
    securitySchemes: {
      basic: { type: 'http', scheme: 'basic' },
      key: { type: 'apiKey', in: 'query', name: 'api_key' },
    },
  },
  paths: {
    '/upload/{folder}': {
      post: {
        security: [{ basic: [], key: [] }],
        parameters: [{ name: 'folder', in: 'path', required: true, schema: { type: 'string' } }],
        requestBody: {
          content: {
            'multipart/form-data': {
              schema: {
                type: 'object',
                properties: {
                  file: { type: 'string', format: 'binary' },
                  note: { type: 'string', example: 'it\'s "quoted"' },
                },
              },
            },
          },
        },
        responses: { '201': { description: 'Stored' } },
      },
    },
    '/login': {
      post: {
        requestBody: {
          content: {
            'application/x-www-form-urlencoded': {
              schema: {
                type: 'object',
                properties: {
                  user: { type: 'string', example: 'ada' },
                  password: { type: 'string', example: 'p&ss word' },
                },
              },
            },
          },
        },
        responses: { '200': { description: 'OK' } },
      },
    },
  },
};

const specs: OpenApiSpec[] = [];
let cleanups: Array<() => Promise<void>> = [];
beforeAll(async () => {
  for (const document of [petstore(), forms]) {
    const repo = await tempRepo({ 'openapi.json': document });
    cleanups.push(repo.cleanup);
    specs.push(await loadOpenApi('openapi.json', { repoRoot: repo.root }));
  }
});
afterAll(async () => {
  clearOpenApiCache();
  for (const cleanup of cleanups) await cleanup();
  cleanups = [];
});

const operations = (): ApiOperation[] => specs.flatMap((spec) => listOperations(spec));

/** Checkers for generated code, by language: each throws (with the checker's message) on invalid code. */
const CHECKERS: Record<string, { file: string; check: (path: string) => void }> = {
  javascript: {
    file: 'sample.js',
    check: (path) => execFileSync(process.execPath, ['--check', path], { stdio: 'pipe' }),
  },
  python: {
    file: 'sample.py',
    check: (path) => execFileSync('python3', ['-m', 'py_compile', path], { stdio: 'pipe' }),
  },
  go: { file: 'sample.go', check: (path) => execFileSync('gofmt', ['-e', path], { stdio: 'pipe' }) },
  curl: { file: 'sample.sh', check: (path) => execFileSync('bash', ['-n', path], { stdio: 'pipe' }) },
};

describe('generated request samples', () => {
  it('are valid JavaScript, Python, Go and shell for every fixture operation (node --check, py_compile, gofmt, bash -n)', () => {
    const dir = tempDir();
    const failures: string[] = [];
    let checked = 0;
    for (const op of operations()) {
      const samples = requestSamples(op, { languages: Object.keys(CHECKERS), requiredOnly: false });
      for (const sample of samples) {
        const checker = CHECKERS[sample.language];
        if (!checker || op.codeSamples.some((own) => own.source === sample.code)) continue;
        const path = join(dir, checker.file);
        writeFileSync(path, sample.code);
        try {
          checker.check(path);
          checked++;
        } catch (error) {
          failures.push(
            `${op.method} ${op.path} ${sample.language}: ${String((error as { stderr?: Buffer }).stderr ?? error)}`,
          );
        }
      }
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThanOrEqual(4 * 5);
  });

  it('put placeholders for values nobody gave, and credentials as placeholders only', () => {
    const upload = operations().find((op) => op.path === '/upload/{folder}') as ApiOperation;
    const [curl, python] = requestSamples(upload, { languages: ['curl', 'python'], requiredOnly: true });
    expect(curl?.code).toContain("--url 'https://files.example.com/upload/<folder>?api_key=<key>'");
    expect(curl?.code).toContain("--header 'Authorization: Basic <credentials>'");
    expect(curl?.code).toContain("--form file='@<file>'");
    expect(python?.code).toContain('"Authorization": "Basic <credentials>"');
  });
});

describe('the cURL sample against a real docsnap api', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi();
  });
  afterAll(async () => api?.close());

  it('gets a status the document lists for it', async () => {
    const spec = await loadOpenApi('api-reference/openapi.json', { repoRoot: EXAMPLE_SITE });
    const start = listOperations(spec).find(
      (o) => o.method === 'POST' && o.path === '/v1/static-export/jobs',
    ) as ApiOperation;
    const [curl] = requestSamples(start, { languages: ['curl'], requiredOnly: true });
    const command = (curl?.code ?? '')
      .replace(/http:\/\/127\.0\.0\.1:8080/g, api.url)
      .replace(/<[^>]+>/g, api.keys.acme);
    // Asynchronously: the server answers from this process's event loop.
    const { stdout: status } = await promisify(execFile)('bash', [
      '-c',
      `${command} --silent --output /dev/null --write-out '%{http_code}'`,
    ]);
    expect(start.responses.map((r) => r.status)).toContain(status);
    clearOpenApiCache();
  });
});
