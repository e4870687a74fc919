import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SearchIndexBuilder, type SearchIndexFile } from '../../../src/export/search/index.ts';
import { writeSyntheticSite } from '../../../tools/synthetic-site.ts';
import { openIndex } from './harness.ts';
import { syntheticDocuments } from './synthetic-site.ts';

const PAGES = 10_000;

// A collectable heap makes "memory held by the builder" a measurement rather than a guess.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heapUsed = (): number => {
  gc();
  return process.memoryUsage().heapUsed;
};

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

describe(`a ${PAGES.toLocaleString('en')}-page site`, () => {
  let dir = '';
  let files: SearchIndexFile[] = [];
  let heldByBuilder = 0;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'docsnap-search-'));
    writeSyntheticSite(dir, { pages: PAGES, seed: 7 });
    const before = heapUsed();
    const started = performance.now();
    const builder = new SearchIndexBuilder();
    let textBytes = 0;
    for (const doc of syntheticDocuments(dir)) {
      textBytes += Buffer.byteLength(doc.text);
      builder.add(doc);
    }
    const added = performance.now();
    heldByBuilder = heapUsed() - before;
    const filesStarted = performance.now();
    files = builder.files();
    const done = performance.now();

    const sizes = files.map((f) => ({ path: f.path, bytes: Buffer.byteLength(f.contents) }));
    const total = sizes.reduce((sum, f) => sum + f.bytes, 0);
    const sum = (re: RegExp) => sizes.filter((f) => re.test(f.path)).reduce((s, f) => s + f.bytes, 0);
    const largest = sizes.reduce((a, b) => (b.bytes > a.bytes ? b : a));
    console.log(
      [
        `search index for ${builder.size} pages (${mb(textBytes)} of text):`,
        `  files ${files.length}: meta ${sizes[0]?.bytes} B, ${sizes.filter((f) => /\/t\d+\.js$/.test(f.path)).length} term shards ${mb(sum(/\/t\d+\.js$/))}, ${sizes.filter((f) => /\/d\d+\.js$/.test(f.path)).length} display chunks ${mb(sum(/\/d\d+\.js$/))}`,
        `  total ${mb(total)}, largest ${largest.path} ${(largest.bytes / 1024).toFixed(1)} KiB`,
        `  time: read + add ${(added - started).toFixed(0)} ms (corpus reading and MDX stripping included), files() ${(done - filesStarted).toFixed(0)} ms`,
        `  heap held by the builder after add(): ${mb(heldByBuilder)}`,
      ].join('\n'),
    );
  }, 120_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('keeps memory well below the text it indexed', () => {
    // The corpus is ~40 MB of text; postings and excerpts must stay far below keeping all of it as strings.
    expect(heldByBuilder).toBeLessThan(150 * 1024 * 1024);
  });

  it('keeps every file small enough to load on demand', () => {
    const meta = files[0];
    expect(meta?.path).toBe('_docsnap/search/meta.js');
    expect(meta?.contents.length).toBeLessThan(16 * 1024);
    for (const file of files) expect(file.contents.length, file.path).toBeLessThan(128 * 1024);
  });

  it('answers a query from meta.js, one or two shards and the chunks of the results shown', async () => {
    const index = openIndex(files);
    const response = await index.search('webhook throughput');
    expect(response.total).toBeGreaterThan(100);
    expect(response.results).toHaveLength(20);
    expect(response.results[0]?.title.toLowerCase()).toMatch(/webhook.*throughput|throughput.*webhook/);
    const shards = index.requested.filter((p) => /\/t\d+\.js$/.test(p));
    const chunks = index.requested.filter((p) => /\/d\d+\.js$/.test(p));
    expect(shards.length).toBeLessThanOrEqual(3);
    expect(chunks.length).toBeLessThanOrEqual(20);
    expect(index.requested.length).toBe(1 + shards.length + chunks.length);
    const loaded = index.requested.reduce(
      (sum, p) => sum + (files.find((f) => f.path === p)?.contents.length ?? 0),
      0,
    );
    console.log(`query "webhook throughput": ${index.requested.length} files, ${mb(loaded)} loaded`);
  });
});
