import GithubSlugger from 'github-slugger';
import type { Element, ElementContent, Root } from 'hast';

export interface TocEntry {
  id: string;
  text: string;
  depth: number;
}

export interface ContentOutline {
  /** h2/h3 entries of the table of contents, in document order. */
  toc: TocEntry[];
  /** Every element id in the content (link targets for #anchors). */
  ids: string[];
  /** Plain text of the content, whitespace collapsed. */
  text: string;
  /** The text before the first TOC heading, then the text under each (toc.length + 1 entries). */
  sectionTexts: string[];
}

const HEADING = /^h([1-6])$/;
/** Elements whose text is not prose: left out of search text. */
const NOT_TEXT = new Set(['style', 'script', 'svg', 'button']);

/**
 * One walk over a page's content that gives every heading a stable id (GitHub's slugs, unique in
 * the page; ids an author set are kept) and collects what later stages need: the table of
 * contents, all ids, and the text for search split at TOC headings. One pass, because on large
 * sites every walk over every page counts.
 */
export function outlineContent(root: Root): ContentOutline {
  const slugger = new GithubSlugger();
  const toc: TocEntry[] = [];
  const ids: string[] = [];
  const sections: string[][] = [[]];
  let current = sections[0] as string[];

  const textOf = (node: ElementContent): string => {
    if (node.type === 'text') return node.value;
    if (node.type === 'element') return node.children.map(textOf).join('');
    return '';
  };

  const walk = (node: Root | ElementContent) => {
    if (node.type === 'text') {
      current.push(node.value);
      return;
    }
    if (node.type === 'raw') {
      if (node.data?.text) current.push(node.data.text);
      return;
    }
    if (node.type !== 'element' && node.type !== 'root') return;
    if (node.type === 'element') {
      const element = node as Element;
      if (NOT_TEXT.has(element.tagName)) return;
      const heading = HEADING.exec(element.tagName);
      if (heading) {
        const text = textOf(element).trim();
        let id = typeof element.properties.id === 'string' ? element.properties.id : '';
        if (id) slugger.slug(id);
        else {
          id = slugger.slug(text || 'section');
          element.properties.id = id;
        }
        ids.push(id);
        const depth = Number(heading[1]);
        if (depth === 2 || depth === 3) {
          toc.push({ id, text, depth });
          current = [];
          sections.push(current);
          return; // the heading's text is the heading, not section text
        }
        current.push(text);
        return;
      }
      if (typeof element.properties.id === 'string') ids.push(element.properties.id);
    }
    for (const child of node.children) walk(child as ElementContent);
  };
  walk(root);
  const clean = (parts: string[]) => parts.join(' ').replace(/\s+/g, ' ').trim();
  const sectionTexts = sections.map(clean);
  return { toc, ids, text: sectionTexts.filter(Boolean).join(' '), sectionTexts };
}
