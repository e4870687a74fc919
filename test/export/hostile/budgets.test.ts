import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_BUDGETS, type ExportBudgets, resolveBudgets } from '../../../src/export/budgets.ts';
import type { ExportOptions } from '../../../src/export/options.ts';
import type { exportSite } from '../../../src/export/pipeline.ts';
import { docsRepo, page } from '../fixtures.ts';
import { HOSTILE_SITES } from './budget-sites.ts';

type Export = typeof exportSite;

const addon = fileURLToPath(new URL('../../../native/markdown/docsnap-markdown.node', import.meta.url));
const parsers = existsSync(addon) ? (['native', 'js'] as const) : (['js'] as const);

/** The pipeline with one Markdown parser: parse.ts picks it when it loads, so the modules are loaded afresh. */
async function pipelineWith(parser: 'native' | 'js'): Promise<Export> {
  vi.stubEnv('DOCSNAP_MARKDOWN_PARSER', parser);
  vi.resetModules();
  try {
    const { markdownParser } = await import('../../../src/export/markdown/parse.ts');
    expect(markdownParser).toBe(parser);
    return (await import('../../../src/export/pipeline.ts')).exportSite;
  } finally {
    vi.unstubAllEnvs();
  }
}

/** Exports a site and returns the error it fails with (modules loaded afresh have their own ExportError class). */
async function failure(
  run: Export,
  files: Record<string, string | object>,
  options: Partial<ExportOptions> = {},
): Promise<{ error: Error; seconds: number }> {
  const source = docsRepo(files);
  const started = performance.now();
  const error = await run({ source, options }).then(
    () => undefined,
    (e: Error) => e,
  );
  const seconds = (performance.now() - started) / 1000;
  expect(error, 'the export should have failed').toBeInstanceOf(Error);
  return { error: error as Error, seconds };
}

function expectBudgetError(error: Error, file: string, budget: keyof ExportBudgets): void {
  expect(error.name).toBe('ExportError');
  expect(error.message.startsWith(`${file}:`), error.message).toBe(true);
  expect(error.message).toContain(`(budgets.${budget})`);
  expect(error.message).toMatch(/limit/);
  expect(error.message).not.toMatch(/call stack/i);
}

describe.each(parsers)('hostile repositories, %s Markdown parser', (parser) => {
  let run: Export;

  it.each(Object.entries(HOSTILE_SITES))(
    '%s: refused, naming the file and the budget',
    { timeout: 60_000 },
    async (_name, site) => {
      run ??= await pipelineWith(parser);
      const { error, seconds } = await failure(run, site.files);
      expectBudgetError(error, site.file, site.budget);
      // Behaviour, with a generous bound: each of these took minutes or all memory before.
      expect(seconds).toBeLessThan(10);
    },
  );

  it('a page markdown-rs panics on is still exported', async () => {
    run ??= await pipelineWith(parser);
    const source = docsRepo({
      'docs.json': { name: 'x', colors: { primary: '#0D9373' }, navigation: { pages: ['guide'] } },
      'guide.md': page('Panics', '* <!--\n2.'),
    });
    const result = await run({ source });
    expect(result.pageCount).toBe(1);
  });
});

describe('nesting that only the call stack limits', () => {
  let run: Export;
  const cases: [string, Record<string, string | object>, string][] = [
    [
      'YAML frontmatter nested 5,000 deep',
      {
        'docs.json': { name: 'x', colors: { primary: '#0D9373' }, navigation: { pages: ['guide'] } },
        'guide.mdx': `---\ntitle: T\nx: ${'['.repeat(5000)}${']'.repeat(5000)}\n---\n\nHi\n`,
      },
      'guide.mdx:2: frontmatter nested too deep',
    ],
    [
      'an OpenAPI YAML file nested 5,000 deep',
      {
        'openapi.yaml': `openapi: 3.0.3\ninfo: {title: A, version: "1"}\npaths: {}\nx: ${'['.repeat(5000)}${']'.repeat(5000)}\n`,
        'docs.json': {
          name: 'x',
          colors: { primary: '#0D9373' },
          navigation: { groups: [{ group: 'API', openapi: 'openapi.yaml', pages: ['GET /x'] }] },
        },
      },
      'openapi.yaml: YAML nested too deep',
    ],
    [
      'a chain of 10,000 schemas, each a $ref to the next',
      (() => {
        const schemas: Record<string, object> = { S10000: { type: 'string' } };
        for (let i = 0; i < 10_000; i++) schemas[`S${i}`] = { $ref: `#/components/schemas/S${i + 1}` };
        const spec = {
          openapi: '3.0.3',
          info: { title: 'A', version: '1' },
          paths: {
            '/x': {
              get: {
                responses: {
                  200: {
                    description: 'ok',
                    content: { 'application/json': { schema: { $ref: '#/components/schemas/S0' } } },
                  },
                },
              },
            },
          },
          components: { schemas },
        };
        return {
          'openapi.json': spec,
          'docs.json': {
            name: 'x',
            colors: { primary: '#0D9373' },
            navigation: { groups: [{ group: 'API', openapi: 'openapi.json', pages: ['GET /x'] }] },
          },
        };
      })(),
      'openapi.json: GET /x: schemas nested too deep',
    ],
  ];

  it.each(cases)('%s: an error naming the file', { timeout: 60_000 }, async (_name, files, message) => {
    run ??= await pipelineWith(parsers[0]);
    const { error } = await failure(run, files);
    expect(error.name).toBe('ExportError');
    expect(error.message).toContain(message);
    expect(error.message).not.toMatch(/call stack/i);
  });
});

describe('budgets set by the caller', () => {
  let run: Export;
  const listPage = {
    'docs.json': { name: 'x', colors: { primary: '#0D9373' }, navigation: { pages: ['guide'] } },
    'guide.mdx': page('Lists', '- a\n  - b\n    - c\n      - d'),
  };

  it('apply instead of the defaults', async () => {
    run ??= await pipelineWith(parsers[0]);
    expect((await run({ source: docsRepo(listPage) })).pageCount).toBe(1);
    const { error } = await failure(run, listPage, { budgets: { nestingDepth: 3 } });
    expectBudgetError(error, 'guide.mdx', 'nestingDepth');
    expect(error.message).toContain('nested 4 deep exceed the limit of 3');
  });

  it("bound the page's HTML when it is serialized", async () => {
    run ??= await pipelineWith(parsers[0]);
    const { error } = await failure(run, listPage, { budgets: { pageHtmlBytes: 1024 } });
    expectBudgetError(error, 'guide.mdx', 'pageHtmlBytes');
    expect(error.message).toMatch(/the page's HTML is [\d.]+ KiB, past the limit of 1 KiB/);
  });

  it('are positive integers with known names', () => {
    expect(resolveBudgets({ snippetDepth: 4 })).toEqual({ ...DEFAULT_BUDGETS, snippetDepth: 4 });
    expect(() => resolveBudgets({ nestingDepth: 0 })).toThrow(/nestingDepth must be a positive integer/);
    expect(() => resolveBudgets({ pageHtmlBytes: 1.5 })).toThrow(/pageHtmlBytes must be a positive integer/);
    expect(() => resolveBudgets({ minutes: 10 } as Partial<ExportBudgets>)).toThrow(
      /unknown export budget "minutes"/,
    );
  });
});
