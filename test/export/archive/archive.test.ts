import { execFileSync } from 'node:child_process';
import { readFileSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeArchive } from '../../../src/export/archive/archive.ts';
import { docsRepo, tempDir } from '../fixtures.ts';

describe('writeArchive', () => {
  it('gives the same bytes for the same files, whatever their timestamps and the order given', async () => {
    const dir = docsRepo({ 'b.html': '<p>b</p>', 'a/index.html': '<p>a</p>', 'z.md': '# z' });
    const out = tempDir();
    const first = await writeArchive(dir, ['z.md', 'b.html', 'a/index.html'], join(out, 'one.tar.gz'));
    utimesSync(join(dir, 'b.html'), new Date('2001-01-01'), new Date('2001-01-01'));
    const second = await writeArchive(dir, ['a/index.html', 'b.html', 'z.md'], join(out, 'two.tar.gz'));
    expect(second.sha256).toBe(first.sha256);
    expect(second.sizeBytes).toBe(first.sizeBytes);
    expect(readFileSync(join(out, 'one.tar.gz')).equals(readFileSync(join(out, 'two.tar.gz')))).toBe(true);

    const bytes = readFileSync(join(out, 'one.tar.gz'));
    expect(bytes.subarray(0, 2).toString('hex')).toBe('1f8b'); // gzip
    expect(bytes.readUInt32LE(4)).toBe(0); // no timestamp in the gzip header

    // GNU tar reads it: sorted entries, fixed owner, mode and mtime.
    const listing = execFileSync('tar', ['--numeric-owner', '-tvzf', join(out, 'one.tar.gz')], {
      encoding: 'utf8',
      env: { ...process.env, TZ: 'UTC' },
    })
      .trim()
      .split('\n');
    expect(listing.map((l) => l.split(/\s+/).at(-1))).toEqual(['a/index.html', 'b.html', 'z.md']);
    for (const line of listing) expect(line).toMatch(/^-rw-r--r-- 0\/0\s+\d+ 1970-01-01 00:00 /);
  });

  it('leaves no partial archive when a file cannot be read', async () => {
    const dir = docsRepo({ 'a.html': 'a' });
    const out = tempDir();
    await expect(writeArchive(dir, ['a.html', 'missing.html'], join(out, 'x.tar.gz'))).rejects.toThrow(
      /ENOENT/,
    );
    expect(() => readFileSync(join(out, 'x.tar.gz'))).toThrow();
  });
});
