import { readFileSync } from 'node:fs';
import vm from 'node:vm';
import type { SearchIndexFile } from '../../../src/export/search/index.ts';

/** Loads the index the way a page does: the shared core in a global scope, then one index file per request. */

export const coreUrl = new URL('../../../src/export/search/assets/search-core.js', import.meta.url);

export interface Part {
  text: string;
  hit: boolean;
}

export interface Result {
  id: number;
  doc: number;
  score: number;
  href: string;
  url: string;
  title: string;
  titleParts: Part[];
  section: string;
  heading: { id: string; text: string; level: number } | null;
  headingParts: Part[];
  snippet: Part[];
}

export interface Response {
  query: string;
  total: number;
  results: Result[];
  narrowed: boolean;
}

interface Searcher {
  search(query: string, options?: { limit?: number; snippetLength?: number }): Promise<Response>;
}

export interface BrowserCore {
  terms(text: string): string[];
  stem(word: string): string;
  normalize(word: string): string;
  parseQuery(query: string): { word: string; term: string; prefix: boolean; optional: boolean }[];
  createSearcher(options: { load(path: string): Promise<void> }): Searcher;
}

export interface OpenIndex {
  core: BrowserCore;
  /** Paths requested so far, in order (each at most once). */
  requested: string[];
  search(query: string, options?: { limit?: number }): Promise<Response>;
}

/** A fresh global scope per index, as a fresh page would have; the core comes from the asset file itself. */
export function openIndex(files: SearchIndexFile[]): OpenIndex {
  const byPath = new Map(files.map((f) => [f.path, f.contents]));
  const context = vm.createContext({});
  vm.runInContext(readFileSync(coreUrl, 'utf8'), context, { filename: 'search-core.js' });
  const core = (context as { DocsnapSearch: BrowserCore }).DocsnapSearch;
  const requested: string[] = [];
  const searcher = core.createSearcher({
    async load(path) {
      requested.push(path);
      const contents = byPath.get(path);
      if (contents === undefined) throw new Error(`404 ${path}`);
      vm.runInContext(contents, context, { filename: path });
    },
  });
  return {
    core,
    requested,
    // Results come from another realm: copy them into this one so that equality checks compare plain data.
    search: async (query, options) =>
      JSON.parse(JSON.stringify(await searcher.search(query, options))) as Response,
  };
}

/** Snippet or title parts as text with hits in [brackets], for readable assertions. */
export function marked(parts: Part[]): string {
  return parts.map((p) => (p.hit ? `[${p.text}]` : p.text)).join('');
}
