import { createHash } from 'node:crypto';
import {
  closeSync,
  createReadStream,
  existsSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { sanitizeSvg } from '../../../src/export/assets/svg-policy.ts';
import { ExportError } from '../../../src/export/errors.ts';
import { type ExportResult, exportSite } from '../../../src/export/pipeline.ts';
import { docsRepo, page, tempDir } from '../fixtures.ts';
import { BENIGN_ICON, MALICIOUS, SVG } from './svg-fixtures.ts';

/**
 * Findings: repository SVG files were published as they were and ran script on the site's
 * origin; assets were read whole to be hashed (a file over 2 GiB failed, naming no file); asset
 * names differing only in case, or holding control or bidi characters, were exported as they were.
 */

const config = {
  name: 'Hostile',
  colors: { primary: '#0a7' },
  navigation: { groups: [{ group: 'Start', pages: ['index'] }] },
};

let work: string;
let outDir: string;
let result: ExportResult;
const read = (name: string) => readFileSync(join(outDir, name), 'utf8');
const warningsFor = (file: string) => result.warnings.filter((w) => w.file === file).map((w) => w.message);

beforeAll(async () => {
  work = tempDir();
  const files: Record<string, string | object> = {
    'docs.json': config,
    'index.mdx': page('Home', '![Icon](/images/icon.svg)'),
    'images/icon.svg': BENIGN_ICON,
    'images/UPPER.SVG': `<svg ${SVG} onload="alert(1)"><circle r="5"/></svg>`,
    'images/not-svg.svg': '<html><body><script>alert(1)</script></body></html>',
    'images/deep.svg': `<svg ${SVG}>${'<g>'.repeat(10_000)}</svg>`,
  };
  for (const [name, svg] of Object.entries(MALICIOUS)) files[`attacks/${name}`] = svg;
  outDir = join(work, 'site');
  result = await exportSite({
    source: docsRepo(files),
    outDir,
    options: { deployment: 'air-gapped' },
  });
});

describe('SVG files of the repository', () => {
  it.each(Object.keys(MALICIOUS))('%s is published without its attack, its drawing kept', (name) => {
    const svg = read(`attacks/${name}`);
    expect(svg).not.toMatch(/<script|\son\w+=|foreignObject|javascript|evil\.example|data:text|other\.svg/i);
    expect(svg).not.toMatch(/<iframe|<img|<!ENTITY|<!DOCTYPE|EXPANDED|\blol\b|passwd/i);
    expect(svg).toMatch(/^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(svg).toContain('<circle r="');
    // A DOCTYPE's entity declarations are never read: nothing to report for them.
    if (name !== 'entities.svg')
      expect(warningsFor(`attacks/${name}`).join('\n')).toMatch(/^removed from the SVG: /);
    // The manifest's hash is that of the published bytes.
    expect(result.manifest.files[`attacks/${name}`]).toBe(
      createHash('sha256')
        .update(readFileSync(join(outDir, 'attacks', name)))
        .digest('hex'),
    );
  });

  it('names what it removed', () => {
    const messages = [
      ...warningsFor('attacks/script.svg'),
      ...warningsFor('attacks/handlers.svg'),
      ...warningsFor('attacks/foreign-object.svg'),
      ...warningsFor('attacks/style-urls.svg'),
    ].join('\n');
    expect(messages).toContain('<script>');
    expect(messages).toContain('onload attribute on <svg>');
    expect(messages).toContain('onclick attribute on <rect>');
    expect(messages).toContain('<foreignObject>');
    expect(messages).toContain('<style> that loads from elsewhere');
  });

  it('keeps CDATA and entity tricks as inert text: nothing is expanded or turned into elements', () => {
    expect(read('attacks/cdata.svg')).toContain('<text>&lt;script&gt;alert(3)&lt;/script&gt;</text>');
    const entities = read('attacks/entities.svg');
    expect(entities).toContain('<text>&amp;boom; &amp;lol3; &amp;xss; &amp;ext;</text>');
    expect(entities.length).toBeLessThan(400);
  });

  it('sanitizes files with an upper-case .SVG extension too', () => {
    expect(read('images/UPPER.SVG')).not.toContain('onload');
  });

  it('keeps a real icon whole: paths, gradients, clip paths, styles and internal <use>', () => {
    const icon = read('images/icon.svg');
    expect(warningsFor('images/icon.svg')).toEqual([]);
    for (const kept of [
      '<linearGradient id="fade" x1="0" y1="0" x2="0" y2="1">',
      '<stop offset="0" stop-color="#0a7" />',
      '<radialGradient id="glow"',
      '<clipPath id="round">',
      '<symbol id="dot" viewBox="0 0 10 10">',
      '<use href="#dot" x="4" y="4" width="8" height="8" />',
      '<use xlink:href="#dot"',
      'fill="url(#fade)"',
      'clip-path="url(#round)"',
      '.accent { fill: url(#glow); stroke: #333; }',
      '<text x="32" y="60" font-family="sans-serif" font-size="8">Docs &amp; more</text>',
      'xmlns:xlink="http://www.w3.org/1999/xlink"',
    ])
      expect(icon).toContain(kept);
  });

  it('leaves out, with a warning naming it, a file that is not an SVG document or nests absurdly deep', () => {
    expect(existsSync(join(outDir, 'images/not-svg.svg'))).toBe(false);
    expect(result.manifest.files['images/not-svg.svg']).toBeUndefined();
    expect(warningsFor('images/not-svg.svg').join()).toMatch(/not an SVG document.*not published/);
    expect(existsSync(join(outDir, 'images/deep.svg'))).toBe(false);
    const deep = warningsFor('images/deep.svg').join();
    expect(deep).toMatch(/nested/);
    expect(deep).not.toMatch(/call stack/i);
  });

  it("drops drawing programs' metadata without a warning", () => {
    const inkscape =
      `<svg ${SVG} xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" inkscape:version="1.3" data-name="Layer 1">` +
      '<sodipodi:namedview pagecolor="#fff"/><metadata><rdf:RDF><cc:Work/></rdf:RDF></metadata>' +
      '<g inkscape:label="Layer 1" inkscape:groupmode="layer"><path d="M0 0h4v4z"/></g></svg>';
    expect(sanitizeSvg(Buffer.from(inkscape))).toEqual({
      svg: '<svg xmlns="http://www.w3.org/2000/svg"><g><path d="M0 0h4v4z" /></g></svg>\n',
      removed: [],
    });
  });

  it("keeps a logo's own style rules when its <style> imports a font from elsewhere: only the @import goes", () => {
    const logo =
      `<svg ${SVG}><style>@import url('https://fonts.googleapis.com/css2?family=JetBrains+Mono');` +
      ` .brand { font-family: 'JetBrains Mono', monospace; fill: #111 } .a > .b { fill: red }</style>` +
      '<text class="brand">acme</text></svg>';
    const outcome = sanitizeSvg(Buffer.from(logo));
    expect('svg' in outcome && outcome.svg).toBe(
      `<svg ${SVG.split(' ')[0]}><style>.brand { font-family: 'JetBrains Mono', monospace; fill: #111 } .a &gt; .b { fill: red }</style><text class="brand">acme</text></svg>\n`,
    );
    expect('removed' in outcome && outcome.removed).toEqual(['@import in <style>']);
    // An import beside a rule that loads something itself still takes the whole <style>.
    const both = sanitizeSvg(
      Buffer.from(
        `<svg ${SVG}><style>@import url(a.css); rect { fill: url(https://evil.example/p) }</style></svg>`,
      ),
    );
    expect('removed' in both && both.removed).toEqual(['<style> that loads from elsewhere']);
  });

  it('allows links out of a diagram and raster images embedded in it, nothing else', () => {
    const outcome = sanitizeSvg(
      Buffer.from(
        `<svg ${SVG}><a href="https://example.com/docs"><text>Docs</text></a><a href="mailto:a@example.com"><text>Mail</text></a>` +
          `<image href="data:image/png;base64,iVBORw0KGgo=" width="1" height="1"/><image href="data:image/svg+xml,%3Csvg/%3E"/></svg>`,
      ),
    );
    expect('svg' in outcome && outcome.svg).toBe(
      `<svg ${SVG.split(' ')[0]}><a href="https://example.com/docs"><text>Docs</text></a><a href="mailto:a@example.com"><text>Mail</text></a>` +
        `<image href="data:image/png;base64,iVBORw0KGgo=" width="1" height="1" /><image /></svg>\n`,
    );
  });
});

describe('files of script-like types', () => {
  it('are never copied into the export', async () => {
    const names = [
      'page.html',
      'page.htm',
      'page.xhtml',
      'app.js',
      'app.mjs',
      'app.cjs',
      'feed.xml',
      'style.xsl',
      'icon.svgz',
    ];
    const files: Record<string, string | object> = { 'docs.json': config, 'index.mdx': page('Home') };
    for (const name of names) files[`static/${name}`] = '<script>alert(1)</script>';
    const out = join(tempDir(), 'site');
    const exported = await exportSite({ source: docsRepo(files), outDir: out });
    for (const name of names) {
      expect(existsSync(join(out, 'static', name)), name).toBe(false);
      expect(exported.manifest.files[`static/${name}`], name).toBeUndefined();
    }
  });
});

describe('asset names', () => {
  async function exportError(files: Record<string, string>): Promise<ExportError> {
    const work = tempDir();
    const source = docsRepo({ 'docs.json': config, 'index.mdx': page('Home'), ...files });
    const error = await exportSite({
      source,
      outDir: join(work, 'site'),
      archivePath: join(work, 'site.tar.gz'),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExportError);
    expect(existsSync(join(work, 'site'))).toBe(false);
    expect(existsSync(join(work, 'site.tar.gz'))).toBe(false);
    return error as ExportError;
  }

  it('refuses two files whose names differ only in letter case, naming both', async () => {
    const error = await exportError({ 'images/Logo.png': 'a', 'images/logo.png': 'b' });
    expect(error.message).toContain('"images/logo.png": differs from "images/Logo.png" only in letter case');
  });

  it('refuses names that are one file on macOS: Unicode forms, and a file named like a generated one', async () => {
    const error = await exportError({
      'images/caf\u00e9.png': 'nfc',
      'images/cafe\u0301.png': 'nfd',
      'LLMS.txt': 'the generated llms.txt has this name',
    });
    expect(error.problems.map((p) => p.file).sort()).toEqual(['"LLMS.txt"', '"images/caf\u00e9.png"']);
  });

  it('leaves a redirect that differs from its page only in case alone (meant for case-sensitive hosts)', async () => {
    const source = docsRepo({
      'docs.json': {
        ...config,
        navigation: { groups: [{ group: 'Start', pages: ['index', 'guide'] }] },
        redirects: [{ source: '/Guide', destination: '/guide' }],
      },
      'index.mdx': page('Home'),
      'guide.mdx': page('Guide'),
    });
    const exported = await exportSite({ source, outDir: join(tempDir(), 'site') });
    expect(Object.keys(exported.manifest.files)).toEqual(
      expect.arrayContaining(['Guide.html', 'guide.html']),
    );
  });

  it('refuses a file named like a folder of the export', async () => {
    const error = await exportError({ 'Images.png/a.png': 'x', 'images.png': 'y' });
    expect(error.message).toContain('"images.png": is also the name of the folder "Images.png"');
  });

  it.each([
    ['a newline', 'images/new\nline.png', 'new\\u{000A}line'],
    ['a bidi override', 'images/evil\u202Egnp.exe.png', 'evil\\u{202E}gnp'],
    ['a bidi isolate', 'images/a\u2066b.png', 'a\\u{2066}b'],
    ['a C0 control', 'images/bell\u0007.png', 'bell\\u{0007}'],
    ['DEL', 'images/del\u007F.png', 'del\\u{007F}'],
    ['a C1 control', 'images/next\u0085line.png', 'next\\u{0085}line'],
  ])('refuses a name with %s, showing it escaped', async (_label, name, shown) => {
    const error = await exportError({ [name]: 'x' });
    expect(error.problems).toHaveLength(1);
    expect(error.problems[0]?.file).toContain(shown);
    expect(error.message.includes(name)).toBe(false); // never shown raw
    expect(error.message).toMatch(/control character|bidirectional/);
  });
});

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
