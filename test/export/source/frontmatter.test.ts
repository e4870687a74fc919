import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ExportError } from '../../../src/export/errors.ts';
import { splitFrontmatter } from '../../../src/export/source/frontmatter.ts';

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

  it('reports invalid YAML with the line in the file', () => {
    expect(() => splitFrontmatter('---\ntitle: A\ndescription: Hello: world\n---\n', 'guide.mdx')).toThrow(
      ExportError,
    );
    try {
      splitFrontmatter('---\ntitle: A\ndescription: Hello: world\n---\n', 'guide.mdx');
    } catch (error) {
      expect((error as ExportError).problems[0]).toMatchObject({ file: 'guide.mdx', line: 3 });
    }
  });
});
