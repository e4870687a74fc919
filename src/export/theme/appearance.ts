import { posix } from 'node:path';
import type { Element } from 'hast';
import { h } from 'hastscript';
import type { ExportOptions } from '../options.ts';
import { isExternal } from '../pages/links.ts';
import type { SiteModel } from '../source/load-site.ts';
import type { FontSetting } from '../source/site-config.ts';
import { isAllowedUrl, refusedUrlMessage } from '../url-policy.ts';

/**
 * docs.json's `background` and `fonts` as the site's stylesheet writes them (it lives in
 * `_docsnap/`, so repository files are `../path`). A font or image on another origin loads only
 * where the deployment allows; in air-gapped exports it is left out with one warning and the
 * theme's own is used.
 */

/** Decorations of the page background, drawn in CSS. */
const DECORATIONS: Record<string, string> = {
  gradient:
    'radial-gradient(ellipse 80% 50% at 50% -10%, color-mix(in srgb, var(--ds-primary) 18%, transparent), transparent)',
  grid: 'linear-gradient(color-mix(in srgb, var(--ds-fg) 6%, transparent) 1px, transparent 1px), linear-gradient(90deg, color-mix(in srgb, var(--ds-fg) 6%, transparent) 1px, transparent 1px)',
  windows:
    'radial-gradient(circle at 15% 0%, color-mix(in srgb, var(--ds-primary) 14%, transparent), transparent 40%), radial-gradient(circle at 85% 0%, color-mix(in srgb, var(--ds-primary-dark) 12%, transparent), transparent 40%)',
};

export function appearanceCss(
  site: SiteModel,
  options: ExportOptions,
  warn: (message: string) => void,
): string {
  const { background, fonts } = site.config;
  const rules: string[] = [];
  const url = (path: string, field: string): string | undefined => {
    if (!isAllowedUrl(path, 'resource')) {
      warn(`${refusedUrlMessage(path, field, 'resource')}; left out`);
      return undefined;
    }
    if (!isExternal(path)) {
      const local = posix.normalize(path.replace(/^\/+/, ''));
      if (!local.startsWith('../')) return cssString(`../${local}`);
      warn(`${field} ${path} leaves the repository; left out`);
      return undefined;
    }
    if (options.deployment !== 'air-gapped') return cssString(path);
    warn(
      `${field} ${path} is on another origin: an air-gapped export loads nothing from elsewhere; left out`,
    );
    return undefined;
  };
  if (background.color?.light) rules.push(`:root{--ds-bg:${background.color.light}}`);
  if (background.color?.dark) rules.push(`html[data-theme="dark"]{--ds-bg:${background.color.dark}}`);
  const images = background.image
    ? [url(background.image.light, 'background.image'), url(background.image.dark, 'background.image')]
    : [];
  const decoration = background.decoration ? DECORATIONS[background.decoration] : undefined;
  const layers = (image: string | undefined) =>
    [image ? `url(${image})` : undefined, decoration].filter(Boolean);
  if (images[0] || decoration)
    rules.push(
      `body{background-image:${layers(images[0]).join(',')};background-repeat:no-repeat;background-size:${images[0] ? 'cover' : '100% 600px'};background-attachment:fixed}`,
    );
  if (background.decoration === 'grid')
    rules.push('body{background-repeat:repeat;background-size:32px 32px}');
  if (images[1] && images[1] !== images[0])
    rules.push(`html[data-theme="dark"] body{background-image:${layers(images[1]).join(',')}}`);

  const faces = new Set<string>();
  for (const [role, selector] of [
    ['body', 'body'],
    ['heading', 'h1,h2,h3,h4,h5,h6,.ds-title'],
  ] as const) {
    const font = fonts[role];
    if (!font) continue;
    if (font.source) {
      const src = url(font.source, `fonts.${role}.source`);
      if (!src) continue;
      const face = `@font-face{font-family:${cssString(font.family)};src:url(${src})${font.format ? ` format(${cssString(font.format)})` : ''};font-display:swap${font.weight ? `;font-weight:${font.weight}` : ''}}`;
      // One face for a font the body and the headings share.
      if (!faces.has(face)) rules.push(face);
      faces.add(face);
    } else if (options.deployment === 'air-gapped') {
      if (faces.has(font.family)) continue;
      faces.add(font.family);
      warn(
        `fonts: ${font.family} is a Google Fonts family, which an air-gapped export does not load; the theme's font is used`,
      );
      continue;
    }
    rules.push(
      `${selector}{font-family:${cssString(font.family)},var(--ds-font-sans, system-ui, sans-serif)${font.weight ? `;font-weight:${font.weight}` : ''}}`,
    );
  }
  return rules.join('\n');
}

/** Google Fonts stylesheets for families without a source, where the deployment loads from elsewhere. */
export function fontLinks(site: SiteModel, options: ExportOptions): Element[] {
  if (options.deployment === 'air-gapped') return [];
  const families = [site.config.fonts.body, site.config.fonts.heading]
    .filter((font): font is FontSetting => font !== undefined && font.source === undefined)
    .map(
      (font) =>
        `family=${encodeURIComponent(font.family).replace(/%20/g, '+')}${font.weight ? `:wght@${font.weight}` : ''}`,
    );
  const unique = [...new Set(families)];
  return unique.length === 0
    ? []
    : [
        h('link', {
          rel: 'stylesheet',
          href: `https://fonts.googleapis.com/css2?${unique.join('&')}&display=swap`,
        }),
      ];
}

/** A CSS string: quoted, with the characters that could end it or the rule escaped. */
function cssString(text: string): string {
  return `"${text.replace(/["\\\n\r\f<>]/g, (c) => `\\${c.charCodeAt(0).toString(16)} `)}"`;
}
