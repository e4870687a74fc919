/*
 * docsnap search core: tokenizer, stemmer, scoring and query engine.
 *
 * One file shared by the index builder (Node, evaluated with node:vm) and the browser (a plain
 * <script>), so both sides always agree on what a term is and how it scores. No DOM and no I/O:
 * index files are JS statements that call DocsnapSearch.register(); the caller supplies `load`,
 * which runs one file (a <script src> in the browser, because file:// forbids fetch/XHR).
 */
(() => {
  const root = globalThis;
  if (root.DocsnapSearch?.createSearcher) return;

  const FORMAT = 1;
  const BASE = '_docsnap/search/';
  const META_PATH = `${BASE}meta.js`;

  // Per-field BM25, each field saturated on its own and then weighted: a single title hit always
  // outscores any number of body hits for the same term (5 × ~0.85 > 2.2, body's ceiling).
  const WEIGHTS = [5, 2.5, 1]; // title, headings, body
  const B = [0.5, 0.5, 0.75];
  const K1 = 1.2;

  // Prefix expansion of the last word is skipped when its range spans more shards than this:
  // "c" on a large site would otherwise pull in a large part of the index.
  const MAX_PREFIX_SHARDS = 12;
  const MAX_TERM_LENGTH = 40;

  const STOP_WORDS = new Set(
    (
      'a an and are as at be but by can do does for from has have how if in into is it its of on or our ' +
      'so than that the their then there these they this to was we were what when where which who why will ' +
      'with you your'
    ).split(' '),
  );

  // Scripts written without spaces between words are indexed as overlapping character bigrams.
  const UNSPACED =
    '\\p{scx=Han}\\p{scx=Hiragana}\\p{scx=Katakana}\\p{scx=Thai}\\p{scx=Lao}\\p{scx=Khmer}\\p{scx=Mymr}';
  const WORD = /[\p{L}\p{N}\p{M}]+(?:['’][\p{L}\p{N}\p{M}]+)*/gu;
  const HAS_UNSPACED = new RegExp(`[${UNSPACED}]`, 'u');
  const UNSPACED_SPLIT = new RegExp(`[${UNSPACED}]+|[^${UNSPACED}]+`, 'gu');
  const ENDS_IN_WORD = /[\p{L}\p{N}\p{M}]$/u;

  /** Lowercase, drop apostrophes, fold Latin and Greek diacritics (café → cafe) without touching other scripts' marks. */
  function normalize(word) {
    let s = word.toLowerCase().replace(/['’]/g, '');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: ASCII fast path
    if (/[^\u0000-\u007f]/.test(s)) {
      // Only on Latin and Greek letters: in Cyrillic, й is a letter of its own, not и with a breve.
      s = s
        .normalize('NFKD')
        .replace(/([\p{sc=Latin}\p{sc=Greek}])[\u0300-\u036f]+/gu, '$1')
        .normalize('NFC');
    }
    return s;
  }

  /**
   * A light English stemmer (plurals, -ed, -ing, y→i, final e), applied to ASCII words only.
   * Stems are internal keys, never shown: configure, configured, configuring → configur.
   */
  function stem(word) {
    if (word.length < 3 || !/^[a-z]+$/.test(word)) return word;
    let s = word;
    if (s.endsWith('sses')) s = s.slice(0, -2);
    else if (s.endsWith('ies')) s = s.slice(0, -2);
    else if (s.endsWith('ss') || s.endsWith('us') || (s.endsWith('is') && s.length > 4)) {
      // class, status, analysis: not plurals
    } else if (s.endsWith('s')) s = s.slice(0, -1);
    if (s.length < 4) return s;
    const suffix = s.endsWith('ing') ? 3 : s.endsWith('ed') && !s.endsWith('eed') ? 2 : 0;
    if (suffix) {
      const base = s.slice(0, -suffix);
      if (base.length >= 2 && /[aeiouy]/.test(base)) {
        s = base;
        if (/([^aeiouylsz])\1$/.test(s)) s = s.slice(0, -1); // running → run, but install stays
      }
    }
    if (s.length > 2 && /[^aeiou]y$/.test(s)) s = `${s.slice(0, -1)}i`;
    if (s.length > 2 && s.endsWith('e')) s = s.slice(0, -1);
    return s;
  }

  const wordCache = new Map();
  function analyse(raw) {
    let hit = wordCache.get(raw);
    if (hit === undefined) {
      const word = normalize(raw);
      const stop = STOP_WORDS.has(word);
      hit = { word, term: stop ? word : stem(word), stop, short: word.length < 2 };
      if (wordCache.size > 50000) wordCache.clear();
      wordCache.set(raw, hit);
    }
    return hit;
  }

  /**
   * Every token of `text`, with UTF-16 offsets into it: { term, word, start, end, stop, short, single }.
   * `single` marks a lone character of an unspaced script (searched as a prefix of its bigrams).
   */
  function spans(text) {
    const out = [];
    for (const m of String(text).matchAll(WORD)) {
      const raw = m[0];
      if (!HAS_UNSPACED.test(raw)) {
        if (raw.length <= MAX_TERM_LENGTH) {
          const a = analyse(raw);
          out.push({
            term: a.term,
            word: a.word,
            start: m.index,
            end: m.index + raw.length,
            stop: a.stop,
            short: a.short,
            single: false,
          });
        }
        continue;
      }
      for (const part of raw.matchAll(UNSPACED_SPLIT)) {
        const start = m.index + part.index;
        const piece = part[0];
        if (!HAS_UNSPACED.test(piece)) {
          const a = analyse(piece);
          out.push({
            term: a.term,
            word: a.word,
            start,
            end: start + piece.length,
            stop: a.stop,
            short: a.short,
            single: false,
          });
          continue;
        }
        const chars = Array.from(piece);
        if (chars.length === 1) {
          const w = normalize(piece);
          out.push({
            term: w,
            word: w,
            start,
            end: start + piece.length,
            stop: false,
            short: false,
            single: true,
          });
          continue;
        }
        let at = start;
        for (let i = 0; i + 1 < chars.length; i++) {
          const bigram = chars[i] + chars[i + 1];
          const w = normalize(bigram);
          out.push({
            term: w,
            word: w,
            start: at,
            end: at + bigram.length,
            stop: false,
            short: false,
            single: false,
          });
          at += chars[i].length;
        }
      }
    }
    return out;
  }

  /** The index terms of a text, in order (stop words and one-letter words left out). */
  function terms(text) {
    // The builder's hot path: same tokens as spans(), without an object per token.
    const out = [];
    for (const m of String(text).matchAll(WORD)) {
      const raw = m[0];
      if (HAS_UNSPACED.test(raw)) {
        for (const s of spans(raw)) if (!s.stop && !s.short) out.push(s.term);
      } else if (raw.length <= MAX_TERM_LENGTH) {
        const a = analyse(raw);
        if (!a.stop && !a.short) out.push(a.term);
      }
    }
    return out;
  }

  function idf(df, docCount) {
    return Math.log(1 + (docCount - df + 0.5) / (df + 0.5));
  }

  /** Score of one term in one document: tf, lengths and average lengths per field (title, headings, body). */
  function score(tf, lengths, averages, df, docCount) {
    let sum = 0;
    for (let f = 0; f < 3; f++) {
      const t = tf[f];
      if (!t) continue;
      const norm = 1 - B[f] + (B[f] * lengths[f]) / (averages[f] || 1);
      sum += (WEIGHTS[f] * (t * (K1 + 1))) / (t + K1 * norm);
    }
    return idf(df, docCount) * sum;
  }

  const registry = new Map();
  /** Called by every index file: `DocsnapSearch.register('<build>/t3', {...})`. */
  function register(key, data) {
    registry.set(String(key), data);
  }

  /** The last word being typed may be a stem plus an unfinished suffix: "configuri", "runnin", "querie". */
  const SUFFIXES = ['s', 'es', 'ed', 'ing', 'e'];
  function partialBases(word) {
    const out = [];
    if (!/^[a-z]+$/.test(word)) return out;
    for (let k = word.length - 1; k >= Math.max(3, word.length - 4); k--) {
      const base = word.slice(0, k);
      const rest = word.slice(k);
      let ok = SUFFIXES.some((s) => s.startsWith(rest));
      if (!ok && rest[0] === base[base.length - 1])
        ok = ['ed', 'ing'].some((s) => s.startsWith(rest.slice(1)));
      if (ok) {
        out.push(base);
        if (base.endsWith('y')) out.push(`${base.slice(0, -1)}i`);
      }
    }
    return out;
  }

  /** Query → term groups; every group that is not optional must match (AND). */
  function parseQuery(query) {
    const q = String(query);
    const all = spans(q);
    const typing = ENDS_IN_WORD.test(q);
    const groups = [];
    const seen = new Set();
    all.forEach((s, i) => {
      const last = typing && i === all.length - 1;
      if ((s.stop || s.short) && !last) return;
      const prefix = last || s.single;
      // A stop word being typed may be the start of a real word ("to" → token): optional.
      const group = { word: s.word, term: s.term, prefix, optional: s.stop };
      const key = `${group.term}\u0000${prefix}`;
      if (seen.has(key)) return;
      seen.add(key);
      groups.push(group);
    });
    return groups;
  }

  function lowerBound(sorted, value) {
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (sorted[mid] < value) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  function mergeParts(text, ranges) {
    const parts = [];
    let at = 0;
    for (const [start, end] of ranges) {
      if (end <= at) continue;
      const s = Math.max(start, at);
      if (s > at) parts.push({ text: text.slice(at, s), hit: false });
      const last = parts[parts.length - 1];
      if (last?.hit && s === at) last.text += text.slice(s, end);
      else parts.push({ text: text.slice(s, end), hit: true });
      at = end;
    }
    if (at < text.length) parts.push({ text: text.slice(at), hit: false });
    return parts;
  }

  /**
   * A query engine over one exported index. `load(path)` runs the index file at `path` (relative to
   * the site root) and resolves once it has run; each file is requested at most once.
   */
  function createSearcher(options) {
    const load = options.load;
    // A site in several languages has one index per language, each in its own folder ("fr/").
    const metaPath = `${BASE}${options.scope ?? ''}meta.js`;
    const pending = new Map();
    let metaPromise;

    function file(path) {
      let p = pending.get(path);
      if (!p) {
        const key = path.slice(BASE.length, -'.js'.length);
        p = Promise.resolve()
          .then(() => load(path))
          .then(() => {
            const data = registry.get(key);
            if (data === undefined) throw new Error(`search index file ${path} did not register "${key}"`);
            return data;
          });
        // A failed file may be retried by a later query (the network or disk may come back).
        p.catch(() => pending.delete(path));
        pending.set(path, p);
      }
      return p;
    }

    function meta() {
      if (!metaPromise) {
        metaPromise = file(metaPath).then((m) => {
          if (!m || m.v !== FORMAT)
            throw new Error(`search index format ${m?.v} is not ${FORMAT}; reload the page`);
          return m;
        });
        metaPromise.catch(() => {
          metaPromise = undefined;
        });
      }
      return metaPromise;
    }

    const shardPath = (m, i) => `${BASE}${m.build}/t${i}.js`;
    const chunkPath = (m, i) => `${BASE}${m.build}/d${i}.js`;

    /** The shard that would hold `term`, or -1 if it sorts before every term. */
    function shardOf(m, term) {
      const i = lowerBound(m.shards, term);
      return m.shards[i] === term ? i : i - 1;
    }

    /** Shards that may hold terms starting with `prefix`. */
    function rangeShards(m, prefix) {
      const out = [];
      for (let i = Math.max(0, shardOf(m, prefix)); i < m.shards.length; i++) {
        if (out.length && !m.shards[i].startsWith(prefix)) break;
        out.push(i);
      }
      return out;
    }

    function plan(m, groups) {
      const needed = new Set();
      let narrowed = false;
      for (const g of groups) {
        g.exact = [[g.term, 1]];
        g.ranges = [];
        if (g.prefix) {
          for (const base of partialBases(g.word)) g.exact.push([base, 0.95]);
          for (const p of new Set([g.word, g.term])) {
            const shards = rangeShards(m, p);
            if (shards.length > MAX_PREFIX_SHARDS) narrowed = true;
            else g.ranges.push([p, shards]);
          }
        }
        for (const [t] of g.exact) {
          const i = shardOf(m, t);
          if (i >= 0) needed.add(i);
        }
        for (const [, shards] of g.ranges) for (const i of shards) needed.add(i);
      }
      return { shards: [...needed].sort((a, b) => a - b), narrowed };
    }

    // Adds the term's field part (its score without its own idf) to the group's best per document.
    function addPostings(m, scores, shard, index, factor) {
      const list = shard.postings[index];
      const scale = (shard.scales[index] * factor) / (idf(list.length / 2, m.docs) || 1);
      let doc = 0;
      for (let i = 0; i < list.length; i += 2) {
        doc += list[i];
        const s = list[i + 1] * scale;
        const prev = scores.get(doc);
        if (prev === undefined || s > prev) scores.set(doc, s);
      }
    }

    /**
     * Scores of one group: each document's best matching term, weighted by how exactly it matches,
     * times the idf of the group as a whole. Treating a prefix as one term keeps rare completions
     * (the prefix "webhook" of an identifier "webhookclient") from outranking the word itself.
     */
    function match(m, shards, g) {
      const scores = new Map();
      g.matched = new Set();
      for (const [t, factor] of g.exact) {
        const shard = shards.get(shardOf(m, t));
        if (!shard) continue;
        const i = lowerBound(shard.terms, t);
        if (shard.terms[i] !== t) continue;
        g.matched.add(t);
        addPostings(m, scores, shard, i, factor);
      }
      for (const [p, list] of g.ranges) {
        for (const si of list) {
          const shard = shards.get(si);
          for (
            let i = lowerBound(shard.terms, p);
            i < shard.terms.length && shard.terms[i].startsWith(p);
            i++
          ) {
            const t = shard.terms[i];
            g.matched.add(t);
            addPostings(m, scores, shard, i, t === g.term ? 1 : 0.5 + (0.5 * p.length) / t.length);
          }
        }
      }
      const weight = idf(scores.size, m.docs);
      for (const [doc, s] of scores) scores.set(doc, s * weight);
      return scores;
    }

    function hits(g, span) {
      if (span.stop || span.short) return false;
      if (g.matched.has(span.term)) return true;
      return g.prefix && (span.word.startsWith(g.word) || span.term.startsWith(g.term));
    }

    function highlight(groups, text) {
      const list = spans(text);
      const ranges = [];
      const found = new Set();
      for (const s of list) {
        for (const g of groups) {
          if (hits(g, s)) {
            ranges.push([s.start, s.end]);
            found.add(g);
          }
        }
      }
      return { ranges, count: found.size };
    }

    function snippet(text, ranges, width) {
      if (!text) return [];
      let start = 0;
      if (ranges.length) {
        start = Math.max(0, ranges[0][0] - Math.floor(width / 3));
        if (start > 0) {
          const space = text.indexOf(' ', start);
          if (space >= 0 && space < ranges[0][0]) start = space + 1;
        }
      }
      let end = Math.min(text.length, start + width);
      if (end < text.length) {
        const space = text.lastIndexOf(' ', end);
        if (space > start + width / 2) end = space;
      }
      const inside = ranges
        .filter(([s, e]) => s >= start && e <= end)
        .map(([s, e]) => [s - start, e - start]);
      const parts = mergeParts(text.slice(start, end), inside);
      if (start > 0) parts.unshift({ text: '…', hit: false });
      if (end < text.length && !text.slice(0, end).endsWith('…')) parts.push({ text: '…', hit: false });
      return parts;
    }

    function describe(groups, record, docIndex, score, width) {
      const [id, href, title, section, headings, texts] = record;
      // Pick the part of the page that matches best: a heading hit counts double; the page intro wins ties.
      const intro = highlight(groups, texts[0] || '');
      const titleHits = highlight(groups, title);
      // A title that matches every word makes the page itself the answer, not one of its sections.
      const wholeTitle = titleHits.count >= groups.filter((g) => !g.optional).length;
      let best = {
        index: -1,
        score: intro.count,
        text: texts[0] || '',
        ranges: intro.ranges,
        headingRanges: [],
      };
      headings.forEach((h, i) => {
        if (wholeTitle) return;
        const head = highlight(groups, h[1]);
        const body = highlight(groups, texts[i + 1] || '');
        const s = 2 * head.count + body.count;
        if (s > best.score && (head.count > 0 || body.count > intro.count)) {
          best = {
            index: i,
            score: s,
            text: texts[i + 1] || '',
            ranges: body.ranges,
            headingRanges: head.ranges,
          };
        }
      });
      const heading = best.index >= 0 ? headings[best.index] : null;
      return {
        id,
        doc: docIndex,
        score,
        href,
        url: heading ? `${href}#${heading[0]}` : href,
        title,
        titleParts: mergeParts(title, titleHits.ranges),
        section,
        heading: heading ? { id: heading[0], text: heading[1], level: heading[2] } : null,
        headingParts: heading ? mergeParts(heading[1], best.headingRanges) : [],
        snippet: snippet(best.text, best.ranges, width),
      };
    }

    /**
     * Runs a query: resolves to { query, total, results, narrowed }, results best first, each
     * { id, href, url (with #heading for heading hits), title, titleParts, section, heading,
     * headingParts, snippet } where *Parts are [{ text, hit }] for highlighting.
     */
    async function search(query, opts) {
      const limit = opts?.limit ?? 20;
      const width = opts?.snippetLength ?? 160;
      const m = await meta();
      const groups = parseQuery(query);
      const required = groups.filter((g) => !g.optional);
      if (!required.length) return { query, total: 0, results: [], narrowed: false };
      const { shards: shardIds, narrowed } = plan(m, groups);
      const loaded = await Promise.all(shardIds.map((i) => file(shardPath(m, i))));
      const shards = new Map(shardIds.map((id, k) => [id, loaded[k]]));

      const requiredScores = required.map((g) => match(m, shards, g)).sort((a, b) => a.size - b.size);
      const optionalScores = groups.filter((g) => g.optional).map((g) => match(m, shards, g));
      const ranked = [];
      for (const [doc, first] of requiredScores[0] ?? []) {
        let total = first;
        let all = true;
        for (let k = 1; k < requiredScores.length && all; k++) {
          const s = requiredScores[k].get(doc);
          if (s === undefined) all = false;
          else total += s;
        }
        if (!all) continue;
        for (const o of optionalScores) total += o.get(doc) ?? 0;
        ranked.push([doc, total]);
      }
      ranked.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
      const top = ranked.slice(0, limit);
      const chunks = [...new Set(top.map(([doc]) => Math.floor(doc / m.chunk)))];
      const data = await Promise.all(chunks.map((c) => file(chunkPath(m, c))));
      const byChunk = new Map(chunks.map((c, k) => [c, data[k]]));
      const results = top.map(([doc, s]) =>
        describe(groups, byChunk.get(Math.floor(doc / m.chunk))[doc % m.chunk], doc, s, width),
      );
      return { query, total: ranked.length, results, narrowed };
    }

    return { search, meta };
  }

  root.DocsnapSearch = {
    formatVersion: FORMAT,
    metaPath: META_PATH,
    normalize,
    stem,
    spans,
    terms,
    score,
    parseQuery,
    register,
    createSearcher,
  };
})();
