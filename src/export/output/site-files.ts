import type { SourceProblem } from '../errors.ts';
import type { ExportOptions } from '../options.ts';
import { isExternal, relativeUrl } from '../pages/links.ts';
import { isIndexed, type SiteModel } from '../source/load-site.ts';
import { outputFor, routeOf } from '../source/routes.ts';
import { contentSecurityPolicy } from '../theme/csp.ts';
import { isAllowedUrl } from '../url-policy.ts';

/** A file of the site that is not a page: written as it is into the output. */
export interface SiteFile {
  path: string;
  contents: string;
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
const escapeXml = escapeHtml;

/** Pages without a script or a style of their own, which load nothing (redirect pages). */
const NOTHING_ACTIVE = escapeHtml(contentSecurityPolicy({ deployment: 'air-gapped' }));

/** A static page that sends the browser on (meta refresh works on every host and from file://). */
function redirectPage(from: string, to: string, name: string): string {
  const target = isExternal(to) ? to : relativeUrl(from, to);
  const href = escapeHtml(target);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${NOTHING_ACTIVE}">
<title>Redirecting… - ${escapeHtml(name)}</title>
<meta name="robots" content="noindex"><meta http-equiv="refresh" content="0; url=${href}">
<link rel="canonical" href="${href}"></head>
<body><p>This page has moved to <a href="${href}">${href}</a>.</p></body></html>
`;
}

/**
 * docs.json redirects as static redirect pages, and the home page when the site has no index
 * page. Redirects whose source has parameters or wildcards cannot be static files: reported.
 */
export function redirectFiles(site: SiteModel, warnings: SourceProblem[]): SiteFile[] {
  const files: SiteFile[] = [];
  const taken = new Set(site.pages.filter((p) => p.rendered).map((p) => p.output));
  const targetOf = (destination: string): string | undefined => {
    // Destinations were held to the URL policy when the site was loaded; never write another.
    if (isExternal(destination)) return isAllowedUrl(destination, 'link') ? destination : undefined;
    const [path = '', hash] = destination.split('#');
    const route = routeOf(path);
    const page = site.pages.find((p) => p.route === route && p.rendered);
    if (!page) return undefined;
    return hash ? `${page.output}#${hash}` : page.output;
  };
  for (const redirect of site.config.redirects) {
    if (/[:*]/.test(redirect.source)) {
      warnings.push({
        file: site.config.configFile,
        message: `redirect ${redirect.source}: parameters and wildcards need a server; not exported`,
      });
      continue;
    }
    const output = outputFor(routeOf(redirect.source));
    if (taken.has(output)) continue;
    const target = targetOf(redirect.destination);
    if (!target) {
      warnings.push({
        file: site.config.configFile,
        message: `redirect ${redirect.source} → ${redirect.destination}: the destination is not a page of this export`,
      });
      continue;
    }
    files.push({ path: output, contents: redirectPage(output, target, site.config.name) });
    taken.add(output);
  }
  if (!taken.has('index.html')) {
    const first =
      site.pages[site.sections[defaultSection(site)]?.firstPage ?? 0] ?? site.pages.find((p) => p.rendered);
    if (first)
      files.push({
        path: 'index.html',
        contents: redirectPage('index.html', first.output, site.config.name),
      });
  }
  return files;
}

/**
 * 404.html is served by static hosts for any missing path, at any depth, so relative links to the
 * stylesheet would break: it is self-contained and links home through the site URL when known.
 */
export function notFoundPage(site: SiteModel, options: ExportOptions): SiteFile {
  const home = options.siteUrl ? escapeHtml(`${options.siteUrl.replace(/\/+$/, '')}/`) : '/';
  const primary = escapeHtml(site.config.colors.primary);
  const style = `body{margin:0;min-height:100vh;display:grid;place-items:center;font:16px/1.6 system-ui,sans-serif;background:#fff;color:#111827}
@media (prefers-color-scheme: dark){body{background:#0b0d12;color:#e5e7eb}}main{text-align:center;padding:24px}
h1{font-size:28px;margin:0 0 8px}a{color:${primary}}`;
  const policy = escapeHtml(contentSecurityPolicy({ deployment: options.deployment, inlineStyles: [style] }));
  // errors.404: the site's own words, its description as plain text (the page stands alone, unstyled by the theme).
  const { notFound } = site.config;
  const title = escapeHtml(notFound.title ?? 'Page not found');
  const description = notFound.description
    ? escapeHtml(plainText(notFound.description))
    : `The page you are looking for does not exist in ${escapeHtml(site.config.name)}.`;
  return {
    path: '404.html',
    contents: `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${policy}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} - ${escapeHtml(site.config.name)}</title><meta name="robots" content="noindex">
<style>${style}</style></head>
<body><main><p>404</p><h1>${title}</h1><p>${description}</p>
<p><a href="${home}">Go to the home page</a></p></main></body></html>
`,
  };
}

/** sitemap.xml, only when the site URL is known (a sitemap needs absolute URLs). */
export function sitemap(site: SiteModel, options: ExportOptions): SiteFile | undefined {
  if (!options.siteUrl) return undefined;
  const base = options.siteUrl.replace(/\/+$/, '');
  const urls = site.pages
    .filter((p) => isIndexed(site, p))
    .map(
      (p) => `  <url><loc>${escapeXml(`${base}/${p.output === 'index.html' ? '' : p.output}`)}</loc></url>`,
    );
  return {
    path: 'sitemap.xml',
    contents: `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`,
  };
}

/** The Markdown copy of a page sits next to its HTML file. */
export function markdownPath(output: string): string {
  return output.replace(/\.html$/, '.md');
}

/** llms.txt (llmstxt.org): the site's pages by section, linking to their Markdown copies. */
export function llmsIndex(site: SiteModel, options: ExportOptions): SiteFile {
  const base = options.siteUrl ? `${options.siteUrl.replace(/\/+$/, '')}/` : '';
  const lines = [`# ${site.config.name}`, ''];
  if (site.config.description) lines.push(`> ${site.config.description}`, '');
  site.sections.forEach((section, index) => {
    const pages = site.pages.filter((p) => p.section === index && p.rendered && p.listed);
    if (pages.length === 0) return;
    lines.push(`## ${section.label}`, '');
    for (const page of pages) {
      lines.push(
        `- [${page.title}](${base}${markdownPath(page.output)})${page.description ? `: ${page.description}` : ''}`,
      );
    }
    lines.push('');
  });
  return { path: 'llms.txt', contents: `${lines.join('\n').trimEnd()}\n` };
}

/** Markdown as the text a reader sees: links, emphasis and code marks dropped. */
function plainText(markdown: string): string {
  return markdown
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]*>/g, '')
    .replace(/[*_`~]+/g, '')
    .trim();
}

/**
 * The section a reader lands on at the site's root: the one reached by the default language,
 * version, product or dropdown at every level (`default: true`, else the first), as the platform
 * opens a site.
 */
export function defaultSection(site: Pick<SiteModel, 'sections'>): number {
  let candidates = site.sections.map((_, index) => index);
  for (let depth = 0; candidates.length > 1; depth++) {
    const choices = candidates.map((index) => site.sections[index]?.path[depth]);
    // A section reached by nothing more at this level (top-level groups) comes first, as it is written first.
    if (choices[0] === undefined) break;
    const chosen =
      choices.find((choice) => choice?.default) ?? choices.find((choice) => choice !== undefined);
    candidates = candidates.filter((_, i) => {
      const choice = choices[i];
      return choice === undefined ? false : choice.kind === chosen?.kind && choice.label === chosen.label;
    });
  }
  return candidates[0] ?? 0;
}
