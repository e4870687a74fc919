import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Root } from 'mdast';
import { describe, expect, it } from 'vitest';
import { type MarkupSyntax, measureNesting } from '../../../src/export/markdown/nesting.ts';
import { parseBody } from '../../../src/export/markdown/parse.ts';
import { CORPORA } from '../fixtures.ts';

const depth = (source: string, syntax: MarkupSyntax = 'mdx') => measureNesting(source, syntax).depth;

/** Block quotes, list items and elements around the deepest node of a parsed tree: what the scan bounds. */
function parsedDepth(node: { type: string; children?: unknown[] }, outer = 0): number {
  const containers = ['blockquote', 'listItem', 'mdxJsxFlowElement', 'mdxJsxTextElement'];
  const own = containers.includes(node.type) ? outer + 1 : outer;
  let deepest = own;
  for (const child of (node.children ?? []) as { type: string }[])
    deepest = Math.max(deepest, parsedDepth(child, own));
  return deepest;
}

describe('the nesting scan before parsing', () => {
  it('counts list markers and block quotes on a line, and items kept open by indentation', () => {
    expect(depth(`${'- '.repeat(10_000)}x`)).toBe(10_000);
    expect(depth(`${'> '.repeat(300)}x`)).toBe(300);
    expect(depth('> - > 1. > * x')).toBe(6);
    expect(depth(Array.from({ length: 100 }, (_, i) => `${'  '.repeat(i)}- x`).join('\n'))).toBe(100);
    expect(depth('- a\n\n  - b\n\n    - c\n\nback to the top')).toBe(3);
  });

  it('counts components and HTML elements, open ones around closed ones', () => {
    expect(depth(`${'<Card>\n'.repeat(100)}x\n${'</Card>\n'.repeat(100)}`)).toBe(100);
    expect(depth('<Tabs>\n  <Tab title="a > b">\n    - item\n  </Tab>\n</Tabs>\n<Note/>')).toBe(3);
    expect(depth(`${'<div>'.repeat(100)}x${'</div>'.repeat(100)}`, 'md')).toBe(100);
    // Elements that cannot hold others in raw HTML do not nest in .md.
    expect(depth('<p>a<p>b<br><img src="x"><li>c', 'md')).toBe(0);
  });

  it('stops once past the limit, with the line where it went past', () => {
    const source = `intro\n\n${'<Card>\n'.repeat(1000)}`;
    expect(measureNesting(source, 'mdx', 64)).toEqual({ depth: 65, line: 67 });
  });

  it('leaves out fenced code, and counts tags mentioned in prose only within their paragraph', () => {
    const code = 'function f<T>(x: Array<T>): Promise<Map<string, T>> {}\n'.repeat(100);
    expect(depth(`\`\`\`ts\n${code}\`\`\``)).toBe(0);
    expect(depth(`Use \`<Card>\` or \`<Tab>\`.\n\n${'See `<T>`.\n\n'.repeat(100)}`)).toBe(2);
    expect(depth('- Use `<T>`.\n'.repeat(100))).toBe(2);
    expect(depth('See <https://example.com> or <a@b.c>.', 'md')).toBe(0);
  });

  it('keeps sibling list items at one level', () => {
    expect(depth('- a\n- b\n* c\n+ d\n1. e\n')).toBe(1);
    // "2." may be a lazy line of the paragraph before it: it closes nothing, and wider numbers
    // ("10.", "100.") indent their content further, so the count grows by a level per digit.
    expect(depth(Array.from({ length: 100 }, (_, i) => `${i + 1}. step`).join('\n'))).toBe(3);
  });

  // Each of these puts a ``` line, a backtick or a quote where a parser does not see what it
  // seems to be: the scan must still count what comes after.
  it.each([
    ['a ``` line inside an import block', 'export const a = 1\n```\n\n', 'mdx'],
    ['a ``` line inside a block quote the next line leaves', '> ```\n> code\n', 'mdx'],
    ['a ``` line inside a list item the next line leaves', '- ```\n  code\n', 'mdx'],
    ['a ``` line inside an expression', '{`\n```\n`}\n', 'mdx'],
    ['a ``` line in raw HTML', '<pre>\n\n```\n</pre>\n\n', 'md'],
    ['a ``` line indented as code', '    ```\n', 'md'],
    ['a backtick whose code span starts on the line before', 'a `\nb ` ', 'mdx'],
    ['a quote inside inline code that looks like an attribute', '`<a b="` ', 'mdx'],
    ['a tag left open on the line before', 'x <a\n', 'mdx'],
  ] as const)('cannot hide nesting behind %s', (_name, prefix, syntax) => {
    const nested = syntax === 'md' ? `${'>'.repeat(1000)} x` : `${'<Card>'.repeat(1000)} x`;
    expect(depth(`${prefix}${nested}`, syntax)).toBeGreaterThanOrEqual(1000);
  });

  it('counts list items that may be lazy lines of a paragraph', () => {
    // An ordered item not starting at 1 cannot interrupt a paragraph, so after a heading it opens
    // an item, after a paragraph it does not: either way the count must not drop.
    const steps = Array.from({ length: 100 }, (_, i) => `${'   '.repeat(i)}# h\n${'   '.repeat(i)}2. x`);
    expect(depth(steps.join('\n'))).toBeGreaterThanOrEqual(100);
  });

  const crafted = [
    '> - a\n>   - b\n>     > c',
    '<Card>\n  - a\n    <Tab>\n      > b\n    </Tab>\n</Card>',
    'a `\nb ` <Card>x</Card> `',
    '> ```\n> code\n<Card>\n\n</Card>',
    '- ```\n  x\ny\n<Card/>',
    '<Card\n\n/>',
    '1. a\n   2. b\n      3. c',
    '* a\n\n  text\n\n  * b\n\n    > c',
  ];

  it('is never below the depth either parser builds', () => {
    for (const source of crafted)
      expect(depth(source), source).toBeGreaterThanOrEqual(parsedDepth(parseBody(source, 'x.mdx') as Root));
  });

  const corpora = existsSync(CORPORA) ? ['mcp-docs', 'novu-docs'] : [];
  it.skipIf(corpora.length === 0)(
    'measures real documentation far below the limit, and not below its parse',
    () => {
      let deepest = 0;
      for (const corpus of corpora) {
        for (const entry of readdirSync(join(CORPORA, corpus), { recursive: true, withFileTypes: true })) {
          if (!entry.isFile() || !/\.mdx?$/.test(entry.name)) continue;
          const file = join(entry.parentPath, entry.name);
          const source = readFileSync(file, 'utf8').replace(/^---\n[\s\S]*?\n---\n/, '');
          const syntax = entry.name.endsWith('.md') ? 'md' : 'mdx';
          const measured = depth(source, syntax);
          expect(measured, file).toBeGreaterThanOrEqual(parsedDepth(parseBody(source, entry.name) as Root));
          deepest = Math.max(deepest, measured);
        }
      }
      expect(deepest).toBeLessThanOrEqual(16);
    },
  );
});
