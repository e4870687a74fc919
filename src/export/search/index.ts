import { createHash } from 'node:crypto';
import { loadSearchCore, type SearchCore } from './core.ts';

/*
 * Index format (all files under _docsnap/search/, each one JS statement `DocsnapSearch.register(key, data)`,
 * because a page opened from file:// may load local data only through <script src>, never fetch/XHR):
 *
 *   meta.js          {"v":1,"build":B,"docs":N,"chunk":K,"shards":[first term of each shard, sorted]}
 *   B/tI.js  key B/tI  {"terms":[sorted],"scales":[per term],"postings":[[docDelta,q,docDelta,q,…],…]}
 *   B/dJ.js  key B/dJ  [[id,href,title,section,[[headingId,text,level],…],[introText,sectionText,…]],…]
 *
 * - meta.js is the only file at a fixed path and stays small (a few KB even for 10,000 pages): it
 *   is all that opening the search dialog loads.
 * - Term shards are contiguous ranges of the sorted vocabulary cut at about `shardBytes`, so a term
 *   lives in exactly one shard (binary search over meta.shards) and a prefix lives in a run of
 *   adjacent shards. Ranges rather than fixed prefixes keep shards even in size whatever the
 *   vocabulary's shape; a very common term simply gets a shard of its own.
 * - Scores are BM25 computed at build time by the shared core (document lengths are known only
 *   then), quantized per term to 1..255 times the term's scale: the browser just adds numbers and
 *   needs no per-document statistics. Documents are renumbered by `id`, so postings are
 *   delta-encoded ascending document numbers and the output does not depend on the order of add().
 * - Display data (title, href, breadcrumb, headings, short section excerpts for snippets) is in
 *   chunks of K documents, loaded only for the results shown.
 * - B is a hash of every shard and chunk: a cached meta.js from an older export can never be
 *   combined with shards of a newer one.
 */

export const SEARCH_INDEX_DIR = '_docsnap/search';

export interface SearchHeading {
  /** The heading's anchor id in the page (without '#'). */
  id: string;
  text: string;
  level: number;
}

export interface SearchDocument {
  /** Unique per site; documents are numbered in the index by ascending id. */
  id: number;
  /** Relative to the site root, e.g. 'quickstart/server.html'. */
  href: string;
  title: string;
  /** Breadcrumb, e.g. 'Documentation › Get Started'. */
  section: string;
  headings: SearchHeading[];
  /** Plain text of the page. */
  text: string;
  /**
   * Optional, for snippets and deep links: the text before the first heading, then the text under
   * each heading in order (headings.length + 1 entries). Without it, the start of `text` is the snippet.
   */
  sectionTexts?: string[];
}

export interface SearchIndexFile {
  /** Relative to the site root. */
  path: string;
  contents: string;
}

export interface SearchIndexOptions {
  /** Target size of one term shard in bytes (default 32 KiB). */
  shardBytes?: number;
  /** Documents per display chunk (default 8). */
  docsPerChunk?: number;
}

/** The browser side: stylesheet and scripts (core first) for every page. */
export const searchAssets: { css: URL[]; js: URL[] } = {
  css: [new URL('./assets/search.css', import.meta.url)],
  js: [new URL('./assets/search-core.js', import.meta.url), new URL('./assets/search.js', import.meta.url)],
};

// Stored excerpts bound the display data to ~2 KB a page whatever the page's size.
const SECTION_EXCERPT = 200;
const MIN_SECTION_EXCERPT = 80;
const PAGE_EXCERPT = 1200;
const INTRO_ONLY_EXCERPT = 600;

// Term frequencies of one document packed into one small integer: title (6 bits), headings (8), body (16).
const MAX_TITLE_TF = 63;
const MAX_HEADING_TF = 255;
const MAX_BODY_TF = 65535;

function excerpt(text: string, max: number): string {
  const t = text.replace(/\s+/g, ' ').trim();
  if (t.length <= max) return t;
  let cut = t.lastIndexOf(' ', max);
  if (cut < max * 0.6) cut = max;
  const code = t.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut--; // never split a surrogate pair
  return `${t.slice(0, cut)}…`;
}

function countInto(counts: Map<string, number>, terms: string[], shift: number, max: number): void {
  const unit = 2 ** shift;
  for (const term of terms) {
    const packed = counts.get(term) ?? 0;
    if (Math.floor(packed / unit) % (max + 1) < max) counts.set(term, packed + unit);
  }
}

/** Indexing that is known to be in range (noUncheckedIndexedAccess). */
function num(values: ArrayLike<number>, index: number): number {
  return values[index] as number;
}

function register(key: string, data: string): string {
  return `DocsnapSearch.register(${JSON.stringify(key)},${data});\n`;
}

/**
 * Collects pages one at a time and writes the search index. Memory holds postings (two numbers per
 * distinct term per page) and short excerpts, never a page's full text.
 */
export class SearchIndexBuilder {
  readonly #core: SearchCore;
  readonly #shardBytes: number;
  readonly #docsPerChunk: number;
  /** Per slot (order of add): the caller's id, then the three field lengths, then the display record. */
  readonly #ids: number[] = [];
  readonly #lengths: number[] = [];
  readonly #records: string[] = [];
  readonly #hrefs = new Map<number, string>();
  /** term → [slot, packed tf, slot, packed tf, …] */
  readonly #postings = new Map<string, number[]>();

  constructor(options: SearchIndexOptions = {}) {
    this.#core = loadSearchCore();
    this.#shardBytes = options.shardBytes ?? 32 * 1024;
    this.#docsPerChunk = options.docsPerChunk ?? 8;
    if (!(this.#shardBytes > 0))
      throw new Error(`search index: shardBytes must be positive, got ${options.shardBytes}`);
    if (!Number.isInteger(this.#docsPerChunk) || this.#docsPerChunk < 1) {
      throw new Error(`search index: docsPerChunk must be a positive integer, got ${options.docsPerChunk}`);
    }
  }

  get size(): number {
    return this.#ids.length;
  }

  add(doc: SearchDocument): void {
    const where = `search index: page ${JSON.stringify(doc.href)}`;
    if (!Number.isSafeInteger(doc.id)) throw new Error(`${where}: id must be an integer, got ${doc.id}`);
    const other = this.#hrefs.get(doc.id);
    if (other !== undefined)
      throw new Error(`${where}: id ${doc.id} is already used by ${JSON.stringify(other)}`);
    if (!doc.href || doc.href.startsWith('/') || /^[a-z][a-z0-9+.-]*:/i.test(doc.href)) {
      throw new Error(`${where}: href must be a path relative to the site root`);
    }
    if (doc.sectionTexts && doc.sectionTexts.length !== doc.headings.length + 1) {
      throw new Error(
        `${where}: sectionTexts has ${doc.sectionTexts.length} entries, expected headings.length + 1 = ${doc.headings.length + 1}`,
      );
    }

    const core = this.#core;
    const title = core.terms(doc.title);
    const headings = doc.headings.flatMap((h) => core.terms(h.text));
    const body = core.terms(doc.text);
    const counts = new Map<string, number>();
    countInto(counts, body, 0, MAX_BODY_TF);
    countInto(counts, headings, 16, MAX_HEADING_TF);
    countInto(counts, title, 24, MAX_TITLE_TF);

    const slot = this.#ids.length;
    for (const [term, packed] of counts) {
      const list = this.#postings.get(term);
      if (list) list.push(slot, packed);
      else this.#postings.set(term, [slot, packed]);
    }
    this.#ids.push(doc.id);
    this.#hrefs.set(doc.id, doc.href);
    this.#lengths.push(title.length, headings.length, body.length);

    let texts: string[];
    if (doc.sectionTexts) {
      const each = Math.max(
        MIN_SECTION_EXCERPT,
        Math.min(SECTION_EXCERPT, Math.floor(PAGE_EXCERPT / doc.sectionTexts.length)),
      );
      texts = doc.sectionTexts.map((t) => excerpt(t, each));
    } else {
      texts = [excerpt(doc.text, INTRO_ONLY_EXCERPT)];
    }
    while (texts.length > 1 && texts[texts.length - 1] === '') texts.pop();
    this.#records.push(
      JSON.stringify([
        doc.id,
        doc.href,
        doc.title.replace(/\s+/g, ' ').trim(),
        doc.section,
        doc.headings.map((h) => [h.id, h.text.replace(/\s+/g, ' ').trim(), h.level]),
        texts,
      ]),
    );
  }

  /**
   * The index's files. `scope` ("fr/") puts its meta.js in a folder of its own, for a site with one
   * index per language; pages name theirs in `data-search-scope`.
   */
  files(scope = ''): SearchIndexFile[] {
    const core = this.#core;
    const n = this.#ids.length;
    const ids = this.#ids;
    const order = Array.from({ length: n }, (_, slot) => slot).sort((a, b) => num(ids, a) - num(ids, b));
    const rank = new Int32Array(n);
    order.forEach((slot, r) => {
      rank[slot] = r;
    });
    const lengths = this.#lengths;
    const averages = [0, 0, 0];
    for (let i = 0; i < lengths.length; i++) averages[i % 3] = num(averages, i % 3) + num(lengths, i);
    for (let f = 0; f < 3; f++) averages[f] = Math.max(1, num(averages, f) / Math.max(1, n));

    // Term shards.
    const shardData: string[] = [];
    const firstTerms: string[] = [];
    let termsJson: string[] = [];
    let scalesJson: string[] = [];
    let postingsJson: string[] = [];
    let bytes = 0;
    const flush = (): void => {
      if (!termsJson.length) return;
      shardData.push(
        `{"terms":[${termsJson.join(',')}],"scales":[${scalesJson.join(',')}],"postings":[${postingsJson.join(',')}]}`,
      );
      termsJson = [];
      scalesJson = [];
      postingsJson = [];
      bytes = 0;
    };

    const tf = [0, 0, 0];
    const len = [0, 0, 0];
    const terms = [...this.#postings.keys()].sort();
    for (const term of terms) {
      const list = this.#postings.get(term) as number[];
      const df = list.length / 2;
      // Posting k: document number, slot and packed term frequencies, ordered by document number.
      const byDoc = Array.from({ length: df }, (_, k) => k).sort(
        (a, b) => num(rank, num(list, 2 * a)) - num(rank, num(list, 2 * b)),
      );
      const raw = new Float64Array(df);
      let max = 0;
      byDoc.forEach((k, i) => {
        const slot = num(list, 2 * k);
        const packed = num(list, 2 * k + 1);
        tf[0] = Math.floor(packed / 2 ** 24);
        tf[1] = Math.floor(packed / 2 ** 16) % 256;
        tf[2] = packed % 2 ** 16;
        len[0] = num(lengths, 3 * slot);
        len[1] = num(lengths, 3 * slot + 1);
        len[2] = num(lengths, 3 * slot + 2);
        const s = core.score(tf, len, averages, df, n);
        raw[i] = s;
        if (s > max) max = s;
      });
      const scale = max > 0 ? Number((max / 255).toPrecision(4)) : 1;
      const encoded: number[] = [];
      let previous = 0;
      byDoc.forEach((k, i) => {
        const doc = num(rank, num(list, 2 * k));
        encoded.push(doc - previous, Math.min(255, Math.max(1, Math.round(num(raw, i) / scale))));
        previous = doc;
      });
      const termJson = JSON.stringify(term);
      const postingJson = `[${encoded.join(',')}]`;
      const size = termJson.length + postingJson.length + 12;
      if (bytes > 0 && bytes + size > this.#shardBytes) flush();
      if (!termsJson.length) firstTerms.push(term);
      termsJson.push(termJson);
      scalesJson.push(String(scale));
      postingsJson.push(postingJson);
      bytes += size;
    }
    flush();

    // Display chunks, in document order.
    const chunkData: string[] = [];
    const k = this.#docsPerChunk;
    for (let start = 0; start < n; start += k) {
      chunkData.push(
        `[${order
          .slice(start, start + k)
          .map((slot) => this.#records[slot])
          .join(',')}]`,
      );
    }

    const hash = createHash('sha256');
    shardData.forEach((data, i) => {
      hash.update(`t${i}\n${data}\n`);
    });
    chunkData.forEach((data, i) => {
      hash.update(`d${i}\n${data}\n`);
    });
    const build = hash.digest('hex').slice(0, 12);

    const meta = JSON.stringify({ v: core.formatVersion, build, docs: n, chunk: k, shards: firstTerms });
    const files: SearchIndexFile[] = [
      { path: `${SEARCH_INDEX_DIR}/${scope}meta.js`, contents: register(`${scope}meta`, meta) },
    ];
    shardData.forEach((data, i) => {
      files.push({
        path: `${SEARCH_INDEX_DIR}/${build}/t${i}.js`,
        contents: register(`${build}/t${i}`, data),
      });
    });
    chunkData.forEach((data, i) => {
      files.push({
        path: `${SEARCH_INDEX_DIR}/${build}/d${i}.js`,
        contents: register(`${build}/d${i}`, data),
      });
    });
    return files;
  }
}
