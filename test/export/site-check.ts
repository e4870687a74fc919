import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import type { Element } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { visit } from 'unist-util-visit';

/** What a crawl of an exported site found wrong. */
export interface SiteCheck {
  pages: number;
  /** Internal links whose file or #anchor does not exist: "from.html → href". */
  brokenLinks: string[];
  /** Resources loaded from another origin: "page.html: <img src=…>". */
  externalLoads: string[];
}

const LOADS: Record<string, string[]> = {
  img: ['src', 'srcSet'],
  script: ['src'],
  link: ['href'],
  iframe: ['src'],
  video: ['src', 'poster'],
  audio: ['src'],
  source: ['src', 'srcSet'],
  track: ['src'],
  embed: ['src'],
  object: ['data'],
  image: ['href'],
  use: ['href'],
};

const external = (url: string) => /^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('//');

function listFiles(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    return entry.isDirectory() ? listFiles(dir, path) : [path];
  });
}

/**
 * Crawls every HTML file of an exported site, as a link checker would: each internal link must
 * reach an existing file and, with a #fragment, an element with that id; and (for air-gapped
 * sites) nothing may load from another origin — elements, inline styles or the stylesheets.
 */
export function checkSite(dir: string): SiteCheck {
  const files = listFiles(dir);
  const fileSet = new Set(files);
  const ids = new Map<string, Set<string>>();
  const trees = new Map<string, ReturnType<typeof fromHtml>>();
  for (const file of files.filter((f) => f.endsWith('.html'))) {
    const tree = fromHtml(readFileSync(join(dir, file), 'utf8'));
    trees.set(file, tree);
    const set = new Set<string>();
    visit(tree, 'element', (node: Element) => {
      if (typeof node.properties.id === 'string') set.add(node.properties.id);
    });
    ids.set(file, set);
  }
  const brokenLinks: string[] = [];
  const externalLoads: string[] = [];
  for (const [file, tree] of trees) {
    // 404.html is served in place of any missing path, at any depth: its links are root-relative
    // or absolute by design and are not part of the site's link graph.
    const linksChecked = file !== '404.html';
    visit(tree, 'element', (node: Element) => {
      for (const attribute of LOADS[node.tagName] ?? []) {
        const value = node.properties[attribute];
        if (typeof value !== 'string') continue;
        // <link rel=canonical> names a URL without loading it.
        if (node.tagName === 'link' && String(node.properties.rel ?? '').includes('canonical')) continue;
        for (const candidate of value.split(',').map((part) => part.trim().split(/\s+/)[0] ?? '')) {
          if (external(candidate) && !candidate.startsWith('data:'))
            externalLoads.push(`${file}: <${node.tagName} ${attribute}=${candidate}>`);
        }
      }
      const style = node.properties.style;
      if (typeof style === 'string' && /url\(\s*['"]?(https?:|\/\/)/i.test(style))
        externalLoads.push(`${file}: style ${style}`);
      if (node.tagName === 'style') externalLoads.push(...cssLoads(file, JSON.stringify(node.children)));
      if (!linksChecked || node.tagName !== 'a' || typeof node.properties.href !== 'string') return;
      const href = node.properties.href;
      if (external(href)) return;
      const [path = '', hash] = href.split('#');
      const target = path === '' ? file : posix.normalize(posix.join(dirname(file), decodeURI(path)));
      if (!fileSet.has(target)) {
        brokenLinks.push(`${file} → ${href}`);
        return;
      }
      if (hash && target.endsWith('.html') && !ids.get(target)?.has(decodeURIComponent(hash)))
        brokenLinks.push(`${file} → ${href} (no #${hash})`);
    });
  }
  for (const css of files.filter((f) => f.endsWith('.css')))
    externalLoads.push(...cssLoads(css, readFileSync(join(dir, css), 'utf8')));
  return { pages: trees.size, brokenLinks, externalLoads };
}

function cssLoads(file: string, css: string): string[] {
  const found: string[] = [];
  for (const match of css.matchAll(/url\(\s*['"]?((?:https?:)?\/\/[^'")\s]+)/gi))
    found.push(`${file}: url(${match[1]})`);
  for (const match of css.matchAll(/@import\s+(?:url\()?\s*['"]?((?:https?:)?\/\/[^'")\s;]+)/gi))
    found.push(`${file}: @import ${match[1]}`);
  return found;
}
