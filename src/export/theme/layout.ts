import { createHash } from 'node:crypto';
import type { Element, ElementContent } from 'hast';
import { h } from 'hastscript';
import type { Raw } from 'mdast-util-to-hast';
import { iconElement } from '../components/index.ts';
import { canDrawDiagrams, DIAGRAMS_JS, MERMAID_JS } from '../diagrams/mermaid.ts';
import { KATEX_CSS } from '../markdown/math.ts';
import { API_JS } from '../openapi/index.ts';
import type { ExportOptions } from '../options.ts';
import { apiPageOptions } from '../pages/api-page.ts';
import type { TocEntry } from '../pages/headings.ts';
import { isExternal, relativeUrl, rootPrefix } from '../pages/links.ts';
import { isIndexed, type PageSpec, type SiteModel, type SiteNavItem } from '../source/load-site.ts';
import type { SiteChrome } from '../source/site-config.ts';
import { type Analytics, analytics } from './analytics.ts';
import { fontLinks } from './appearance.ts';
import { NAV_SCRIPT_DIR, SITE_CSS, SITE_JS } from './assets.ts';
import { policyMeta } from './csp.ts';
import {
  chromeOf,
  folderOf,
  icon,
  isElement,
  isLazy,
  type LayoutInput,
  navHref,
  navIcon,
  pageOf,
  prerenderPolicy,
} from './layout-input.ts';
import { banner, directoryListing, pageActions } from './page-chrome.ts';
import { prerender } from './prerender.ts';
import { headerTabs, pageLanguage, searchScope } from './scopes.ts';
import { sidebar } from './sidebar.ts';
import { scriptText, uiText } from './strings.ts';
import { languageAlternates, switcherMenus } from './switchers.ts';

/**
 * Header and footer are the same for every page of a section in the same folder (links are
 * relative to the folder): prerendered once per renderer and reused, which matters on large sites.
 */
function prerendered(input: LayoutInput, part: string, build: () => Element): Raw {
  const page = pageOf(input);
  const scope = `${part}\0${page.section}\0${folderOf(page.output)}\0${folderOf(page.source ?? page.output)}`;
  return input.parts.scope(scope)(part, () => prerender(build(), prerenderPolicy(input)));
}

export function renderLayout(input: LayoutInput): Element {
  const { site, options } = input;
  const page = pageOf(input);
  const root = rootPrefix(page.output);
  const config = site.config;
  const title =
    page.route === '' || page.title === config.name ? config.name : `${page.title} - ${config.name}`;
  const mode = page.mode ?? 'default';
  const showSidebar = mode !== 'custom';
  // <Panel> content takes the table of contents' place in the side column, as on the platform.
  const panels = mode === 'default' ? input.content.filter(isPanel) : [];
  const content = panels.length > 0 ? input.content.filter((node) => !isPanel(node)) : input.content;
  // API pages give the table of contents' place to their examples column, as on the platform.
  const apiPage = page.operation !== undefined;
  const showToc = mode === 'default' && input.toc.length > 0 && panels.length === 0 && !apiPage;
  const shared = sharedHead(site, options);
  const dismissKey = bannerKey(chromeOf(input));
  const drawsDiagrams = input.diagrams === true && canDrawDiagrams();

  const head: ElementContent[] = [
    h('meta', { charSet: 'utf-8' }),
    apiPage ? shared.apiPolicy : drawsDiagrams ? shared.diagramPolicy : shared.policy,
    h('meta', { name: 'viewport', content: 'width=device-width, initial-scale=1' }),
    h('title', title),
    ...(page.description ? [h('meta', { name: 'description', content: page.description })] : []),
    ...(isIndexed(site, page) ? [] : [h('meta', { name: 'robots', content: 'noindex' })]),
    ...shared.metatags,
    ...(options.siteUrl ? [h('link', { rel: 'canonical', href: canonicalUrl(options.siteUrl, page) })] : []),
    ...languageAlternates(site, input.pageIndex).map(({ lang, page: other }) =>
      h('link', { rel: 'alternate', hreflang: lang, href: relativeUrl(page.output, other.output) }),
    ),
    h('meta', { name: 'generator', content: 'docsnap' }),
    ...(config.favicon
      ? [
          h('link', {
            rel: 'icon',
            href: input.resolveAsset(config.favicon),
            ...(config.faviconDark ? { media: '(prefers-color-scheme: light)' } : {}),
          }),
        ]
      : []),
    ...(config.faviconDark
      ? [
          h('link', {
            rel: 'icon',
            href: input.resolveAsset(config.faviconDark),
            media: '(prefers-color-scheme: dark)',
          }),
        ]
      : []),
    ...fontLinks(site, options),
    h('link', { rel: 'stylesheet', href: `${root}${SITE_CSS}` }),
    ...(input.math ? [h('link', { rel: 'stylesheet', href: relativeUrl(page.output, KATEX_CSS) })] : []),
    ...site.stylesheets.map((css) => h('link', { rel: 'stylesheet', href: relativeUrl(page.output, css) })),
    // Runs before first paint so a dark page never flashes light.
    h('script', shared.bootstrap),
    ...[scriptText(input)].filter(isElement),
    h('script', { src: `${root}${SITE_JS}`, defer: true }),
    ...(drawsDiagrams
      ? [MERMAID_JS, DIAGRAMS_JS].map((js) => h('script', { src: relativeUrl(page.output, js), defer: true }))
      : []),
    ...(apiPage ? [h('script', { src: relativeUrl(page.output, API_JS), defer: true })] : []),
    ...site.scripts.map((js) => h('script', { src: relativeUrl(page.output, js), defer: true })),
    ...shared.analytics.tags,
  ];

  const body: ElementContent[] = [
    h('a', { className: ['ds-skip'], href: '#content' }, uiText(input).skipToContent),
    ...(chromeOf(input).banner ? [prerendered(input, 'banner', () => banner(input))] : []),
    prerendered(input, 'header', () => header(input)),
    h('div', { className: ['ds-shell', `ds-mode-${mode}`] }, [
      ...(showSidebar ? [sidebar(input, switcherMenus(input))] : []),
      h('main', { id: 'content', className: ['ds-main'], tabIndex: -1 }, [
        h('article', { className: ['ds-article'] }, [
          h('header', { className: ['ds-page-header'] }, [
            ...(page.breadcrumb.length > 1
              ? [
                  h(
                    'p',
                    { className: ['ds-eyebrow'] },
                    config.eyebrows === 'breadcrumbs' ? page.breadcrumb.join(' / ') : page.breadcrumb.at(-1),
                  ),
                ]
              : []),
            h('h1', { className: ['ds-title'] }, page.title),
            ...pageActions(input),
            ...(page.description ? [h('p', { className: ['ds-description'] }, page.description)] : []),
          ]),
          h('div', { className: ['ds-content'] }, content),
          ...directoryListing(input),
        ]),
        pagination(input),
        prerendered(input, 'footer', () => footer(input)),
      ]),
      ...(showToc ? [tableOfContents(input.toc, uiText(input).onThisPage)] : []),
      ...(panels.length > 0 ? [h('aside', { className: ['ds-toc', 'ds-panel-column'] }, panels)] : []),
    ]),
  ];

  // The theme's settings live on <html>, which content cannot write (see theme.js).
  return h(
    'html',
    {
      lang: pageLanguage(site, page),
      ...(dismissKey ? { dataBanner: dismissKey } : {}),
      ...(searchScope(site, page) ? { dataSearchScope: searchScope(site, page) } : {}),
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
  /** The policy of pages with diagrams: Mermaid writes style elements as it draws. */
  diagramPolicy: Element;
  /** The policy of API pages: the playground may connect where the export allows. */
  apiPolicy: Element;
  /** docs.json `seo.metatags`: `og:` and `article:` ones as properties (Open Graph), the rest by name; never http-equiv. */
  metatags: Element[];
}
const sharedHeads = new WeakMap<SiteModel, SharedHead>();
function sharedHead(site: SiteModel, options: ExportOptions): SharedHead {
  let shared = sharedHeads.get(site);
  if (shared?.options !== options) {
    const bootstrap = themeBootstrap(site.config.appearance);
    const tags = analytics(site.config, options);
    const policyInput = {
      deployment: options.deployment,
      inlineScripts: [bootstrap, ...tags.inlineScripts],
      scriptOrigins: tags.scriptOrigins,
      connectOrigins: tags.connectOrigins,
    };
    const policy = policyMeta(policyInput);
    const diagramPolicy = policyMeta({ ...policyInput, runtimeStyles: true });
    const playground = apiPageOptions(site, options).playground;
    const apiPolicy = policyMeta({
      ...policyInput,
      connectOrigins: [
        ...tags.connectOrigins,
        ...(playground ? (playground.origins ?? ['https:', 'http:']) : []),
      ],
    });
    const metatags = Object.entries(site.config.metatags).map(([key, content]) =>
      h('meta', /^(?:og|article|fb):/i.test(key) ? { property: key, content } : { name: key, content }),
    );
    shared = { options, bootstrap, analytics: tags, policy, diagramPolicy, apiPolicy, metatags };
    sharedHeads.set(site, shared);
  }
  return shared;
}

function canonicalUrl(siteUrl: string, page: PageSpec): string {
  return `${siteUrl.replace(/\/+$/, '')}/${page.output === 'index.html' ? '' : page.output}`;
}

function themeBootstrap(appearance: SiteModel['config']['appearance']): string {
  const strict = appearance.strict ? 'true' : 'false';
  // A banner the reader dismissed stays hidden until its text changes (<html data-banner> is the text's hash).
  return `(function(){var d=document.documentElement,s=${JSON.stringify(appearance.default)},t=null;try{if(!${strict})t=localStorage.getItem('ds-theme')}catch(e){}if(t!=='light'&&t!=='dark')t=s==='system'?(matchMedia('(prefers-color-scheme: dark)').matches?'dark':'light'):s;d.dataset.theme=t;try{if(d.dataset.banner&&localStorage.getItem('ds-banner')===d.dataset.banner)d.dataset.bannerDismissed=''}catch(e){}})();`;
}

/** The key a dismissed banner is remembered by: a hash of its text, so a new banner shows again. */
function bannerKey(chrome: SiteChrome): string | undefined {
  const banner = chrome.banner;
  return banner?.dismissible
    ? createHash('sha256').update(banner.content).digest('hex').slice(0, 16)
    : undefined;
}

function header(input: LayoutInput): Element {
  const { site, options } = input;
  const page = pageOf(input);
  const config = site.config;
  // The site's home, or in a site of several languages, versions or products, the home of the reader's.
  const scoped = site.sections[page.section]?.path.some((choice) => choice.kind !== 'tab');
  const homeSection = headerTabs(site, page.section)[0]?.section ?? page.section;
  const scopeHome = scoped ? site.pages[site.sections[homeSection]?.firstPage ?? -1] : undefined;
  const home = relativeUrl(page.output, scopeHome?.rendered ? scopeHome.output : 'index.html');
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
          // One of the two is shown (the other is display: none): each names the link.
          alt: config.name,
        }),
      ]
    : [h('span', { className: ['ds-site-name'] }, config.name)];
  const tabs = headerTabs(site, page.section);
  const sectionLinks = tabs.map((tab) => {
    const target = site.pages[site.sections[tab.section]?.firstPage ?? -1];
    const href = target?.rendered ? relativeUrl(page.output, target.output) : '#';
    return h('li', [
      h('a', { href, ...(tab.current ? { ariaCurrent: 'true', className: ['active'] } : {}) }, [
        ...(tab.icon ? [navIcon(input, tab.icon)].filter(isElement) : []),
        tab.label,
      ]),
    ]);
  });
  const chrome = chromeOf(input);
  const links = [...chrome.navbarLinks, ...site.globalLinks].map((link) =>
    h('li', [
      h('a', { href: navHref(input, link.href), ...(isExternal(link.href) ? { rel: ['noopener'] } : {}) }, [
        ...(link.icon ? [navIcon(input, link.icon)].filter(isElement) : []),
        link.label,
      ]),
    ]),
  );
  return h('header', { className: ['ds-header'] }, [
    h('div', { className: ['ds-header-row'] }, [
      h(
        'button',
        {
          type: 'button',
          className: ['ds-menu-toggle'],
          ariaLabel: uiText(input).openNavigation,
          ariaExpanded: 'false',
          ariaControls: 'ds-sidebar',
        },
        [icon('menu', 'lucide') ?? '☰'],
      ),
      h(
        'a',
        { className: ['ds-brand'], href: config.logo?.href ? navHref(input, config.logo.href) : home },
        brand,
      ),
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
              [
                icon('search', 'lucide') ?? '',
                h('span', site.config.searchPrompt ?? uiText(input).search),
                h('kbd', 'Ctrl K'),
              ],
            ),
          ]
        : []),
      h('nav', { className: ['ds-navbar'], ariaLabel: 'Site links' }, [
        h('ul', links),
        ...(chrome.navbarPrimary
          ? [
              h(
                'a',
                { className: ['ds-navbar-primary'], href: navHref(input, chrome.navbarPrimary.href) },
                chrome.navbarPrimary.label,
              ),
            ]
          : []),
      ]),
      h('button', { type: 'button', className: ['ds-theme-toggle'], ariaLabel: uiText(input).switchTheme }, [
        icon('sun', 'lucide') ?? '☀',
        icon('moon', 'lucide') ?? '☾',
      ]),
    ]),
    ...(tabs.length > 1 || site.sections[tabs[0]?.section ?? -1]?.path.some((choice) => choice.kind === 'tab')
      ? [h('nav', { className: ['ds-tabs'], ariaLabel: 'Sections' }, [h('ul', sectionLinks)])]
      : []),
  ]);
}

/** A `<Panel>` at the top level of the page's content. */
function isPanel(node: ElementContent): boolean {
  return (
    node.type === 'element' &&
    Array.isArray(node.properties.className) &&
    node.properties.className.includes('ds-panel')
  );
}

function tableOfContents(toc: TocEntry[], title: string): Element {
  return h('aside', { className: ['ds-toc'] }, [
    h('nav', { ariaLabelledBy: 'ds-toc-title' }, [
      h('p', { id: 'ds-toc-title', className: ['ds-toc-title'] }, title),
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
  const page = pageOf(input);
  const order = readingOrder(site, page.section);
  const at = order.indexOf(input.pageIndex);
  const link = (index: number | undefined, rel: 'prev' | 'next') => {
    const target = index === undefined ? undefined : site.pages[index];
    if (!target) return [];
    return [
      h('a', { className: [`ds-${rel}`], href: relativeUrl(page.output, target.output), rel }, [
        h(
          'span',
          { className: ['ds-pagination-label'] },
          rel === 'prev' ? uiText(input).previous : uiText(input).next,
        ),
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
  const chrome = chromeOf(input);
  return h('footer', { className: ['ds-footer'] }, [
    ...(chrome.footerLinks.length
      ? [
          h(
            'div',
            { className: ['ds-footer-links'] },
            chrome.footerLinks.map((column) =>
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
        chrome.footerSocials.map((social) =>
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
