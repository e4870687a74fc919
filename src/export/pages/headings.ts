import type { Element, ElementContent, Root } from 'hast';
import { DIAGRAM_CLASS } from '../diagrams/mermaid.ts';
import { MATH_CLASS } from '../markdown/math.ts';
import { NOT_SEARCHED_CLASS } from '../render-context.ts';
import { HeadingIds } from './anchor-ids.ts';

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
  /** Class names authors wrote (Tailwind utilities, say): the theme's own are left out. */
  classes: string[];
  /** The page has typeset math (it needs KaTeX's stylesheet). */
  math: boolean;
  /** The page has Mermaid diagrams (it loads Mermaid). */
  diagrams: boolean;
}

/** Classes of docsnap's own markup, which the site's Tailwind CSS has no business with. */
const OWN_CLASS = /^(?:ds-|hljs|language-)/;
/** A page's classes are counted up to this many; a class longer than MAX_CLASS is no utility. */
const MAX_CLASSES = 2_000;
const MAX_CLASS = 200;

const HEADING = /^h([1-6])$/;
/** Elements whose text is not prose: left out of search text. */
const NOT_TEXT = new Set(['style', 'script', 'svg', 'button']);
/** Labels inside a heading that are not its words: left out of its id and its table-of-contents entry. */
const NOT_HEADING_TEXT = new Set(['ds-badge', 'ds-tooltip-bubble', 'ds-sr-only']);

/**
 * One walk over a page's content that gives every heading a stable id (the platform's ids, see
 * anchor-ids.ts; ids an author set are kept) and collects what later stages need: the table of
 * contents, all ids, and the text for search split at TOC headings. One pass, because on large
 * sites every walk over every page counts.
 */
export function outlineContent(root: Root): ContentOutline {
  const headingIds = new HeadingIds();
  const classes = new Set<string>();
  let math = false;
  let diagrams = false;
  const toc: TocEntry[] = [];
  const ids: string[] = [];
  const sections: string[][] = [[]];
  let current = sections[0] as string[];

  const textOf = (node: ElementContent): string => {
    if (node.type === 'text') return node.value;
    if (node.type !== 'element' || node.tagName === 'svg') return '';
    const classes = node.properties.className;
    if (Array.isArray(classes) && classes.some((c) => NOT_HEADING_TEXT.has(String(c)))) return '';
    return node.children.map(textOf).join('');
  };

  let searched = true;
  const walk = (node: Root | ElementContent) => {
    if (node.type === 'text') {
      if (searched) current.push(node.value);
      return;
    }
    if (node.type === 'raw') {
      if (searched && node.data?.text) current.push(node.data.text);
      return;
    }
    if (node.type !== 'element' && node.type !== 'root') return;
    if (node.type === 'element') {
      const element = node as Element;
      const className = element.properties.className;
      if (Array.isArray(className) && className.includes(MATH_CLASS)) math = true;
      if (Array.isArray(className) && className.includes(DIAGRAM_CLASS)) diagrams = true;
      if (Array.isArray(className) && classes.size < MAX_CLASSES)
        for (const name of className)
          if (typeof name === 'string' && name.length <= MAX_CLASS && !OWN_CLASS.test(name))
            classes.add(name);
      if (NOT_TEXT.has(element.tagName)) {
        // Not prose, but a link target all the same (a tab's button).
        if (typeof element.properties.id === 'string') ids.push(element.properties.id);
        return;
      }
      const heading = HEADING.exec(element.tagName);
      if (heading) {
        const text = textOf(element).replace(/\s+/g, ' ').trim();
        const depth = Number(heading[1]);
        const given = typeof element.properties.id === 'string' ? element.properties.id : '';
        // h5 and h6 get an id only when the author gave one, as on the platform.
        const id = given ? headingIds.given(given) : depth <= 4 ? headingIds.fromText(text) : '';
        if (id) {
          element.properties.id = id;
          ids.push(id);
        }
        if (!searched) return;
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
      if (searched && Array.isArray(className) && className.includes(NOT_SEARCHED_CLASS)) {
        searched = false;
        for (const child of element.children) walk(child);
        searched = true;
        return;
      }
    }
    for (const child of node.children) walk(child as ElementContent);
  };
  walk(root);
  const clean = (parts: string[]) => parts.join(' ').replace(/\s+/g, ' ').trim();
  const sectionTexts = sections.map(clean);
  return {
    toc,
    ids,
    text: sectionTexts.filter(Boolean).join(' '),
    sectionTexts,
    classes: [...classes],
    math,
    diagrams,
  };
}
