import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { SearchDocument } from '../../../src/export/search/index.ts';

/**
 * A rough MDX → SearchDocument conversion for the generated corpus (the real one comes from the
 * renderer): frontmatter title, `##` headings with slug ids, text with markup and tags removed.
 */

function listPages(dir: string, root = dir): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'snippets') out.push(...listPages(path, root));
    } else if (entry.name.endsWith('.mdx')) {
      out.push(relative(root, path));
    }
  }
  return out.sort();
}

function plain(line: string): string {
  return line
    .replace(/\btitle="([^"]*)"/g, ' $1 ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*|#]/g, ' ')
    .replace(/^-+$/, '');
}

const slug = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-|-$/g, '');

export function toDocument(id: number, path: string, source: string): SearchDocument {
  const lines = source.split('\n');
  let title = path;
  let i = 0;
  if (lines[0] === '---') {
    for (i = 1; i < lines.length && lines[i] !== '---'; i++) {
      const m = /^title:\s*(.*)$/.exec(lines[i] ?? '');
      if (m?.[1]) title = m[1].startsWith('"') ? (JSON.parse(m[1]) as string) : m[1];
    }
    i++;
  }
  const headings: SearchDocument['headings'] = [];
  const sections: string[][] = [[]];
  for (; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const h = /^(#{2,4})\s+(.*)$/.exec(line);
    if (h?.[1] && h[2]) {
      headings.push({ id: slug(h[2]), text: h[2], level: h[1].length });
      sections.push([]);
    } else if (!line.startsWith('```')) {
      sections[sections.length - 1]?.push(plain(line));
    }
  }
  const sectionTexts = sections.map((s) => s.join(' ').replace(/\s+/g, ' ').trim());
  const [tab, group] = path.split('/');
  return {
    id,
    href: path.replace(/\.mdx$/, '.html'),
    title,
    section: `Synthetic Docs › ${tab} › ${group}`,
    headings,
    text: [...headings.map((h) => h.text), ...sectionTexts].join(' '),
    sectionTexts,
  };
}

/** The corpus's pages one at a time, so that only the builder holds memory. */
export function* syntheticDocuments(dir: string): Generator<SearchDocument> {
  let id = 0;
  for (const path of listPages(dir)) yield toDocument(id++, path, readFileSync(join(dir, path), 'utf8'));
}
