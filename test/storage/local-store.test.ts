import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalObjectStore } from '../../src/storage/local-store.ts';

const KEY_FILE = '.link-signing-key';

function linkParts(url: string): { key: string; expires: string; signature: string } {
  const parsed = new URL(url);
  return {
    key: parsed.pathname.replace(/^\/downloads\//, ''),
    expires: parsed.searchParams.get('expires') ?? '',
    signature: parsed.searchParams.get('signature') ?? '',
  };
}

async function signedAndOpened(signer: LocalObjectStore, opener: LocalObjectStore): Promise<boolean> {
  await signer.putJson('bundles/a.json', { a: 1 });
  const { key, expires, signature } = linkParts((await signer.presignGet('bundles/a.json', 60_000)).url);
  const opened = await opener.openLink(key, expires, signature);
  if ('stream' in opened) opened.stream.destroy();
  return !('refused' in opened);
}

describe('the local store link-signing key', () => {
  it('is made once, whole, readable only by its owner, and shared by stores on the same directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docsnap-store-'));
    const stores = Array.from({ length: 8 }, () => new LocalObjectStore(dir, () => 'http://127.0.0.1:1'));
    // Eight replicas start together: they must agree on one key.
    await Promise.all(stores.map((store) => store.presignGet('bundles/a.json', 60_000)));
    expect(readFileSync(join(dir, KEY_FILE))).toHaveLength(32);
    expect(statSync(join(dir, KEY_FILE)).mode & 0o777).toBe(0o600);
    for (const store of stores.slice(1))
      expect(await signedAndOpened(stores[0] as LocalObjectStore, store)).toBe(true);
    expect((await readdir(dir)).filter((name) => name.endsWith('.partial'))).toEqual([]);
  });

  it('replaces an empty or short key file (a disk that was full) with a warning, and links work', async () => {
    for (const contents of [Buffer.alloc(0), Buffer.from('short')]) {
      const dir = mkdtempSync(join(tmpdir(), 'docsnap-store-'));
      writeFileSync(join(dir, KEY_FILE), contents);
      const warnings: string[] = [];
      const onWarning = (warning: Error) => warnings.push(warning.message);
      process.on('warning', onWarning);
      try {
        const store = new LocalObjectStore(dir, () => 'http://127.0.0.1:1');
        expect(await signedAndOpened(store, new LocalObjectStore(dir, () => 'http://127.0.0.1:1'))).toBe(
          true,
        );
        await new Promise((resolve) => setImmediate(resolve));
        expect(readFileSync(join(dir, KEY_FILE))).toHaveLength(32);
        expect(warnings.join('\n')).toContain(`held ${contents.length} bytes`);
      } finally {
        process.off('warning', onWarning);
      }
    }
  });
});
