import GithubSlugger from 'github-slugger';
import type { Element, Root } from 'hast';
import { toText } from 'hast-util-to-text';
import { visit } from 'unist-util-visit';

export interface TocEntry {
  id: string;
  text: string;
  depth: number;
}

const HEADING = /^h([1-6])$/;

/**
 * Gives every heading of the page content a stable id (GitHub's slugs, unique within the page;
 * ids an author set are kept) and returns the h2/h3 entries of the table of contents.
 */
export function anchorHeadings(tree: Root, reserved: string[] = []): TocEntry[] {
  const slugger = new GithubSlugger();
  for (const id of reserved) slugger.slug(id);
  const toc: TocEntry[] = [];
  visit(tree, 'element', (node: Element) => {
    const match = HEADING.exec(node.tagName);
    if (!match) return;
    const text = toText(node).trim();
    let id = typeof node.properties.id === 'string' ? node.properties.id : '';
    if (!id) {
      id = slugger.slug(text || 'section');
      node.properties.id = id;
    }
    const depth = Number(match[1]);
    if (depth === 2 || depth === 3) toc.push({ id, text, depth });
  });
  return toc;
}
