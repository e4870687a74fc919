import type { ExportBudgets } from '../../../src/export/budgets.ts';

/**
 * Docs repositories built to exhaust an export, one per attack: each maps paths to contents
 * (objects become JSON), names the file the export must blame and the budget it must cite.
 * Plain data, so benchmarks and measurements can write the same sites.
 */
export interface HostileSite {
  files: Record<string, string | object>;
  /** The file the error names first. */
  file: string;
  budget: keyof ExportBudgets;
}

const site = (pages: string[]) => ({
  name: 'Hostile',
  theme: 'mint',
  colors: { primary: '#0D9373' },
  navigation: { groups: [{ group: 'Guide', pages }] },
});
const page = (body: string) => `---\ntitle: Guide\n---\n\n${body}\n`;
const onePage = (body: string, file = 'guide.mdx') => ({
  [file]: page(body),
  'docs.json': site([file.replace(/\.mdx?$/, '')]),
});

/** Each snippet uses the one before it ten times: ten times more content per level. */
function snippetFanOut(levels: number): Record<string, string | object> {
  const files: Record<string, string | object> = { 'snippets/s0.mdx': 'A leaf with **bold** text.\n' };
  for (let i = 1; i <= levels; i++)
    files[`snippets/s${i}.mdx`] = `import S from '/snippets/s${i - 1}.mdx';\n\n${'<S />\n\n'.repeat(10)}`;
  return { ...files, ...onePage(`import S from '/snippets/s${levels}.mdx';\n\n<S />`) };
}

function snippetChain(length: number): Record<string, string | object> {
  const files: Record<string, string | object> = { 'snippets/s0.mdx': 'The end.\n' };
  for (let i = 1; i <= length; i++)
    files[`snippets/s${i}.mdx`] = `import S from '/snippets/s${i - 1}.mdx';\n\n<S />\n`;
  return { ...files, ...onePage(`import S from '/snippets/s${length}.mdx';\n\n<S />`) };
}

const apiSite = (spec: string | object) => ({
  'openapi.json': spec,
  'docs.json': {
    ...site([]),
    navigation: { groups: [{ group: 'API', openapi: 'openapi.json', pages: ['GET /items'] }] },
  },
});
const operation = (responses: object, components: object = {}) => ({
  openapi: '3.0.3',
  info: { title: 'Hostile API', version: '1' },
  paths: { '/items': { get: { summary: 'List items', responses } } },
  components,
});

/**
 * A ~50 KB document: one schema of six fields per level, eight levels deep through `$ref`, that
 * 300 responses all use. Every use expands the schema again (600 fields each, the per-schema cap).
 */
function responseRefExplosion(): object {
  const schemas: Record<string, object> = {};
  for (let level = 0; level < 8; level++) {
    const properties: Record<string, object> = {};
    for (let p = 0; p < 6; p++)
      properties[`field${p}`] =
        level === 7
          ? { type: 'string', description: 'A leaf field.' }
          : { $ref: `#/components/schemas/Level${level + 1}` };
    schemas[`Level${level}`] = { type: 'object', description: `Level ${level}.`, properties };
  }
  const responses: Record<string, object> = {};
  for (let status = 200; status < 500; status++)
    responses[String(status)] = {
      description: 'The items.',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Level0' } } },
    };
  return operation(responses, { schemas });
}

/** A schema in a schema 10,000 deep, written as text: JSON.stringify itself cannot go that deep. */
function deepSchemaDocument(depth: number): string {
  const schema = `${'{"type":"array","items":'.repeat(depth)}{"type":"string"}${'}'.repeat(depth)}`;
  const spec = JSON.stringify(operation({ 200: { description: 'ok', content: { 'application/json': {} } } }));
  return spec.replace('"application/json":{}', `"application/json":{"schema":${schema}}`);
}

function deepNavigation(depth: number): string {
  const groups = `${'{"group":"Level","pages":['.repeat(depth)}"guide"${']}'.repeat(depth)}`;
  return JSON.stringify(site([])).replace('"pages":[]', `"pages":[${groups}]`);
}

export const HOSTILE_SITES: Record<string, HostileSite> = {
  'a list marker repeated 10,000 times on one line': {
    files: onePage(`${'- '.repeat(10_000)}x`),
    file: 'guide.mdx',
    budget: 'nestingDepth',
  },
  'a list marker repeated 20,000 times on one line': {
    files: onePage(`${'- '.repeat(20_000)}x`),
    file: 'guide.mdx',
    budget: 'nestingDepth',
  },
  '10,000 nested block quotes': {
    files: onePage(`${'> '.repeat(10_000)}x`),
    file: 'guide.mdx',
    budget: 'nestingDepth',
  },
  '10,000 nested components': {
    files: onePage(`${'<Card>\n'.repeat(10_000)}x\n${'</Card>\n'.repeat(10_000)}`),
    file: 'guide.mdx',
    budget: 'nestingDepth',
  },
  'a list nested 1,000 deep by indentation': {
    files: onePage(Array.from({ length: 1000 }, (_, i) => `${'  '.repeat(i)}- item`).join('\n')),
    file: 'guide.mdx',
    budget: 'nestingDepth',
  },
  '10,000 nested HTML elements in a .md page': {
    files: onePage(`${'<div>'.repeat(10_000)}x${'</div>'.repeat(10_000)}`, 'guide.md'),
    file: 'guide.md',
    budget: 'nestingDepth',
  },
  'emphasis nested 100 deep': {
    files: onePage(`${'_a '.repeat(100)}b${' a_'.repeat(100)}`),
    file: 'guide.mdx',
    budget: 'nestingDepth',
  },
  // Block quotes the scan must see although a ``` line seems to open code before them.
  'block quotes after a ``` line inside an import block': {
    files: onePage(`export const a = 1\n\`\`\`\n\n${'>'.repeat(30_000)} x`),
    file: 'guide.mdx',
    budget: 'nestingDepth',
  },
  'components after a ``` line inside a block quote': {
    files: onePage(`> \`\`\`\n> code\n${'<Card>\n'.repeat(10_000)}`),
    file: 'guide.mdx',
    budget: 'nestingDepth',
  },
  'snippet fan-out, 7 levels of 10 uses': {
    files: snippetFanOut(7),
    file: 'guide.mdx',
    budget: 'inlinedNodes',
  },
  'snippets inlined in one another 100 deep': {
    files: snippetChain(100),
    file: 'guide.mdx',
    budget: 'snippetDepth',
  },
  'a 1.5 MiB snippet used 20 times': {
    files: {
      'snippets/big.mdx': `${'All work and no play. '.repeat(70_000)}\n`,
      ...onePage(`import Big from '/snippets/big.mdx';\n\n${'<Big />\n\n'.repeat(20)}`),
    },
    file: 'guide.mdx',
    budget: 'pageHtmlBytes',
  },
  'a 5 MiB page': {
    files: onePage('All work and no play. '.repeat(240_000)),
    file: 'guide.mdx',
    budget: 'pageSourceBytes',
  },
  'OpenAPI responses that all $ref one nested schema': {
    files: apiSite(responseRefExplosion()),
    file: 'openapi.json',
    budget: 'operationNodes',
  },
  'an OpenAPI schema nested 10,000 deep': {
    files: apiSite(deepSchemaDocument(10_000)),
    file: 'openapi.json',
    budget: 'documentDepth',
  },
  'an OpenAPI description of 10,000 nested list markers': {
    files: apiSite(operation({ 200: { description: `${'- '.repeat(10_000)}x` } })),
    file: 'openapi.json',
    budget: 'nestingDepth',
  },
  'docs.json groups nested 10,000 deep': {
    files: { 'docs.json': deepNavigation(10_000), 'guide.mdx': page('Hello.') },
    file: 'docs.json',
    budget: 'navigationDepth',
  },
};
