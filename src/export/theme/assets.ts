import { readFileSync } from 'node:fs';
import { componentAssets } from '../components/index.ts';
import { openapiAssets } from '../openapi/index.ts';
import type { ExportOptions } from '../options.ts';
import { searchAssets } from '../search/index.ts';
import type { SiteModel, SiteNavItem } from '../source/load-site.ts';

/** Output paths of the files every page shares. */
export const ASSET_DIR = '_docsnap';
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
  return `:root{--ds-primary:${primary};--ds-primary-light:${light};--ds-primary-dark:${dark}}\nhtml[data-theme="dark"]{--ds-primary:${light}}\n`;
}

/** The site's one stylesheet and one script: theme, components, API pages and search together. */
export function siteAssets(
  site: SiteModel,
  options: ExportOptions,
): Array<{ path: string; contents: string }> {
  const css = [
    colorVariables(site),
    ...themeCss.map(read),
    ...componentAssets.css.map(read),
    ...openapiAssets.css.map(read),
    ...(options.features.search ? searchAssets.css.map(read) : []),
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
 * Loaded with a script tag, so it works from file:// too.
 */
export function navigationScript(site: SiteModel, sectionIndex: number): { path: string; contents: string } {
  type Entry = [string, string, string?] | { g: string; c: Entry[] };
  const toEntries = (items: SiteNavItem[]): Entry[] =>
    items.flatMap((item): Entry[] => {
      if (item.kind === 'page') {
        const page = site.pages[item.page];
        if (!page?.listed || !page.rendered) return [];
        const entry: Entry = [page.sidebarTitle ?? page.title, page.externalUrl ?? page.output];
        if (page.operation) entry.push(page.operation.method);
        return [entry];
      }
      if (item.kind === 'link') return [[item.label, item.href]];
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
