import { describe, expect, it } from 'vitest';
import { parse, parseDocument } from 'yaml';
import { ExportError } from '../../../src/export/errors.ts';
import { relaxQuotedScalars, splitFrontmatter } from '../../../src/export/source/frontmatter.ts';

const cases: Array<[string, string]> = [
  ['plain', 'title: Getting started\ndescription: Set up the CLI in two minutes.'],
  ['quoted with escapes', 'title: "Say \\"hi\\" to: the API"\nsidebarTitle: "Tabs\\tand\\u00e9"'],
  ['booleans and numbers', 'title: Page\nhidden: true\nnoindex: false\nicon: 42'],
  ['a colon without a space', 'title: a:b\nurl: https://example.com/x'],
  ['null-like values', 'title: ~\ndescription: null'],
  ['single quotes', "title: 'It''s here'"],
  ['comments', 'title: Page # a comment\nicon: rocket'],
  ['nested and lists', 'title: Page\nseo:\n  index: false\ntags: [a, b]'],
  ['block scalar', 'title: Page\ndescription: >\n  folded\n  text'],
  ['openapi stub', 'title: "List users"\nopenapi: "GET /v1/users/{id}"'],
];

describe('splitFrontmatter', () => {
  it.each(cases)('reads %s exactly as the YAML parser does', (_name, yamlText) => {
    const expected = parse(yamlText) as Record<string, unknown>;
    const { meta } = splitFrontmatter(`---\n${yamlText}\n---\n\nBody\n`, 'page.mdx');
    const asText = (v: unknown) =>
      typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
    expect(meta.title).toBe(asText(expected.title));
    expect(meta.description).toBe(asText(expected.description));
    expect(meta.sidebarTitle).toBe(asText(expected.sidebarTitle));
    expect(meta.hidden).toBe(expected.hidden === true);
    expect(meta.url).toBe(asText(expected.url));
    expect(meta.openapi).toBe(asText(expected.openapi));
  });

  it('keeps the body on the same lines as in the file', () => {
    const { body } = splitFrontmatter('---\ntitle: A\nicon: x\n---\nLine five\n', 'a.mdx');
    expect(body.split('\n')[4]).toBe('Line five');
  });

  it('reports invalid YAML with the line in the file, and keeps the body', () => {
    const { meta, body, problem } = splitFrontmatter(
      '---\ntitle: A\ndescription: Hello: world\n---\nText\n',
      'guide.mdx',
    );
    expect(meta).toEqual({});
    expect(problem).toMatchObject({ file: 'guide.mdx', line: 3 });
    expect(problem?.message).toMatch(/^invalid frontmatter, the page is built without it: /);
    expect(body.split('\n')[4]).toBe('Text');
  });

  it('is not fooled into an error by nesting: that stays a refusal', () => {
    const deep = `---\nx: ${'['.repeat(5000)}${']'.repeat(5000)}\n---\n`;
    expect(() => splitFrontmatter(deep, 'a.mdx')).toThrow(ExportError);
  });
});

/** Frontmatter as real repositories write it: every one is read, as YAML reads it or more leniently. */
const unusual: Array<[string, string, Record<string, unknown>]> = [
  [
    'a double-quoted value over several lines with an empty line inside',
    'title: "Indexer"\ndescription: "Returns the state\nof the indexer.\n\nSee also the RPC."',
    { title: 'Indexer', description: 'Returns the state of the indexer.\nSee also the RPC.' },
  ],
  [
    'the same, indented as YAML asks',
    'title: "Indexer"\ndescription: "Returns the state\n  of the indexer.\n\n  See also the RPC."',
    { title: 'Indexer', description: 'Returns the state of the indexer.\nSee also the RPC.' },
  ],
  [
    'a single-quoted value over two lines, with an escaped quote',
    "title: 'It''s\nhere'",
    { title: "It's here" },
  ],
  ['a folded block scalar', 'title: T\ndescription: >\n  one\n  two\n', { description: 'one two\n' }],
  ['a literal block scalar', 'title: T\ndescription: |\n  one\n  two', { description: 'one\ntwo\n' }],
  ['a stripped folded scalar', 'title: T\ndescription: >-\n  one\n\n  two', { description: 'one\ntwo' }],
  [
    'comments everywhere',
    '# heading comment\ntitle: T # trailing\n# between\nicon: rocket',
    { title: 'T', icon: 'rocket' },
  ],
  ['an anchor and an alias', 'base: &name Shared title\ntitle: *name', { title: 'Shared title' }],
  ['CRLF line ends', 'title: "A"\r\ndescription: "B\r\nC"', { title: 'A', description: 'B C' }],
  ['a continuation line indented by a tab', 'title: "A"\ndescription: "B\n\tC"', { description: 'B C' }],
];

describe('unusual frontmatter', () => {
  it.each(unusual)('reads %s', (_name, yamlText, expected) => {
    const { meta, problem } = splitFrontmatter(`---\n${yamlText}\n---\n\nBody\n`, 'page.mdx');
    expect(problem).toBeUndefined();
    expect(meta).toMatchObject(expected);
  });

  it('leaves a quoted value it cannot close to the YAML error', () => {
    expect(relaxQuotedScalars('title: "open\nnever closed')).toBe('title: "open\n  never closed');
    const { problem } = splitFrontmatter('---\ntitle: "open\nnever closed\n---\n', 'a.mdx');
    expect(problem?.line).toBeGreaterThanOrEqual(2);
  });
});

describe('the flat fast path', () => {
  // Lines the fast path takes or declines: whatever it returns must be what the YAML parser reads.
  const lines = [
    'title: Getting started',
    'title: "quoted: with colon"',
    'title: "escapes \\u00e9 \\" \\t"',
    "title: 'single'",
    'title: a:b',
    'title: 42',
    'title: 4.20',
    'title: 0x1F',
    'title: 1e3',
    'title: true',
    'title: yes',
    'title: null',
    'title: ~',
    'title: -dash',
    'title: x # comment',
    'title: x#not-a-comment',
    'title: "unterminated',
    'title: [a, b]',
    'title: {a: b}',
    'title: &a anchored',
    'title: !tag value',
    'title: @reserved',
    'title: `backtick`',
    'title: value with trailing spaces   ',
    'title:',
    'title: %percent',
    'title: "a" trailing',
    'title: 2024-01-01',
    'title: .5',
    'title: +1',
    'title: 1_000',
  ];
  it.each(lines)('reads %j as the YAML parser does, or leaves it to the parser', (line) => {
    const text = `---\n${line}\nicon: rocket\n---\n`;
    const { meta, problem } = splitFrontmatter(text, 'a.mdx');
    const document = parseDocument(`${line}\nicon: rocket`, { uniqueKeys: false });
    if (document.errors.length > 0) {
      expect(problem).toBeDefined();
      return;
    }
    const data = document.toJS() as Record<string, unknown>;
    const expected =
      typeof data.title === 'string'
        ? data.title
        : typeof data.title === 'number'
          ? String(data.title)
          : undefined;
    expect(problem).toBeUndefined();
    expect(meta.title).toBe(expected);
  });
});
