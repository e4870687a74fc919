import { describe, expect, it } from 'vitest';
import type { StaticExport } from '../../../src/contract/static-export.ts';
import { SecretReferenceIndex } from '../../../src/operator/access/secret-index.ts';

function staticExport(namespace: string, adminKey: string, targets: string[]): StaticExport {
  return {
    metadata: { namespace, name: 'x', uid: 'u', resourceVersion: '1' },
    spec: {
      domain: 'docs.example.com',
      exporter: {
        api: { url: 'https://api.example.com', adminKeySecretRef: { name: adminKey, key: 'key' } },
      },
      targets: targets.map((name) => ({ secret: { name } })),
    },
  } as unknown as StaticExport;
}

const namers = (index: SecretReferenceIndex, namespace: string, name: string) =>
  [...index.namersOf(namespace, name)].sort();

describe('SecretReferenceIndex', () => {
  it('finds every StaticExport naming a Secret, within its namespace only', () => {
    const index = new SecretReferenceIndex();
    index.set('a/one', staticExport('a', 'key', ['one-values']));
    index.set('a/two', staticExport('a', 'key', ['two-values']));
    index.set('b/one', staticExport('b', 'key', ['one-values']));
    expect(namers(index, 'a', 'key')).toEqual(['a/one', 'a/two']);
    expect(namers(index, 'a', 'one-values')).toEqual(['a/one']);
    expect(namers(index, 'b', 'key')).toEqual(['b/one']);
    expect(namers(index, 'c', 'key')).toEqual([]);
  });

  it('follows a spec that names other Secrets, and forgets a deleted StaticExport', () => {
    const index = new SecretReferenceIndex();
    index.set('a/one', staticExport('a', 'key', ['old-values']));
    index.set('a/one', staticExport('a', 'other-key', ['new-values', 'new-values']));
    expect(namers(index, 'a', 'key')).toEqual([]);
    expect(namers(index, 'a', 'old-values')).toEqual([]);
    expect(namers(index, 'a', 'other-key')).toEqual(['a/one']);
    expect(namers(index, 'a', 'new-values')).toEqual(['a/one']);
    index.delete('a/one');
    expect(namers(index, 'a', 'other-key')).toEqual([]);
    expect(namers(index, 'a', 'new-values')).toEqual([]);
  });
});
