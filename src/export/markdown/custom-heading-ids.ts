import type { Heading, Root } from 'mdast';
import { visit } from 'unist-util-visit';
import { customHeadingId } from '../pages/anchor-ids.ts';

/**
 * `## Configuration options {#config}`: a heading with the id its author chose, as the platform
 * reads it — on ATX headings (up to three spaces of indent), outside fenced code and `{/* … *\/}`
 * comments. In MDX `{#config}` would be a JavaScript expression (and a syntax error), so the
 * suffix is taken off each such line before parsing, keeping line numbers, and the id is put on
 * the heading of that line after.
 */

const HEADING_WITH_ID = /^( {0,3}#{1,6}\s+.+?)\s*\{\s*#([^}]+?)\s*\}\s*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

export function takeCustomHeadingIds(body: string): { body: string; ids: Map<number, string> } {
  const ids = new Map<number, string>();
  if (!body.includes('{#')) return { body, ids };
  const lines = body.split('\n');
  let fence: string | undefined;
  let inComment = false;
  lines.forEach((line, index) => {
    const opening = FENCE.exec(line)?.[1];
    if (fence) {
      if (
        opening &&
        opening[0] === fence[0] &&
        opening.length >= fence.length &&
        !line.trim().slice(opening.length).trim()
      )
        fence = undefined;
      return;
    }
    if (opening) {
      fence = opening;
      return;
    }
    if (inComment) {
      if (line.includes('*/')) inComment = false;
      return;
    }
    if (line.includes('{/*') && !line.slice(line.lastIndexOf('{/*')).includes('*/')) inComment = true;
    const match = HEADING_WITH_ID.exec(line);
    if (!match) return;
    const id = customHeadingId(match[2] ?? '');
    if (!id) return;
    lines[index] = match[1] ?? line;
    ids.set(index + 1, id);
  });
  return ids.size > 0 ? { body: lines.join('\n'), ids } : { body, ids };
}

/** Puts each taken id on the heading that starts on its line. */
export function applyCustomHeadingIds(tree: Root, ids: Map<number, string>, lineOffset = 0): void {
  if (ids.size === 0) return;
  visit(tree, 'heading', (node: Heading) => {
    const id = ids.get((node.position?.start.line ?? 0) - lineOffset);
    if (id) node.data = { ...node.data, hProperties: { ...node.data?.hProperties, id } };
  });
}
