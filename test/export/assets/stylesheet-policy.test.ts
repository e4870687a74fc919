import { describe, expect, it } from 'vitest';
import { type StylesheetContext, sanitizeStylesheet } from '../../../src/export/assets/stylesheet-policy.ts';

const context = (overrides: Partial<StylesheetContext> = {}): StylesheetContext => ({
  file: 'styles/site.css',
  airGapped: false,
  published: new Set(['images/bg.png', 'styles/site.css', 'styles/fonts.css', 'fonts/inter.woff2']),
  ...overrides,
});

function clean(css: string, overrides: Partial<StylesheetContext> = {}) {
  const outcome = sanitizeStylesheet(css, context(overrides));
  if ('refused' in outcome) throw new Error(`refused: ${outcome.refused}`);
  return outcome;
}

describe('stylesheet policy', () => {
  it('keeps ordinary CSS as written', () => {
    const css =
      '.hero { color: #0a7; background: url(../images/bg.png) no-repeat; }\n@media (min-width: 40em) { .hero { padding: 2rem } }\n';
    expect(clean(css)).toEqual({ css, warnings: [] });
  });

  it('makes root-relative URLs relative to the stylesheet, so the site works under a path prefix', () => {
    const { css } = clean('.a { background-image: url("/images/bg.png?v=2") } @import "/styles/fonts.css";');
    expect(css).toContain('url("../images/bg.png?v=2")');
    expect(css).toContain('@import "fonts.css"');
  });

  it('loads from other origins in connected exports, and never in air-gapped ones', () => {
    const css =
      '@import url(https://fonts.example.com/inter.css);\n.a { color: red; background: url(https://cdn.example.com/x.png) }\n.b { color: blue }';
    expect(clean(css).css).toBe(css);
    const airGapped = clean(css, { airGapped: true });
    expect(airGapped.css).not.toContain('example.com');
    expect(airGapped.css).toContain('color: red');
    expect(airGapped.css).toContain('.b { color: blue }');
    expect(airGapped.warnings).toEqual([
      expect.stringMatching(/^line 1: @import removed: .*fonts\.example\.com.*air-gapped/),
      expect.stringMatching(/^line 2: background removed: .*cdn\.example\.com.*another origin/),
    ]);
  });

  it('refuses URLs the URL policy refuses, escaped function names and legacy script hooks', () => {
    const css = [
      '.a { background: url("javascript:alert(1)") }',
      '.b { background: \\75 rl(https://evil.example/x.png) }',
      '.c { behavior: url(x.htc) }',
      '.d { -moz-binding: url(x.xml#b) }',
      '.e { width: expression(alert(1)) }',
      '.f { background: url(data:text/html,<script>alert(1)</script>) }',
      '.g { background: image-set("https://evil.example/a.png" 1x) }',
      '.i { background: url(java\\73 cript:alert(1)) }',
      '.h { color: green }',
    ].join('\n');
    const { css: out, warnings } = clean(css, { airGapped: true });
    expect(out).not.toMatch(/javascript|evil|htc|binding|expression|text\/html/);
    expect(out).toContain('.h { color: green }');
    expect(warnings).toHaveLength(8);
  });

  it('keeps data: images and fonts, and reports relative URLs to files the export does not have', () => {
    const css =
      '@font-face { font-family: I; src: url(data:font/woff2;base64,AAAA) format("woff2"), url(../fonts/inter.woff2) }\n.a { background: url(../images/missing.png) }';
    const { css: out, warnings } = clean(css);
    expect(out).toBe(css);
    expect(warnings).toEqual([
      expect.stringMatching(/^line 2: background: "..\/images\/missing.png" is not a file/),
    ]);
  });

  it('refuses URLs that leave the repository', () => {
    const { css, warnings } = clean('.a { background: url(../../../etc/passwd) }');
    expect(css).not.toContain('passwd');
    expect(warnings[0]).toMatch(/leaves the repository/);
  });

  it('refuses a stylesheet that does not parse or nests absurdly deep, naming why', () => {
    expect(sanitizeStylesheet('.a { color: red', context())).toEqual({
      refused: expect.stringMatching(/^not valid CSS \(line 1\)/),
    });
    expect(sanitizeStylesheet('@media all {'.repeat(5000), context())).toEqual({
      refused: 'rules nested 5000 deep exceed the limit of 64',
    });
    // An escaped at-rule name (`@\\69 mport` is `@import`) is not CSS PostCSS reads: refused whole.
    expect(sanitizeStylesheet('@\\69 mport "https://evil.example/a.css";', context())).toHaveProperty(
      'refused',
    );
  });
});
