import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assetsInUse } from '../../src/export/assets/assets-in-use.ts';
import { exportSite } from '../../src/export/pipeline.ts';
import { docsRepo, page, tempDir } from './fixtures.ts';

/** An export of selected pages (the spec's `paths`) ships those pages and the files they use. */
const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"></svg>';

describe('the files of an export of selected pages', () => {
  it('are those its pages embed or link, plus the site-wide ones (docs.json, stylesheets)', async () => {
    const dir = docsRepo({
      'docs.json': { name: 'X', logo: '/images/logo.svg', navigation: { pages: ['a', 'b'] } },
      'a.mdx': page('A', '![a](/images/a.svg)\n\n[the sheet](/files/a.pdf)'),
      'b.mdx': page('B', '![b](images/b.svg)\n\n[the other sheet](/files/b.pdf)'),
      'style.css': '.hero { background-image: url(images/bg.svg); }',
      'images/a.svg': svg,
      'images/b.svg': svg,
      'images/bg.svg': svg,
      'images/logo.svg': svg,
      'files/a.pdf': '%PDF-1.4',
      'files/b.pdf': '%PDF-1.4',
    });
    const selected = tempDir();
    await exportSite({ source: dir, outDir: join(selected, 'out'), options: { paths: ['a'] } });
    const shipped = (file: string) => existsSync(join(selected, 'out', file));
    expect(
      ['a.html', 'images/a.svg', 'files/a.pdf', 'images/logo.svg', 'images/bg.svg'].filter(shipped),
    ).toHaveLength(5);
    expect(['b.html', 'images/b.svg', 'files/b.pdf'].filter(shipped)).toEqual([]);

    const whole = tempDir();
    await exportSite({ source: dir, outDir: join(whole, 'out'), options: {} });
    for (const file of ['images/b.svg', 'files/b.pdf'])
      expect(existsSync(join(whole, 'out', file))).toBe(true);
  });

  it('keeps a file a script or stylesheet names, and one docs.json names with ./ or a query', () => {
    const assets = ['img/x.png', 'img/y.png', 'fonts/z.woff2', 'unused.png'];
    expect(
      assetsInUse(assets, new Set(['img/x.png']), {
        config: { favicon: './img/y.png?v=2' },
        stylesheets: ['@font-face { src: url("../fonts/z.woff2") }'],
        scripts: [],
      }),
    ).toEqual(['img/x.png', 'img/y.png', 'fonts/z.woff2']);
  });
});
