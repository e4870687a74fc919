import { posix } from 'node:path';
import type { SourceProblem } from '../errors.ts';
import { isExternal, safeDecode } from '../pages/links.ts';
import { isAllowedUrl, refusedUrlMessage, type UrlUse } from '../url-policy.ts';
import type { SiteModel, SiteNavItem } from './load-site.ts';
import type { SiteChrome } from './site-config.ts';

/** The output folder of the files docsnap generates (theme, navigation and search scripts). */
export const GENERATED_DIR = '_docsnap';

/** Plausible's documented host; a `server` elsewhere would load a script from anywhere. */
const PLAUSIBLE_HOST = 'plausible.io';

/**
 * Holds what the site model took from docs.json and frontmatter to the export's policies, once,
 * when the site is loaded, so that the layout, the navigation scripts and the redirect pages only
 * ever see what passed:
 *
 * - every URL (navbar, anchors, navigation links, footer, logo, favicon, redirects, page `url`)
 *   to the URL policy: a refused one is left out with a warning naming its file and field;
 * - repository files under `_docsnap/` are not published: that folder is the theme's, whose
 *   scripts load files from it;
 * - Plausible analytics with a `server` other than plausible.io is left out.
 */
export function screenSite(site: SiteModel): void {
  const { config } = site;
  const file = config.configFile;
  const problems = site.warnings;
  const allowed = (url: string, field: string, use: UrlUse, where: string = file): boolean => {
    if (isAllowedUrl(url, use)) return true;
    problems.push({ file: where, message: `${refusedUrlMessage(url, field, use)}; left out` });
    return false;
  };

  /** The navbar and footer of the site, or of one language (`prefix` "navigation.languages[1]."). */
  const screenChrome = (chrome: SiteChrome, prefix: string): void => {
    chrome.navbarLinks = chrome.navbarLinks.filter((link, i) =>
      allowed(link.href, `${prefix}navbar.links[${i}]`, 'link'),
    );
    if (chrome.navbarPrimary && !allowed(chrome.navbarPrimary.href, `${prefix}navbar.primary`, 'link'))
      chrome.navbarPrimary = undefined;
    chrome.footerSocials = chrome.footerSocials.filter((social) =>
      allowed(social.href, `${prefix}footer.socials.${social.name}`, 'link'),
    );
    chrome.footerLinks = chrome.footerLinks.map((column, c) => ({
      ...column,
      items: column.items.filter((item, i) =>
        allowed(item.href, `${prefix}footer.links[${c}].items[${i}]`, 'link'),
      ),
    }));
  };
  screenChrome(config, '');
  const languages = new Set(
    site.sections.flatMap((section) => section.path.filter((choice) => choice.chrome)),
  );
  for (const language of languages)
    if (language.chrome) screenChrome(language.chrome, `${language.location}.`);
  if (config.logo) {
    const { light, dark, href } = config.logo;
    if (!allowed(light, 'logo', 'image') || !allowed(dark, 'logo', 'image')) config.logo = undefined;
    else if (href !== undefined && !allowed(href, 'logo.href', 'link')) config.logo = { light, dark };
  }
  if (config.favicon && !allowed(config.favicon, 'favicon', 'image')) config.favicon = undefined;
  if (config.faviconDark && !allowed(config.faviconDark, 'favicon.dark', 'image'))
    config.faviconDark = undefined;
  screenSiteImages(site);
  config.redirects = config.redirects.filter((redirect, i) =>
    allowed(redirect.destination, `redirects[${i}].destination`, 'link'),
  );

  site.globalLinks = site.globalLinks.filter((link) =>
    allowed(link.href, `navigation link "${link.label}"`, 'link'),
  );
  const screenItems = (items: SiteNavItem[]): SiteNavItem[] =>
    items.flatMap((item): SiteNavItem[] => {
      if (item.kind === 'group') return [{ ...item, items: screenItems(item.items) }];
      if (item.kind === 'link' && !allowed(item.href, `navigation link "${item.label}"`, 'link')) return [];
      return [item];
    });
  for (const section of site.sections) section.items = screenItems(section.items);
  for (const page of site.pages) {
    if (page.externalUrl !== undefined && !allowed(page.externalUrl, 'frontmatter url', 'link', page.source))
      page.externalUrl = undefined;
  }

  const outsideGenerated = (path: string): boolean => {
    if (!path.startsWith(`${GENERATED_DIR}/`)) return true;
    problems.push({
      file: path,
      message: `${GENERATED_DIR}/ holds the files docsnap generates: not published`,
    });
    return false;
  };
  site.assets = site.assets.filter(outsideGenerated);
  site.stylesheets = site.stylesheets.filter(outsideGenerated);
  site.scripts = site.scripts.filter(outsideGenerated);
  screenAnalytics(config.integrations, file, problems);
}

function screenAnalytics(
  integrations: Record<string, unknown>,
  file: string,
  problems: SourceProblem[],
): void {
  const plausible = integrations.plausible as { server?: unknown } | undefined;
  if (plausible?.server === undefined) return;
  const host = String(plausible.server)
    .replace(/^https?:\/\//i, '')
    .replace(/\/+$/, '');
  if (host.toLowerCase() === PLAUSIBLE_HOST) return;
  problems.push({
    file,
    message: `integrations.plausible.server ${JSON.stringify(host)}: analytics load only from ${PLAUSIBLE_HOST}; Plausible left out`,
  });
  delete integrations.plausible;
}

/**
 * The logo and favicons name files of the repository: one that does not exist is one warning on
 * docs.json, naming the field, and is left out (rather than a broken link on every page). A
 * logo with one of its two files keeps the other for both themes.
 */
function screenSiteImages(site: SiteModel): void {
  const { config } = site;
  const assets = new Set(site.assets);
  const exists = (path: string, field: string): boolean => {
    if (isExternal(path) || path.startsWith('data:')) return true;
    const file = posix.normalize(`/${safeDecode(path.split(/[?#]/)[0] ?? '')}`).slice(1);
    if (assets.has(file)) return true;
    site.warnings.push({
      file: config.configFile,
      message: `${field}: ${JSON.stringify(path)} does not exist; left out`,
    });
    return false;
  };
  if (config.logo) {
    const { light, dark } = config.logo;
    const lightFound = exists(light, light === dark ? 'logo' : 'logo.light');
    const darkFound = light === dark ? lightFound : exists(dark, 'logo.dark');
    if (!lightFound && !darkFound) config.logo = undefined;
    else config.logo = { ...config.logo, light: lightFound ? light : dark, dark: darkFound ? dark : light };
  }
  if (config.favicon && !exists(config.favicon, 'favicon')) config.favicon = undefined;
  if (config.faviconDark && !exists(config.faviconDark, 'favicon.dark')) config.faviconDark = undefined;
}
