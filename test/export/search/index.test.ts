import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { type SearchDocument, SearchIndexBuilder, searchAssets } from '../../../src/export/search/index.ts';
import { marked, openIndex } from './harness.ts';

const docs: SearchDocument[] = [
  {
    id: 1,
    href: 'guides/webhooks.html',
    title: 'Webhooks',
    section: 'Documentation › Guides',
    headings: [
      { id: 'signing-secrets', text: 'Signing secrets', level: 2 },
      { id: 'retries', text: 'Retrying failed deliveries', level: 2 },
    ],
    text: 'Receive events over HTTP. Signing secrets Every request carries a signature header. Retrying failed deliveries Failed deliveries are retried with exponential backoff.',
    sectionTexts: [
      'Receive events over HTTP.',
      'Every request carries a signature header computed with your signing secret.',
      'Failed deliveries are retried with exponential backoff for three days.',
    ],
  },
  {
    id: 2,
    href: 'reference/events.html',
    title: 'Event types',
    section: 'API Reference',
    headings: [],
    text: 'Each webhook delivers one event. The webhook payload lists the webhook id and the event type; a webhook can subscribe to many events.',
  },
  {
    id: 3,
    href: 'quickstart/server.html',
    title: 'Build a server',
    section: 'Documentation › Get Started',
    headings: [{ id: 'configure-the-client', text: 'Configure the client', level: 2 }],
    text: 'Start a server in five minutes. Configure the client Pass an access token to the client constructor.',
    sectionTexts: ['Start a server in five minutes.', 'Pass an access token to the client constructor.'],
  },
  {
    id: 4,
    href: 'deploy/tokens.html',
    title: 'Deploy tokens',
    section: 'Documentation › Deploy',
    headings: [],
    text: 'A deploy token lets a pipeline publish the site without a personal account.',
  },
  {
    id: 5,
    href: 'intl/cafe.html',
    title: 'Café et configuración',
    section: 'Internationalisation',
    headings: [{ id: 'ubersicht', text: 'Überblick', level: 2 }],
    text: 'Überblick über die Konfiguration. Настройка сервера. 検索機能の設定方法。',
    sectionTexts: ['', 'Überblick über die Konfiguration. Настройка сервера. 検索機能の設定方法。'],
  },
  {
    id: 6,
    href: 'guides/running.html',
    title: 'Running jobs',
    section: 'Documentation › Guides',
    headings: [],
    text: 'Jobs are queued and run by workers; a job that fails is retried.',
  },
];

function build(documents = docs, options = {}) {
  const builder = new SearchIndexBuilder(options);
  for (const doc of documents) builder.add(doc);
  return builder.files();
}

const hrefs = (response: { results: { href: string }[] }) => response.results.map((r) => r.href);

describe('SearchIndexBuilder output', () => {
  it('writes script files under _docsnap/search/ that only call DocsnapSearch.register', () => {
    const files = build();
    expect(files[0]?.path).toBe('_docsnap/search/meta.js');
    for (const file of files) {
      expect(file.path).toMatch(/^_docsnap\/search\/(meta|[0-9a-f]{12}\/[td]\d+)\.js$/);
      expect(file.contents).toMatch(/^DocsnapSearch\.register\("[^"]+",[\s\S]*\);\n$/);
      const calls: string[] = [];
      vm.runInNewContext(file.contents, { DocsnapSearch: { register: (key: string) => calls.push(key) } });
      expect(calls).toHaveLength(1);
    }
  });

  it('is deterministic: same pages, in any order, give the same bytes', () => {
    const first = build();
    expect(build()).toEqual(first);
    expect(build([...docs].reverse())).toEqual(first);
    const changed = build(docs.map((d) => (d.id === 6 ? { ...d, title: 'Running cron jobs' } : d)));
    expect(changed[0]?.contents).not.toBe(first[0]?.contents);
  });

  it('refuses bad pages with a message naming the page', () => {
    const builder = new SearchIndexBuilder();
    builder.add(docs[0] as SearchDocument);
    expect(() => builder.add({ ...(docs[1] as SearchDocument), id: 1 })).toThrow(
      /reference\/events\.html.*id 1 is already used by "guides\/webhooks\.html"/,
    );
    expect(() => builder.add({ ...(docs[1] as SearchDocument), id: 9, href: '/abs.html' })).toThrow(
      /"\/abs\.html".*relative/,
    );
    expect(() => builder.add({ ...(docs[2] as SearchDocument), id: 10, sectionTexts: ['only one'] })).toThrow(
      /quickstart\/server\.html.*sectionTexts has 1 entries, expected.*2/,
    );
  });

  it('lists the browser assets, core first', () => {
    expect(searchAssets.js.map((u) => u.pathname.split('/').pop())).toEqual(['search-core.js', 'search.js']);
    expect(searchAssets.css.map((u) => u.pathname.split('/').pop())).toEqual(['search.css']);
  });
});

describe('searching an index as a page does', () => {
  it('ranks a title hit above any number of body hits', async () => {
    const response = await openIndex(build()).search('webhook ');
    expect(hrefs(response)).toEqual(['guides/webhooks.html', 'reference/events.html']);
    expect(marked(response.results[0]?.titleParts ?? [])).toBe('[Webhooks]');
    expect(response.results[0]?.url).toBe('guides/webhooks.html');
    expect(marked(response.results[1]?.snippet ?? [])).toContain('[webhook] delivers');
  });

  it('completes the last word as a prefix, and a stem with an unfinished suffix', async () => {
    const index = openIndex(build());
    expect(hrefs(await index.search('webh'))[0]).toBe('guides/webhooks.html');
    expect(hrefs(await index.search('configuri'))).toContain('quickstart/server.html');
    expect(hrefs(await index.search('runnin'))).toEqual(['guides/running.html']);
    expect(hrefs(await index.search('tok'))).toEqual(['deploy/tokens.html', 'quickstart/server.html']);
    // A finished word is not a prefix any more.
    expect(hrefs(await index.search('tok '))).toEqual([]);
  });

  it('requires every word (AND)', async () => {
    const index = openIndex(build());
    expect(hrefs(await index.search('deploy token'))).toEqual(['deploy/tokens.html']);
    expect(hrefs(await index.search('client token'))).toEqual(['quickstart/server.html']);
    expect(hrefs(await index.search('webhook kubernetes'))).toEqual([]);
    const response = await index.search('failed retried');
    expect(hrefs(response).sort()).toEqual(['guides/running.html', 'guides/webhooks.html']);
  });

  it('links to the heading that matches, with the text under it as the snippet', async () => {
    const index = openIndex(build());
    const [hit] = (await index.search('signing secret')).results;
    expect(hit?.url).toBe('guides/webhooks.html#signing-secrets');
    expect(hit?.heading).toEqual({ id: 'signing-secrets', text: 'Signing secrets', level: 2 });
    expect(marked(hit?.headingParts ?? [])).toBe('[Signing] [secrets]');
    expect(marked(hit?.snippet ?? [])).toContain('your [signing] [secret].');

    const [retry] = (await index.search('exponential backoff')).results;
    expect(retry?.url).toBe('guides/webhooks.html#retries');
    expect(retry?.section).toBe('Documentation › Guides');

    const [client] = (await index.search('configuring the client')).results;
    expect(client?.url).toBe('quickstart/server.html#configure-the-client');
  });

  it('finds words in any script, with or without diacritics', async () => {
    const index = openIndex(build());
    for (const query of [
      'cafe',
      'CAFÉ',
      'configuracion',
      'uberblick',
      'Überblick',
      'настр',
      'сервера',
      '検索',
      '設定方法',
      '検',
    ]) {
      expect(hrefs(await index.search(query)), query).toEqual(['intl/cafe.html']);
    }
    const [hit] = (await index.search('konfiguration')).results;
    expect(hit?.url).toBe('intl/cafe.html#ubersicht');
    expect(marked(hit?.snippet ?? [])).toContain('die [Konfiguration].');
  });

  it('returns nothing for stop words alone or unknown words, and everything on an empty index', async () => {
    const index = openIndex(build());
    expect((await index.search('the')).total).toBe(0);
    expect((await index.search('zzzz')).total).toBe(0);
    expect((await index.search('')).total).toBe(0);
    const empty = openIndex(new SearchIndexBuilder().files());
    expect((await empty.search('webhook')).results).toEqual([]);
  });

  it('requests only meta.js, the shards that hold the query terms and the chunks of the results shown', async () => {
    const files = build(docs, { shardBytes: 60, docsPerChunk: 2 });
    const shards = files.filter((f) => /\/t\d+\.js$/.test(f.path));
    expect(shards.length).toBeGreaterThan(10);
    const index = openIndex(files);

    await index.search('backoff ');
    const terms = index.requested.filter((p) => /\/t\d+\.js$/.test(p));
    const chunks = index.requested.filter((p) => /\/d\d+\.js$/.test(p));
    expect(index.requested[0]).toBe('_docsnap/search/meta.js');
    expect(terms).toHaveLength(1);
    expect(files.find((f) => f.path === terms[0])?.contents).toContain('"backoff"');
    expect(chunks).toEqual([files.find((f) => f.path.endsWith('/d0.js'))?.path]); // page id 1 is in the first chunk

    // Later queries reuse what is loaded; each file is requested once.
    const before = index.requested.length;
    await index.search('backoff');
    await index.search('retried backoff');
    expect(new Set(index.requested).size).toBe(index.requested.length);
    expect(index.requested.length - before).toBeLessThanOrEqual(3);
  });

  it('reports a file that cannot be loaded, and recovers when it can', async () => {
    const files = build(docs, { shardBytes: 60 });
    const shard = files.find((f) => f.path.endsWith('/t0.js'));
    const index = openIndex(files.filter((f) => f !== shard));
    const word = /"terms":\["([^"]+)"/.exec(shard?.contents ?? '')?.[1] ?? '';
    await expect(index.search(`${word} `)).rejects.toThrow(/404 .*\/t0\.js/);
    expect((await index.search('webhook ')).total).toBe(2);
  });
});
