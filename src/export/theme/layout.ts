import type { Element, ElementContent } from 'hast';
import { h } from 'hastscript';
import { iconElement } from '../components/index.ts';
import type { ExportOptions } from '../options.ts';
import type { TocEntry } from '../pages/headings.ts';
import { isExternal, relativeUrl, rootPrefix } from '../pages/links.ts';
import type { PageSpec, SiteModel, SiteNavItem } from '../source/load-site.ts';
import { type Analytics, analytics } from './analytics.ts';
import { NAV_SCRIPT_DIR, SITE_CSS, SITE_JS } from './assets.ts';
import { policyMeta } from './csp.ts';

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

export interface LayoutInput {
  site: SiteModel;
  pageIndex: number;
  content: ElementContent[];
  toc: TocEntry[];
  options: ExportOptions;
  resolveHref: (href: string) => string;
  resolveAsset: (src: string) => string;
  /** Listed-page counts per section, to decide between the full and the lazy sidebar. */
  sectionSizes: number[];
}

/**
 * Header and footer are the same for every page of a section in the same folder (links are
 * relative to the folder): built once per worker and reused, which matters on large sites.
 */
const chromeCache = new WeakMap<SiteModel, Map<string, Element>>();
function cached(input: LayoutInput, part: string, build: () => Element): Element {
  const page = input.site.pages[input.pageIndex] as PageSpec;
  let cache = chromeCache.get(input.site);
  if (!cache) {
    cache = new Map();
    chromeCache.set(input.site, cache);
  }
  const folder = (path: string) => path.slice(0, path.lastIndexOf('/') + 1);
  const key = `${part}\0${page.section}\0${folder(page.output)}\0${folder(page.source ?? page.output)}`;
  let element = cache.get(key);
  if (!element) {
    element = build();
    cache.set(key, element);
  }
  return element;
}

const icon = (name: string, library: SiteModel['config']['iconLibrary']) =>
  iconElement(name, { library, className: 'ds-icon' });

export function renderLayout(input: LayoutInput): Element {
  const { site, pageIndex, options } = input;
  const page = site.pages[pageIndex] as PageSpec;
  const root = rootPrefix(page.output);
  const config = site.config;
  const title =
    page.route === '' || page.title === config.name ? config.name : `${page.title} - ${config.name}`;
  const mode = page.mode ?? 'default';
  const showSidebar = mode !== 'custom';
  const showToc = mode === 'default' && input.toc.length > 0;
  const shared = sharedHead(site, options);

  const head: ElementContent[] = [
    h('meta', { charSet: 'utf-8' }),
    shared.policy,
    h('meta', { name: 'viewport', content: 'width=device-width, initial-scale=1' }),
    h('title', title),
    ...(page.description ? [h('meta', { name: 'description', content: page.description })] : []),
    ...(page.noindex || !page.listed ? [h('meta', { name: 'robots', content: 'noindex' })] : []),
    ...(options.siteUrl ? [h('link', { rel: 'canonical', href: canonicalUrl(options.siteUrl, page) })] : []),
    h('meta', { name: 'generator', content: 'docsnap' }),
    ...(config.favicon ? [h('link', { rel: 'icon', href: input.resolveAsset(config.favicon) })] : []),
    h('link', { rel: 'stylesheet', href: `${root}${SITE_CSS}` }),
    ...site.stylesheets.map((css) => h('link', { rel: 'stylesheet', href: relativeUrl(page.output, css) })),
    // Runs before first paint so a dark page never flashes light.
    h('script', shared.bootstrap),
    h('script', { src: `${root}${SITE_JS}`, defer: true }),
    ...shared.analytics.tags,
  ];

  const body: ElementContent[] = [
    h('a', { className: ['ds-skip'], href: '#content' }, 'Skip to content'),
    cached(input, 'header', () => header(input)),
    h('div', { className: ['ds-shell', `ds-mode-${mode}`] }, [
      ...(showSidebar ? [sidebar(input)] : []),
      h('main', { id: 'content', className: ['ds-main'], tabIndex: -1 }, [
        h('article', { className: ['ds-article'] }, [
          h('header', { className: ['ds-page-header'] }, [
            ...(page.breadcrumb.length > 1
              ? [h('p', { className: ['ds-eyebrow'] }, page.breadcrumb.at(-1))]
              : []),
            h('h1', { className: ['ds-title'] }, page.title),
            ...(page.description ? [h('p', { className: ['ds-description'] }, page.description)] : []),
          ]),
          h('div', { className: ['ds-content'] }, input.content),
        ]),
        pagination(input),
        cached(input, 'footer', () => footer(input)),
      ]),
      ...(showToc ? [tableOfContents(input.toc)] : []),
    ]),
  ];

  // The theme's settings live on <html>, which content cannot write (see theme.js).
  return h(
    'html',
    {
      lang: 'en',
      dataRoot: root || './',
      dataSection: String(page.section),
      ...(isLazy(input) ? { dataNavScript: `${NAV_SCRIPT_DIR}/section-${page.section}.js` } : {}),
      dataTheme: config.appearance.default === 'dark' ? 'dark' : 'light',
    },
    [h('head', head), h('body', body)],
  );
}

/** What every page's <head> shares, built once per worker: the policy hashes the inline scripts. */
interface SharedHead {
  options: ExportOptions;
  bootstrap: string;
  analytics: Analytics;
  policy: Element;
}
const sharedHeads = new WeakMap<SiteModel, SharedHead>();
function sharedHead(site: SiteModel, options: ExportOptions): SharedHead {
  let shared = sharedHeads.get(site);
  if (shared?.options !== options) {
    const bootstrap = themeBootstrap(site.config.appearance);
    const tags = analytics(site.config, options);
    const policy = policyMeta({
      deployment: options.deployment,
      inlineScripts: [bootstrap, ...tags.inlineScripts],
      scriptOrigins: tags.scriptOrigins,
      connectOrigins: tags.connectOrigins,
    });
    shared = { options, bootstrap, analytics: tags, policy };
    sharedHeads.set(site, shared);
  }
  return shared;
}

/** A sidebar too large to inline: its other top-level groups are filled from a navigation script. */
function isLazy(input: LayoutInput): boolean {
  const page = input.site.pages[input.pageIndex] as PageSpec;
  return page.mode !== 'custom' && (input.sectionSizes[page.section] ?? 0) > FULL_NAV_LIMIT;
}

function canonicalUrl(siteUrl: string, page: PageSpec): string {
  return `${siteUrl.replace(/\/+$/, '')}/${page.output === 'index.html' ? '' : page.output}`;
}

function themeBootstrap(appearance: SiteModel['config']['appearance']): string {
  const strict = appearance.strict ? 'true' : 'false';
  return `(function(){var d=document.documentElement,s=${JSON.stringify(appearance.default)},t=null;try{if(!${strict})t=localStorage.getItem('ds-theme')}catch(e){}if(t!=='light'&&t!=='dark')t=s==='system'?(matchMedia('(prefers-color-scheme: dark)').matches?'dark':'light'):s;d.dataset.theme=t})();`;
}

function header(input: LayoutInput): Element {
  const { site, options } = input;
  const page = site.pages[input.pageIndex] as PageSpec;
  const config = site.config;
  const home = relativeUrl(page.output, 'index.html');
  const brand: ElementContent[] = config.logo
    ? [
        h('img', {
          className: ['ds-logo', 'ds-logo-light'],
          src: input.resolveAsset(config.logo.light),
          alt: config.name,
        }),
        h('img', {
          className: ['ds-logo', 'ds-logo-dark'],
          src: input.resolveAsset(config.logo.dark),
          alt: '',
        }),
      ]
    : [h('span', { className: ['ds-site-name'] }, config.name)];
  const sectionLinks = site.sections.map((section, index) => {
    const target = site.pages[section.firstPage];
    const href = target?.rendered ? relativeUrl(page.output, target.output) : '#';
    return h('li', [
      h('a', { href, ...(index === page.section ? { ariaCurrent: 'true', className: ['active'] } : {}) }, [
        ...(section.icon ? [icon(section.icon, config.iconLibrary)].filter(isElement) : []),
        section.label,
      ]),
    ]);
  });
  const links = [...config.navbarLinks, ...site.globalLinks].map((link) =>
    h('li', [
      h(
        'a',
        { href: navHref(input, link.href), ...(isExternal(link.href) ? { rel: ['noopener'] } : {}) },
        link.label,
      ),
    ]),
  );
  return h('header', { className: ['ds-header'] }, [
    h('div', { className: ['ds-header-row'] }, [
      h(
        'button',
        {
          type: 'button',
          className: ['ds-menu-toggle'],
          ariaLabel: 'Open navigation',
          ariaExpanded: 'false',
          ariaControls: 'ds-sidebar',
        },
        [icon('menu', 'lucide') ?? '☰'],
      ),
      h('a', { className: ['ds-brand'], href: home }, brand),
      ...(options.features.search
        ? [
            h(
              'button',
              {
                type: 'button',
                className: ['ds-search-trigger'],
                ariaHaspopup: 'dialog',
                ariaKeyshortcuts: 'Control+K',
              },
              [icon('search', 'lucide') ?? '', h('span', 'Search…'), h('kbd', 'Ctrl K')],
            ),
          ]
        : []),
      h('nav', { className: ['ds-navbar'], ariaLabel: 'Site links' }, [
        h('ul', links),
        ...(config.navbarPrimary
          ? [
              h(
                'a',
                { className: ['ds-navbar-primary'], href: navHref(input, config.navbarPrimary.href) },
                config.navbarPrimary.label,
              ),
            ]
          : []),
      ]),
      h(
        'button',
        { type: 'button', className: ['ds-theme-toggle'], ariaLabel: 'Switch between light and dark theme' },
        [icon('sun', 'lucide') ?? '☀', icon('moon', 'lucide') ?? '☾'],
      ),
    ]),
    ...(site.sections.length > 1
      ? [h('nav', { className: ['ds-tabs'], ariaLabel: 'Sections' }, [h('ul', sectionLinks)])]
      : []),
  ]);
}

/** Links in site chrome: site links resolved like content links, external ones kept. */
function navHref(input: LayoutInput, href: string): string {
  return isExternal(href) ? href : input.resolveHref(href);
}

const isElement = (node: Element | undefined): node is Element => node !== undefined;

function sidebar(input: LayoutInput): Element {
  const { site } = input;
  const page = site.pages[input.pageIndex] as PageSpec;
  const section = site.sections[page.section];
  const lazy = isLazy(input);
  const contains = (item: SiteNavItem): boolean =>
    item.kind === 'page'
      ? item.page === input.pageIndex
      : item.kind === 'group'
        ? item.items.some(contains)
        : false;

  const renderItems = (items: SiteNavItem[], depth: number): ElementContent[] =>
    items.flatMap((item, index): ElementContent[] => {
      if (item.kind === 'page') {
        const target = site.pages[item.page];
        if (!target?.listed || !target.rendered) return [];
        const label = target.sidebarTitle ?? target.title;
        const href = target.externalUrl ?? relativeUrl(page.output, target.output);
        const current = item.page === input.pageIndex;
        return [
          h('li', [
            h('a', { href, ...(current ? { ariaCurrent: 'page', className: ['active'] } : {}) }, [
              ...(target.icon ? [icon(target.icon, site.config.iconLibrary)].filter(isElement) : []),
              ...(target.operation
                ? [
                    h(
                      'span',
                      {
                        className: [
                          'ds-nav-method',
                          `ds-nav-method-${target.operation.method.toLowerCase()}`,
                        ],
                      },
                      target.operation.method,
                    ),
                  ]
                : []),
              label,
            ]),
          ]),
        ];
      }
      if (item.kind === 'link')
        return [
          h('li', [h('a', { href: navHref(input, item.href), className: ['ds-nav-link'] }, item.label)]),
        ];
      const open = contains(item) || item.expanded || depth === 0;
      const heading = [
        ...(item.icon ? [icon(item.icon, site.config.iconLibrary)].filter(isElement) : []),
        item.label,
      ];
      if (depth === 0) {
        if (lazy && !contains(item)) {
          return [
            // Kept minimal: on a large site this stub repeats in every page for every group.
            h('li', [h('details', { dataG: String(index) }, [h('summary', heading)])]),
          ];
        }
        return [
          h('li', { className: ['ds-nav-group'] }, [
            h('p', { className: ['ds-nav-group-title'] }, heading),
            h('ul', renderItems(item.items, depth + 1)),
          ]),
        ];
      }
      return [
        h('li', [
          h('details', { open }, [h('summary', heading), h('ul', renderItems(item.items, depth + 1))]),
        ]),
      ];
    });

  return h('nav', { id: 'ds-sidebar', className: ['ds-sidebar'], ariaLabel: 'Documentation' }, [
    h('ul', section ? renderItems(section.items, 0) : []),
  ]);
}

function tableOfContents(toc: TocEntry[]): Element {
  return h('aside', { className: ['ds-toc'] }, [
    h('nav', { ariaLabelledBy: 'ds-toc-title' }, [
      h('p', { id: 'ds-toc-title', className: ['ds-toc-title'] }, 'On this page'),
      h(
        'ul',
        toc.map((entry) =>
          h('li', { className: [`ds-toc-depth-${entry.depth}`] }, [
            h('a', { href: `#${entry.id}` }, entry.text),
          ]),
        ),
      ),
    ]),
  ]);
}

/** Previous and next listed pages of the same section, in navigation order. */
function pagination(input: LayoutInput): Element {
  const { site } = input;
  const page = site.pages[input.pageIndex] as PageSpec;
  const order = readingOrder(site, page.section);
  const at = order.indexOf(input.pageIndex);
  const link = (index: number | undefined, rel: 'prev' | 'next') => {
    const target = index === undefined ? undefined : site.pages[index];
    if (!target) return [];
    return [
      h('a', { className: [`ds-${rel}`], href: relativeUrl(page.output, target.output), rel }, [
        h('span', { className: ['ds-pagination-label'] }, rel === 'prev' ? 'Previous' : 'Next'),
        h('span', { className: ['ds-pagination-title'] }, target.sidebarTitle ?? target.title),
      ]),
    ];
  };
  return h('nav', { className: ['ds-pagination'], ariaLabel: 'Previous and next pages' }, [
    ...(at > 0 ? link(order[at - 1], 'prev') : []),
    ...(at >= 0 && at < order.length - 1 ? link(order[at + 1], 'next') : []),
  ]);
}

const readingOrders = new WeakMap<SiteModel, Map<number, number[]>>();

/**
 * A section's listed pages in navigation order, each once. Computed once per section: every page
 * of the section needs it, and a section can hold thousands of pages.
 */
function readingOrder(site: SiteModel, sectionIndex: number): number[] {
  let orders = readingOrders.get(site);
  if (!orders) {
    orders = new Map();
    readingOrders.set(site, orders);
  }
  let order = orders.get(sectionIndex);
  if (!order) {
    const seen = new Set<number>();
    const walk = (items: SiteNavItem[]) => {
      for (const item of items) {
        if (item.kind === 'page') {
          const target = site.pages[item.page];
          if (target?.listed && target.rendered && !target.externalUrl) seen.add(item.page);
        } else if (item.kind === 'group') walk(item.items);
      }
    };
    walk(site.sections[sectionIndex]?.items ?? []);
    order = [...seen];
    orders.set(sectionIndex, order);
  }
  return order;
}

function footer(input: LayoutInput): Element {
  const config = input.site.config;
  return h('footer', { className: ['ds-footer'] }, [
    ...(config.footerLinks.length
      ? [
          h(
            'div',
            { className: ['ds-footer-links'] },
            config.footerLinks.map((column) =>
              h('div', [
                ...(column.header ? [h('p', { className: ['ds-footer-header'] }, column.header)] : []),
                h(
                  'ul',
                  column.items.map((item) =>
                    h('li', [h('a', { href: navHref(input, item.href) }, item.label)]),
                  ),
                ),
              ]),
            ),
          ),
        ]
      : []),
    h('div', { className: ['ds-footer-bottom'] }, [
      h('span', config.name),
      h(
        'ul',
        { className: ['ds-socials'] },
        config.footerSocials.map((social) =>
          h('li', [
            h('a', { href: social.href, ariaLabel: social.name, rel: ['noopener'] }, [
              iconElement(social.name === 'x' ? 'x-twitter' : social.name, {
                library: 'fontawesome',
                className: 'ds-icon',
              }) ?? social.name,
            ]),
          ]),
        ),
      ),
    ]),
  ]);
}
