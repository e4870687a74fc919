import { describe, expect, it } from 'vitest';
import { loadSearchCore } from '../../../src/export/search/core.ts';
import { openIndex } from './harness.ts';

const browser = openIndex([]).core;

describe('search core: tokenizer', () => {
  it('lowercases, splits on anything but letters and digits, drops stop words and single letters', () => {
    expect(browser.terms('How to Configure the API: op-1234, snake_case & v2 (a)')).toEqual([
      'configur',
      'api',
      'op',
      '1234',
      'snak',
      'cas',
      'v2',
    ]);
  });

  it('keeps apostrophes inside words and folds Latin diacritics', () => {
    expect(browser.terms("client's café Überblick naïve")).toEqual(['client', 'caf', 'uberblick', 'naiv']);
    expect(browser.terms('CAFÉ')).toEqual(browser.terms('cafe'));
  });

  it('keeps other scripts intact and indexes unspaced scripts as bigrams', () => {
    expect(browser.terms('Настройка сервера')).toEqual(['настройка', 'сервера']);
    expect(browser.terms('検索機能')).toEqual(['検索', '索機', '機能']);
    expect(browser.terms('API設定')).toEqual(['api', '設定']);
    expect(browser.terms('한국어 문서')).toEqual(['한국어', '문서']);
  });

  it('stems word families to one term', () => {
    const families = [
      ['configure', 'configured', 'configuring', 'configures'],
      ['query', 'queries', 'querying', 'queried'],
      ['run', 'runs', 'running'],
      ['install', 'installed', 'installing', 'installs'],
      ['library', 'libraries'],
      ['index', 'indexes', 'indexed'],
      ['box', 'boxes'],
      ['api', 'apis'],
      ['cache', 'caches', 'cached', 'caching'],
      ['setting', 'settings', 'set'],
      ['deploy', 'deployed', 'deploying', 'deploys'],
    ];
    for (const family of families) {
      const stems = new Set(family.map((w) => browser.stem(w)));
      expect([...stems], family.join(', ')).toHaveLength(1);
    }
    for (const word of ['status', 'class', 'analysis', 'string', 'need', 'kubernetes']) {
      expect(browser.stem(word).length, word).toBeGreaterThanOrEqual(word.length - 2);
    }
  });

  it('is the same code at build time', () => {
    const text = 'Retrying webhooks — Café, 検索機能, настройка';
    expect(loadSearchCore().terms(text)).toEqual(browser.terms(text));
  });
});

describe('search core: query parsing', () => {
  it('treats the last word as a prefix while it is being typed', () => {
    expect(browser.parseQuery('deploy tok')).toEqual([
      { word: 'deploy', term: 'deploy', prefix: false, optional: false },
      { word: 'tok', term: 'tok', prefix: true, optional: false },
    ]);
    expect(browser.parseQuery('deploy token ').every((g) => !g.prefix)).toBe(true);
  });

  it('drops stop words, except a last word being typed, which becomes optional', () => {
    expect(browser.parseQuery('how to deploy the')).toEqual([
      { word: 'deploy', term: 'deploy', prefix: false, optional: false },
      { word: 'the', term: 'the', prefix: true, optional: true },
    ]);
  });
});
