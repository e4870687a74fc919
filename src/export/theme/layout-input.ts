import type { Element, ElementContent } from 'hast';
import { h } from 'hastscript';
import { iconElement, isIconImage } from '../components/index.ts';
import type { ExportOptions } from '../options.ts';
import type { TocEntry } from '../pages/headings.ts';
import { isExternal } from '../pages/links.ts';
import type { PageSpec, SiteModel } from '../source/load-site.ts';
import type { SiteChrome } from '../source/site-config.ts';
import type { PrerenderedParts, PrerenderPolicy } from './prerender.ts';

/**
 * Sections with more listed pages than this render their other top-level groups collapsed and
 * empty; site.js fills them from the section's navigation script when opened. Every page then
 * stays small however large the site is (a 10,000-page site would otherwise repeat a 100 KB
 * sidebar in every file).
 */
export const FULL_NAV_LIMIT = 200;

/** Listed, rendered pages per section: what decides between the full and the lazy sidebar. */
export function listedPagesPerSection(site: SiteModel): number[] {
  const sizes = site.sections.map(() => 0);
  for (const page of site.pages) {
    if (page.listed && page.rendered) sizes[page.section] = (sizes[page.section] ?? 0) + 1;
  }
  return sizes;
}

/** What the layout of one page is built from. */
export interface LayoutInput {
  site: SiteModel;
  pageIndex: number;
  content: ElementContent[];
  toc: TocEntry[];
  options: ExportOptions;
  resolveHref: (href: string) => string;
  resolveAsset: (src: string) => string;
  /** The page's warnings: the policies report what they remove from the layout here. */
  warn: (message: string) => void;
  /** The layout parts the page's renderer has prerendered, to reuse. */
  parts: PrerenderedParts;
  /** Listed-page counts per section, to decide between the full and the lazy sidebar. */
  sectionSizes: number[];
  /** The page has typeset math: its head links KaTeX's stylesheet. */
  math?: boolean;
  /** The page has diagrams: it loads Mermaid to draw them. */
  diagrams?: boolean;
}

export const pageOf = (input: LayoutInput): PageSpec => input.site.pages[input.pageIndex] as PageSpec;

/** The folder part of an output or source path ("guides/a/"), which relative links depend on. */
export const folderOf = (path: string): string => path.slice(0, path.lastIndexOf('/') + 1);

/** A sidebar too large to inline: its other top-level groups are filled from a navigation script. */
export function isLazy(input: LayoutInput): boolean {
  const page = pageOf(input);
  return page.mode !== 'custom' && (input.sectionSizes[page.section] ?? 0) > FULL_NAV_LIMIT;
}

/** Links in site chrome: site links resolved like content links, external ones kept. */
export function navHref(input: LayoutInput, href: string): string {
  return isExternal(href) ? href : input.resolveHref(href);
}

export const icon = (name: string, library: SiteModel['config']['iconLibrary']) =>
  iconElement(name, { library });

/**
 * The icon of a navigation entry: a name from the site's icon library, or a path or URL to an image
 * (a URL on another origin only where the deployment loads from elsewhere).
 */
export function navIcon(input: LayoutInput, value: string): Element | undefined {
  if (!isIconImage(value)) return icon(value, input.site.config.iconLibrary);
  if (isExternal(value) && input.options.deployment === 'air-gapped') return undefined;
  const src = isExternal(value) ? value : input.resolveAsset(value);
  return h('img', { src, alt: '', className: ['ds-icon', 'ds-icon-img'] });
}

export const isElement = <T>(node: T | undefined): node is T => node !== undefined;

/** What the page's layout parts are held to when prerendered: the page's own deployment and warnings. */
export const prerenderPolicy = (input: LayoutInput): PrerenderPolicy => ({
  airGapped: input.options.deployment === 'air-gapped',
  warn: input.warn,
});

/** The banner, navbar and footer of the page's language where it sets its own, else the site's. */
export function chromeOf(input: LayoutInput): SiteChrome {
  const page = pageOf(input);
  return input.site.sections[page.section]?.path.find((choice) => choice.chrome)?.chrome ?? input.site.config;
}
