import type { Root } from 'mdast';
import { overBudget } from '../budgets.ts';

/** What a parsed page or snippet weighs, for the budgets of the page it goes into. */
export interface TreeSize {
  /** Nested block quotes, list items, elements, emphasis and links: what recursion goes through. */
  depth: number;
  /** The line of the deepest node. */
  line: number;
  nodes: number;
  /** Characters of text, code and raw HTML: a lower bound of the HTML the tree becomes. */
  textBytes: number;
}

// List, paragraph, heading and table nodes nest only inside these, so counting these bounds every depth.
const NESTING = new Set([
  'blockquote',
  'listItem',
  'footnoteDefinition',
  'mdxJsxFlowElement',
  'mdxJsxTextElement',
  'emphasis',
  'strong',
  'delete',
  'link',
  'linkReference',
]);

/** True for the node types that add a level of nesting (see TreeSize.depth). */
export function nests(type: string): boolean {
  return NESTING.has(type);
}

type Node = { type: string; value?: unknown; children?: Node[]; position?: { start: { line: number } } };

const sizes = new WeakMap<object, TreeSize>();

/**
 * Measures a tree without recursion (it may be deeper than the call stack), once per tree: the
 * parser measures every tree it returns, and the snippet resolver reads the same figures.
 */
export function treeSize(tree: Root): TreeSize {
  const known = sizes.get(tree);
  if (known) return known;
  const size: TreeSize = { depth: 0, line: 1, nodes: 0, textBytes: 0 };
  const stack: [Node, number][] = [[tree as Node, 0]];
  while (stack.length > 0) {
    const [node, outer] = stack.pop() as [Node, number];
    size.nodes++;
    if (typeof node.value === 'string') size.textBytes += node.value.length;
    const depth = NESTING.has(node.type) ? outer + 1 : outer;
    if (depth > size.depth) {
      size.depth = depth;
      size.line = node.position?.start.line ?? size.line;
    }
    for (const child of node.children ?? []) stack.push([child, depth]);
  }
  sizes.set(tree, size);
  return size;
}

/**
 * Refuses a parsed tree nested deeper than `limit` before anything recurses through it: the
 * pre-parse scan (nesting.ts) does not see emphasis and links, which nest too.
 */
export function checkTreeDepth(tree: Root, file: string, limit: number): TreeSize {
  const size = treeSize(tree);
  if (size.depth > limit)
    throw overBudget(
      { file, line: size.line },
      `lists, block quotes, elements and emphasis nested ${size.depth} deep exceed the limit of ${limit}`,
      'nestingDepth',
    );
  return size;
}
