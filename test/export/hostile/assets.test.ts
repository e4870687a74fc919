import { createHash } from 'node:crypto';
import {
  closeSync,
  createReadStream,
  ftruncateSync,
  mkdirSync,
  openSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { exportSite } from '../../../src/export/pipeline.ts';
import { docsRepo, page, tempDir } from '../fixtures.ts';

/** Finding: assets were read whole to be hashed (a file over 2 GiB failed, naming no file). */

const config = {
  name: 'Hostile',
  colors: { primary: '#0a7' },
  navigation: { groups: [{ group: 'Start', pages: ['index'] }] },
};

describe('a large asset', () => {
  it('is copied and hashed as a stream, never read whole (a file over 2 GiB)', {
    timeout: 300_000,
  }, async () => {
    const work = tempDir();
    const source = docsRepo({ 'docs.json': config, 'index.mdx': page('Home') });
    // A sparse file: 2 GiB + 64 MiB of size, no disk; a few bytes written so the hash means something.
    const size = 2 ** 31 + 2 ** 26;
    const big = join(source, 'downloads', 'big.zip');
    mkdirSync(join(source, 'downloads'));
    const fd = openSync(big, 'w');
    ftruncateSync(fd, size);
    writeSync(fd, Buffer.from('start'), 0, 5, 0);
    writeSync(fd, Buffer.from('middle'), 0, 6, 2 ** 30);
    writeSync(fd, Buffer.from('end'), 0, 3, size - 3);
    closeSync(fd);

    const out = join(work, 'site');
    let peakRss = 0;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, process.memoryUsage.rss());
    }, 20);
    const before = process.memoryUsage.rss();
    try {
      const exported = await exportSite({ source, outDir: out });
      const expected = createHash('sha256');
      await pipeline(createReadStream(big), expected);
      expect(exported.manifest.files['downloads/big.zip']).toBe(expected.digest('hex'));
      expect(statSync(join(out, 'downloads/big.zip')).size).toBe(size);
      expect(peakRss - before).toBeLessThan(512 * 1024 ** 2);
    } finally {
      clearInterval(sampler);
      rmSync(out, { recursive: true, force: true });
    }
  });
});
