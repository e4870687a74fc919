import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiKeys } from '../../src/service/api-keys.ts';
import { LocalObjectStore } from '../../src/storage/local-store.ts';

const dir = mkdtempSync(join(tmpdir(), 'docsnap-keys-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('admin keys', () => {
  it('accept a burst of first requests with a key the server has not read yet (none refused while it reads)', async () => {
    const store = new LocalObjectStore(dir, () => 'http://127.0.0.1:1');
    const key = await new ApiKeys(store, 'docsnap').create('acme');
    // A server that started before the key was made: its first requests all arrive at once.
    const server = new ApiKeys(store, 'docsnap');
    const results = await Promise.all(Array.from({ length: 50 }, () => server.authenticate(key)));
    expect(results.filter((r) => 'refused' in r)).toEqual([]);
    expect(results[0]).toEqual({ organization: 'acme' });
    // An unknown key is still refused.
    expect(await server.authenticate(`docsnap_${'x'.repeat(43)}`)).toEqual({ refused: 'unknown admin key' });
  });
});
