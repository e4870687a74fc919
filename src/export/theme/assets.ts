import { readFileSync } from 'node:fs';
import { componentAssets } from '../components/index.ts';
import { DIAGRAMS_CSS } from '../diagrams/mermaid.ts';
import { openapiAssets } from '../openapi/index.ts';
import type { ExportOptions } from '../options.ts';
import { searchAssets } from '../search/index.ts';
import type { SiteModel, SiteNavItem } from '../source/load-site.ts';
import { GENERATED_DIR } from '../source/screen-site.ts';
import { isAllowedUrl } from '../url-policy.ts';
import { appearanceCss } from './appearance.ts';

/** Output paths of the files every page shares. */
export const ASSET_DIR = GENERATED_DIR;
export const SITE_CSS = `${ASSET_DIR}/site.css`;
export const SITE_JS = `${ASSET_DIR}/site.js`;
export const NAV_SCRIPT_DIR = `${ASSET_DIR}/nav`;

const themeCss = [
  new URL('./assets/layout.css', import.meta.url),
  new URL('./assets/highlight.css', import.meta.url),
];
const themeJs = [new URL('./assets/theme.js', import.meta.url)];

const read = (url: URL) => readFileSync(url, 'utf8');

/** Colours of docs.json as the custom properties every stylesheet uses. */
function colorVariables(site: SiteModel): string {
  const { primary, light, dark } = site.config.colors;
  // Brand colours are not chosen for legibility: text uses a variant darkened (light theme) or
  // lightened (dark theme) until it meets WCAG AA on the page background, and text on a primary
  // background is white or near-black, whichever reads better.
  const lightText = readableOn(primary, LIGHT_BG, '#000000');
  const darkText = readableOn(light, DARK_BG, '#ffffff');
  const onPrimary = (color: string) =>
    contrast(color, '#ffffff') >= contrast(color, DARK_BG) ? '#ffffff' : DARK_BG;
  return (
    `:root{--ds-primary:${primary};--ds-primary-light:${light};--ds-primary-dark:${dark};` +
    `--ds-primary-text:${lightText};--ds-primary-contrast:${onPrimary(primary)}}\n` +
    `html[data-theme="dark"]{--ds-primary:${light};--ds-primary-text:${darkText};--ds-primary-contrast:${onPrimary(light)}}\n`
  );
}

const LIGHT_BG = '#ffffff';
const DARK_BG = '#0b0d12';
/** AA for normal text is 4.5:1; a little more covers the tinted surfaces text also sits on. */
const TARGET_CONTRAST = 5;

function rgb(hex: string): [number, number, number] {
  const h = hex.replace('#', '');
  const full = h.length <= 4 ? [...h.slice(0, 3)].map((c) => c + c).join('') : h.slice(0, 6);
  return [0, 2, 4].map((i) => Number.parseInt(full.slice(i, i + 2), 16)) as [number, number, number];
}

function luminance(hex: string): number {
  const [r, g, b] = rgb(hex).map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p) as [number, number];
  return (x + 0.05) / (y + 0.05);
}

/** Mixes `color` toward `toward` in small steps until it reaches the target contrast on `background`. */
function readableOn(color: string, background: string, toward: string): string {
  const from = rgb(color);
  const to = rgb(toward);
  for (let step = 0; step <= 20; step++) {
    const t = step / 20;
    const mixed = `#${from
      .map((v, i) =>
        Math.round(v + ((to[i] as number) - v) * t)
          .toString(16)
          .padStart(2, '0'),
      )
      .join('')}`;
    if (contrast(mixed, background) >= TARGET_CONTRAST) return mixed;
  }
  return toward;
}

/** The site's one stylesheet and one script: theme, components, API pages and search together. */
export function siteAssets(
  site: SiteModel,
  options: ExportOptions,
  warn: (message: string) => void = () => {},
  /** CSS generated for the site's pages (their Tailwind classes), last so it wins. */
  generatedCss = '',
): Array<{ path: string; contents: string }> {
  const css = [
    colorVariables(site),
    ...themeCss.map(read),
    ...componentAssets.css.map(read),
    read(DIAGRAMS_CSS),
    ...openapiAssets.css.map(read),
    ...(options.features.search ? searchAssets.css.map(read) : []),
    // Last, so that the site's background and fonts override the theme's.
    appearanceCss(site, options, warn),
    generatedCss,
  ].join('\n');
  const js = [
    ...themeJs.map(read),
    ...componentAssets.js.map(read),
    ...(options.features.search ? searchAssets.js.map(read) : []),
  ].join('\n;\n');
  return [
    { path: SITE_CSS, contents: css },
    { path: SITE_JS, contents: js },
  ];
}

/**
 * Navigation scripts for sections too large to inline in every page (see FULL_NAV_LIMIT): one per
 * section, a list of top-level groups with their entries as [label, href from the root, method].
 * Loaded with a script tag, so it works from file:// too. The site model's URLs were screened
 * when it was loaded; a link the URL policy refuses is still never written here.
 */
export function navigationScript(site: SiteModel, sectionIndex: number): { path: string; contents: string } {
  type Entry = [string, string, string?] | { g: string; c: Entry[] };
  const toEntries = (items: SiteNavItem[]): Entry[] =>
    items.flatMap((item): Entry[] => {
      if (item.kind === 'page') {
        const page = site.pages[item.page];
        if (!page?.listed || !page.rendered) return [];
        const external =
          page.externalUrl && isAllowedUrl(page.externalUrl, 'link') ? page.externalUrl : undefined;
        const entry: Entry = [page.sidebarTitle ?? page.title, external ?? page.output];
        if (page.operation) entry.push(page.operation.method);
        return [entry];
      }
      if (item.kind === 'link') return isAllowedUrl(item.href, 'link') ? [[item.label, item.href]] : [];
      return [{ g: item.label, c: toEntries(item.items) }];
    });
  const groups = (site.sections[sectionIndex]?.items ?? []).map((item) =>
    item.kind === 'group' ? toEntries(item.items) : [],
  );
  return {
    path: `${NAV_SCRIPT_DIR}/section-${sectionIndex}.js`,
    contents: `DocsnapNav.register(${sectionIndex},${JSON.stringify(groups)});\n`,
  };
}
