import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Element } from 'hast';
import katex from 'katex';

/**
 * LaTeX math (`$…$`, `$$…$$`, `<Latex>`) typeset at build time with KaTeX, as the platform shows
 * it: the page carries KaTeX's HTML (and MathML for screen readers); no script runs in the
 * browser. Authored TeX is held to KaTeX's safe mode: no `\href`, `\url`, `\includegraphics` or
 * HTML-injecting commands (`trust: false`), macro expansion and sizes bounded. A formula KaTeX
 * cannot read is shown as its source, with a warning.
 */

const OPTIONS = {
  throwOnError: true,
  strict: 'ignore',
  output: 'htmlAndMathml',
  maxExpand: 1000,
  maxSize: 50,
} as const;

/** The class a typeset formula's wrapper carries; the layout links KaTeX's stylesheet to pages that have one. */
export const MATH_CLASS = 'ds-math';

export function typeset(tex: string, display: boolean, warn: (message: string) => void): Element {
  const tag = display ? 'div' : 'span';
  try {
    const refused = new Set<string>();
    // Links, images and HTML from TeX are never trusted: KaTeX shows the command as text instead.
    const trust = (context: { command: string }) => {
      refused.add(context.command);
      return false;
    };
    const html = katex.renderToString(tex, { ...OPTIONS, trust, displayMode: display });
    if (refused.size > 0)
      warn(`math uses ${[...refused].join(', ')}, which a docs site does not allow: shown as text`);
    return {
      type: 'element',
      tagName: tag,
      properties: { className: [MATH_CLASS, display ? 'ds-math-display' : 'ds-math-inline'] },
      children: [{ type: 'raw', value: html }],
    };
  } catch (error) {
    warn(
      `math not typeset (${(error as Error).message.replace(/^KaTeX parse error: /, '')}): shown as its source`,
    );
    return {
      type: 'element',
      tagName: display ? 'pre' : 'code',
      properties: { className: ['ds-math-source'] },
      children: [{ type: 'text', value: tex }],
    };
  }
}

/** Where KaTeX's stylesheet and fonts go in an export that has math. */
export const KATEX_DIR = '_docsnap/katex';
export const KATEX_CSS = `${KATEX_DIR}/katex.css`;

/**
 * KaTeX's stylesheet and fonts, for an export with math: the WOFF2 fonts only (every browser
 * that runs the site reads them), so the stylesheet names no file that is not there.
 */
export function katexAssets(): Array<{ path: string; contents: Buffer }> {
  const dist = join(dirname(createRequire(import.meta.url).resolve('katex/package.json')), 'dist');
  const css = readFileSync(join(dist, 'katex.min.css'), 'utf8').replace(
    /,\s*url\(fonts\/[^)]+\.(?:woff|ttf)\)\s*format\("(?:woff|truetype)"\)/g,
    '',
  );
  const fonts = readdirSync(join(dist, 'fonts')).filter((file) => file.endsWith('.woff2'));
  return [
    { path: KATEX_CSS, contents: Buffer.from(css) },
    ...fonts.map((file) => ({
      path: `${KATEX_DIR}/fonts/${file}`,
      contents: readFileSync(join(dist, 'fonts', file)),
    })),
  ];
}
