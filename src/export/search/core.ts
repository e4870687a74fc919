import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';

/**
 * The build-time view of assets/search-core.js. The builder runs the very file the browser runs
 * (in a node:vm context of its own, so Node's global scope is left alone): terms and scores are
 * computed by one implementation on both sides.
 */
export interface SearchCore {
  readonly formatVersion: number;
  readonly metaPath: string;
  /** Index terms of a text, in order: normalized, stemmed, stop words and one-letter words left out. */
  terms(text: string): string[];
  /** Score of one term in one document; arrays are per field: title, headings, body. */
  score(
    tf: readonly number[],
    lengths: readonly number[],
    averages: readonly number[],
    df: number,
    docCount: number,
  ): number;
  stem(word: string): string;
}

export const searchCoreUrl = new URL('./assets/search-core.js', import.meta.url);

let core: SearchCore | undefined;

export function loadSearchCore(): SearchCore {
  if (!core) {
    const sandbox: { DocsnapSearch?: SearchCore } = {};
    runInNewContext(readFileSync(searchCoreUrl, 'utf8'), sandbox, { filename: searchCoreUrl.pathname });
    if (!sandbox.DocsnapSearch) throw new Error(`${searchCoreUrl.pathname} did not define DocsnapSearch`);
    core = sandbox.DocsnapSearch;
  }
  return core;
}
