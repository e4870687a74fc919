import { slug } from 'github-slugger';
import { overBudget } from '../budgets.ts';
import { ExportError, type SourceProblem } from '../errors.ts';
import {
  type FetchRemoteSpec,
  findOperation,
  loadSpecSource,
  type OpenApiSpec,
  parseOperationRef,
  UnsupportedOperationRefError,
} from '../openapi/index.ts';
import { budgetsOf, type ExportOptions } from '../options.ts';
import { defaultSection } from '../output/site-files.ts';
import { resolveConfigRefs } from './config-refs.ts';
import { type PageMeta, splitFrontmatter } from './frontmatter.ts';
import { ignoredFiles } from './ignored-files.ts';
import { flattenNavigation, type NavItem, type NavSection, type ScopeChoice } from './navigation.ts';
import { expandOpenapiNavigation } from './openapi-navigation.ts';
import { selectsPage, unknownPaths, unknownPathsMessage } from './page-selection.ts';
import { readPageSource } from './page-source.ts';
import { DocsRepository } from './repository.ts';
import { outputFor, routeOf, toRoute } from './routes.ts';
import { screenSite } from './screen-site.ts';
import { languageChrome, parseJsonFile, parseSiteConfig, type SiteConfig } from './site-config.ts';
import { importedPageFiles, inSnippetsFolder } from './snippet-paths.ts';

/** An OpenAPI operation a page documents, with the local file that describes it. */
export interface OperationSource {
  /** Repository-relative path of the OpenAPI file, or undefined when only a remote URL was named. */
  file?: string;
  /** The source as written (a URL for remote documents), for messages. */
  source: string;
  method: string;
  path: string;
}

/** One output page: plain data, so it can be sent to render workers. */
export interface PageSpec {
  /** Route without extension: "" for the home page, "quickstart/server". */
  route: string;
  /** Output file: "index.html", "quickstart/server.html". */
  output: string;
  /** The .mdx/.md file, when the page has one (OpenAPI navigation entries have none). */
  source?: string;
  operation?: OperationSource;
  title: string;
  sidebarTitle?: string;
  description?: string;
  icon?: string;
  mode?: string;
  /** External URL from frontmatter `url`: the navigation links there. */
  externalUrl?: string;
  /** Shown in the sidebar (in the navigation and not `hidden`). */
  listed: boolean;
  noindex: boolean;
  /** False for pages left out by the `paths` option: they keep their place but are not rendered. */
  rendered: boolean;
  /** `directory`: the page is a group's root page, with the group's other entries listed below it. */
  directory?: { style: 'card' | 'accordion'; items: SiteNavItem[] };
  /** Section (header tab) the page belongs to; pages outside the navigation use their nearest one. */
  section: number;
  breadcrumb: string[];
}

/**
 * Whether search engines and the site's search see a page: a listed one unless it says `noindex`;
 * with `seo.indexing: "all"`, hidden ones and those outside the navigation as well.
 */
export function isIndexed(site: Pick<SiteModel, 'config'>, page: PageSpec): boolean {
  return page.rendered && !page.noindex && (page.listed || site.config.indexing === 'all');
}

export type SiteNavItem =
  | { kind: 'page'; page: number }
  | { kind: 'link'; label: string; href: string; icon?: string }
  | { kind: 'group'; label: string; icon?: string; expanded: boolean; tag?: string; items: SiteNavItem[] };

export interface SiteSection {
  label: string;
  icon?: string;
  /** The languages, versions, products, dropdowns and tabs that lead to the section, outermost first. */
  path: ScopeChoice[];
  /** Not shown in the header (`hidden` in docs.json); its pages are built. */
  hidden?: boolean;
  items: SiteNavItem[];
  /** Index of the first page of the section, its landing page. */
  firstPage: number;
}

/** Everything about a site that rendering needs, read once before pages are rendered. */
export interface SiteModel {
  root: string;
  config: SiteConfig;
  sections: SiteSection[];
  globalLinks: { label: string; href: string; icon?: string }[];
  /** Pages in navigation order, then pages outside the navigation. */
  pages: PageSpec[];
  /** Static files copied as they are (images, media, fonts, downloads). */
  assets: string[];
  /** Custom stylesheets of the repository, included in every page. */
  stylesheets: string[];
  /** The repository's own scripts (`.js`), included in every page only when the export asks for them. */
  scripts: string[];
  warnings: SourceProblem[];
}

const PAGE_EXTENSIONS = ['.mdx', '.md'];
const isPageFile = (file: string) => PAGE_EXTENSIONS.some((ext) => file.endsWith(ext));
const STATIC_EXTENSIONS = new Set(
  'png jpg jpeg gif svg webp avif ico bmp mp4 webm ogg mov mp3 wav woff woff2 ttf otf eot pdf zip txt csv'.split(
    ' ',
  ),
);

/**
 * `fetchRemoteSpec`: how OpenAPI documents named by URL are fetched when the export opts in
 * (options.remoteSpecs); without it only copies fetched earlier are read.
 */
export async function loadSite(
  dir: string,
  options: ExportOptions,
  fetchRemoteSpec?: FetchRemoteSpec,
): Promise<SiteModel> {
  const repo = DocsRepository.open(dir);
  const budgets = budgetsOf(options);
  const warnings: SourceProblem[] = [];
  const configFile = repo.exists('docs.json')
    ? 'docs.json'
    : repo.exists('mint.json')
      ? 'mint.json'
      : undefined;
  if (!configFile) throw new ExportError(`no docs.json (or legacy mint.json) in ${repo.root}`, []);
  const written = parseJsonFile(repo.readText(configFile), configFile);
  const config = parseSiteConfig(resolveConfigRefs(repo, configFile, written, budgets), configFile);
  const refused = new Map<string, string>();
  const files = repo.listFiles(
    budgets,
    (path, reason) => {
      refused.set(path, reason);
      warnings.push({ file: path, message: reason });
    },
    ignoredFiles(repo, warnings),
  );
  // What the platform builds past with a warning, and `strict` refuses.
  const lenient: SourceProblem[] = [];
  const fileSet = new Set(files);
  const pages: PageSpec[] = [];
  const pageByRoute = new Map<string, number>();
  const missing: SourceProblem[] = [];
  const usedRoutes = new Set<string>();

  // An OpenAPI source mapped to a local copy, or named by URL (read only when the export opted in
  // to fetching, options.remoteSpecs): not looked for in the repository.
  const elsewhere = (source: string): { file: string | undefined } | undefined => {
    const override = options.openapiOverrides?.[source];
    if (override) return { file: repo.normalize(override) };
    if (/^https?:\/\//i.test(source)) return { file: options.remoteSpecs ? source : undefined };
    return undefined;
  };
  const resolveOpenapiFile = (source: string, location: string): string | undefined => {
    const named = elsewhere(source);
    if (named) return named.file;
    const path = repo.normalize(source, { file: configFile });
    if (!fileSet.has(path))
      missing.push({
        file: configFile,
        message: `${location}: OpenAPI file ${JSON.stringify(source)} does not exist`,
      });
    return path;
  };
  // A page's `openapi: file METHOD /path` names its file relative to the page, or from the root.
  const pageOpenapiFile = (source: string, page: string): string | undefined => {
    const named = elsewhere(source);
    if (named) return named.file;
    const candidates = candidatePaths(repo, source, page);
    const found = candidates.find((path) => fileSet.has(path));
    if (found) return found;
    lenient.push({
      file: page,
      message:
        candidates.length === 0
          ? `frontmatter openapi: refused path ${JSON.stringify(source)}: it leaves the repository; the page is built without the operation`
          : `frontmatter openapi: OpenAPI file ${JSON.stringify(source)} does not exist (looked beside the page and from the repository root); the page is built without the operation`,
    });
    return undefined;
  };

  const specs = new Map<string, Promise<OpenApiSpec | Error>>();
  const loadSpec = (file: string): Promise<OpenApiSpec | Error> => {
    let spec = specs.get(file);
    if (!spec) {
      spec = loadSpecSource(file, {
        repoRoot: repo.root,
        maxDepth: budgets.documentDepth,
        remote: options.remoteSpecs,
        fetch: fetchRemoteSpec,
      }).catch((error: Error) => error);
      specs.set(file, spec);
    }
    return spec;
  };
  const navigation = flattenNavigation(
    await expandOpenapiNavigation(config.navigation, {
      configFile,
      fileOf: resolveOpenapiFile,
      load: loadSpec,
      warnings,
      maxDepth: budgets.navigationDepth,
    }),
    configFile,
    config.openapi,
    config.name,
    { maxDepth: budgets.navigationDepth },
  );
  warnings.push(...navigation.warnings, ...config.notes);
  // Each language that sets its own banner, navbar or footer: read once, like the site's.
  for (const section of navigation.sections)
    for (const choice of section.path)
      if (choice.overrides && !choice.chrome)
        choice.chrome = languageChrome(config, choice.overrides, choice.location);

  // Every page file is read once, here: pages need its frontmatter, OpenAPI stubs are matched by
  // it, and the files it imports are snippets rather than pages.
  const metas = new Map<string, PageMeta>();
  const imported = new Set<string>();
  const readPage = (file: string): PageMeta => {
    const text = readPageSource(repo, file, budgets.pageSourceBytes);
    const frontmatter = splitFrontmatter(text, file);
    if (frontmatter.problem) lenient.push(frontmatter.problem);
    metas.set(file, frontmatter.meta);
    for (const snippet of importedPageFiles(repo, text, file)) imported.add(snippet);
    return frontmatter.meta;
  };
  for (const file of files) if (isPageFile(file) && !inSnippetsFolder(file)) readPage(file);
  const pageFiles = [...metas.keys()];
  // A navigation entry may name a file in a snippets folder: it is a page then.
  const metaOf = (path: string): PageMeta => metas.get(path) ?? readPage(path);
  // An MDX file whose frontmatter documents an operation ("openapi: GET /x") is the page of that
  // operation: a navigation entry naming the operation uses it instead of generating another page.
  const stubs = new Map<string, string>();
  for (const [file, meta] of metas) {
    const ref = meta.openapi ? operationRef(meta.openapi, () => {}) : undefined;
    if (ref) stubs.set(`${ref.method.toUpperCase()} ${ref.path}`, file);
  }

  const pageFromFile = (
    path: string,
    section: number,
    breadcrumb: string[],
    listed: boolean,
    openapi?: string,
  ): PageSpec => {
    const meta = metaOf(path);
    const route = routeOf(path);
    let operation: OperationSource | undefined;
    if (meta.openapi) {
      const ref = operationRef(meta.openapi, (message) => warnings.push({ file: path, message }));
      if (!ref)
        warnings.push({
          file: path,
          message: `frontmatter openapi: ${JSON.stringify(meta.openapi)} is not "METHOD /path"`,
        });
      else {
        const source = ref.file ?? openapi ?? config.openapi;
        if (!source)
          warnings.push({
            file: path,
            message: `frontmatter openapi: no OpenAPI file is named for ${meta.openapi} (set openapi in ${configFile})`,
          });
        else if (ref.file) {
          const file = pageOpenapiFile(ref.file, path);
          if (file) operation = { source, file, method: ref.method, path: ref.path };
        } else
          operation = { source, file: resolveOpenapiFile(source, path), method: ref.method, path: ref.path };
      }
    }
    if (!meta.title) warnings.push({ file: path, message: 'no title in frontmatter; using the file name' });
    return {
      route,
      output: outputFor(route),
      source: path,
      operation,
      title: meta.title ?? humanize(route.split('/').pop() || config.name),
      sidebarTitle: meta.sidebarTitle,
      description: meta.description,
      icon: meta.icon,
      mode: meta.mode,
      externalUrl: meta.url,
      listed: listed && !meta.hidden,
      rendered: true,
      noindex: meta.noindex === true,
      section,
      breadcrumb,
    };
  };

  const findPageFile = (route: string): string | undefined => {
    const candidates = route === '' ? ['index'] : [route, `${route}/index`];
    for (const base of candidates)
      for (const ext of PAGE_EXTENSIONS) if (fileSet.has(`${base}${ext}`)) return `${base}${ext}`;
    return undefined;
  };

  const operationTitle = async (
    file: string | undefined,
    method: string,
    path: string,
  ): Promise<string | undefined> => {
    if (!file) return undefined;
    const spec = await loadSpec(file);
    if (spec instanceof Error) return undefined;
    return findOperation(spec, method, path)?.summary;
  };

  const referencePage = new Map<number, number>();
  const nextSuffix = new Map<string, number>();
  for (const [index, reference] of navigation.references.entries()) {
    let unsupported = false;
    const op = operationRef(reference.text, (message) => {
      unsupported = true;
      warnings.push({ file: configFile, message: `${reference.location}: ${message}` });
    });
    if (unsupported) continue;
    const stub = op ? stubs.get(`${op.method.toUpperCase()} ${op.path}`) : undefined;
    if (op && stub && !pageByRoute.has(routeOf(stub))) {
      pages.push(
        pageFromFile(
          stub,
          reference.section,
          reference.breadcrumb,
          !reference.hidden,
          op.file ?? reference.openapi,
        ),
      );
      pageByRoute.set(routeOf(stub), pages.length - 1);
      usedRoutes.add(routeOf(stub));
      referencePage.set(index, pages.length - 1);
      continue;
    }
    if (op) {
      const source = op.file ?? reference.openapi;
      if (!source) {
        missing.push({
          file: configFile,
          message: `${reference.location}: ${JSON.stringify(reference.text)} names no OpenAPI file (set openapi on docs.json or an enclosing level)`,
        });
        continue;
      }
      const file = resolveOpenapiFile(source, reference.location);
      const summary = await operationTitle(file, op.method, op.path);
      // Generated from an `openapi` level: the platform's URL (its directory, then the tag); else under the tab.
      const directory = reference.apiFolder ?? (slug(reference.breadcrumb[0] ?? '') || 'api-reference');
      const base = `${directory}/${slug(summary ?? `${op.method} ${op.path}`) || 'operation'}`;
      // Taken routes get a number; the next number is remembered, so that many entries naming
      // the same operation cost linear time, not quadratic.
      let route = base;
      let n = nextSuffix.get(base) ?? 2;
      while (usedRoutes.has(route) || fileSet.has(`${route}.mdx`)) route = `${base}-${n++}`;
      nextSuffix.set(base, n);
      route = toRoute(route, `${configFile}: ${reference.location}`);
      usedRoutes.add(route);
      pages.push({
        route,
        output: outputFor(route),
        operation: { source, file, method: op.method.toUpperCase(), path: op.path },
        title: summary ?? `${op.method.toUpperCase()} ${op.path}`,
        listed: !reference.hidden,
        rendered: true,
        noindex: false,
        section: reference.section,
        breadcrumb: reference.breadcrumb,
      });
      referencePage.set(index, pages.length - 1);
      continue;
    }
    let normalized: string;
    try {
      normalized = repo.normalize(reference.text, { file: configFile });
    } catch (error) {
      missing.push({
        file: configFile,
        message: `${reference.location}: ${(error as Error).message.replace(`${configFile}: `, '')}`,
      });
      continue;
    }
    let route: string;
    try {
      route = toRoute(normalized, reference.location);
    } catch (error) {
      missing.push({ file: configFile, message: (error as Error).message });
      continue;
    }
    const existing = pageByRoute.get(route);
    if (existing !== undefined) {
      referencePage.set(index, existing);
      continue;
    }
    const file = findPageFile(route);
    const refusedLink = [`${route}.mdx`, `${route}.md`].find((candidate) => refused.has(candidate));
    if (!file && refusedLink) {
      missing.push({
        file: configFile,
        message: `${reference.location}: ${refusedLink}: ${refused.get(refusedLink)?.replace(/^[^:]+: /, '')}`,
      });
      continue;
    }
    if (!file) {
      lenient.push({
        file: configFile,
        message: `${reference.location}: page ${JSON.stringify(reference.text)} does not exist (no ${route || 'index'}.mdx or .md, or .mintignore leaves it out); the entry is left out of the navigation`,
      });
      continue;
    }
    repo.absolute(file, { file: configFile });
    pages.push(
      pageFromFile(file, reference.section, reference.breadcrumb, !reference.hidden, reference.openapi),
    );
    pageByRoute.set(route, pages.length - 1);
    usedRoutes.add(route);
    referencePage.set(index, pages.length - 1);
  }
  missing.push(...unsafeRedirects(config));
  if (missing.length > 0)
    throw new ExportError(
      `${configFile}: ${missing.length} entr${missing.length === 1 ? 'y' : 'ies'} of the navigation or redirects cannot be used`,
      missing,
    );

  // Every page file outside the navigation is a page too, reachable by its URL, as the platform
  // serves it: except snippets (in a snippets folder, or imported by a page) and ignored files.
  const orphans = pageFiles.filter((file) => !imported.has(file) && !usedRoutes.has(routeOf(file)));
  // Counted before they are placed: a repository of many page files fails early.
  if (pages.length + orphans.length > budgets.pages)
    tooManyPages(pages.length + orphans.length, budgets.pages, configFile);
  const sectionOf = nearestSections(pages);
  for (const file of orphans) {
    let route: string;
    try {
      route = toRoute(file, 'file name');
    } catch (error) {
      warnings.push({ file, message: `${(error as Error).message}; the page is left out` });
      continue;
    }
    if (pageByRoute.has(route) || usedRoutes.has(route)) continue;
    const section = sectionOf(route);
    pages.push(
      pageFromFile(
        file,
        section,
        pages.find((p) => p.section === section)?.breadcrumb.slice(0, 1) ?? [],
        false,
      ),
    );
    pageByRoute.set(route, pages.length - 1);
    usedRoutes.add(route);
    sectionOf.add(route, section);
  }

  const convert = (items: NavItem[]): SiteNavItem[] =>
    items.flatMap((item): SiteNavItem[] => {
      if (item.kind === 'page') {
        const page = referencePage.get(item.ref);
        return page === undefined ? [] : [{ kind: 'page', page }];
      }
      if (item.kind === 'link') return [item];
      // A hidden group is not shown; its pages are built, unlisted.
      if (item.hidden) return [];
      const { hidden: _, directory, ...group } = item;
      const converted: SiteNavItem = { ...group, items: convert(item.items) };
      // Every entry left out (pages that do not exist): no empty heading in the sidebar.
      if (converted.items.length === 0 && item.items.length > 0) return [];
      const [root, ...children] = converted.items;
      const rootPage = directory && root?.kind === 'page' ? pages[root.page] : undefined;
      if (rootPage) rootPage.directory = { style: directory as 'card' | 'accordion', items: children };
      return [converted];
    });
  const sections = navigation.sections.map((section: NavSection, index): SiteSection => {
    const first = pages.findIndex((p) => p.section === index && p.listed);
    return {
      label: section.label,
      icon: section.icon,
      path: section.path,
      ...(section.hidden ? { hidden: true } : {}),
      items: convert(section.items),
      firstPage: Math.max(first, 0),
    };
  });

  if (options.strict && lenient.length > 0)
    throw new ExportError(
      `${lenient.length} problem${lenient.length === 1 ? '' : 's'} the platform builds past, refused because the export is strict`,
      lenient,
    );
  warnings.push(...lenient);

  if (pages.length > budgets.pages) tooManyPages(pages.length, budgets.pages, configFile);
  selectPaths(pages, options.paths, homeRoute(pages, sections));
  const site: SiteModel = {
    root: repo.root,
    config,
    sections,
    globalLinks: navigation.globalLinks,
    pages,
    assets: files.filter((f) => STATIC_EXTENSIONS.has(extensionOf(f)) || isOpenApiFile(repo, f)),
    stylesheets: files.filter((f) => f.endsWith('.css')),
    scripts: files.filter((f) => f.endsWith('.js')),
    warnings,
  };
  screenSite(site);
  return site;
}

/**
 * Redirect sources become output files: one that could escape the output or mislead is refused.
 * Sources with parameters or wildcards are not files (reported later, when redirects are written).
 */
function unsafeRedirects(config: SiteConfig): SourceProblem[] {
  const problems: SourceProblem[] = [];
  config.redirects.forEach((redirect, index) => {
    if (/[:*]/.test(redirect.source)) return;
    try {
      toRoute(redirect.source, `redirects[${index}].source`);
    } catch (error) {
      problems.push({ file: config.configFile, message: (error as Error).message });
    }
  });
  return problems;
}

/**
 * The section of a page outside the navigation: that of the first page sharing the longest run of
 * leading folders with it (0 when none does). Indexed by folder prefix, so that many such pages
 * cost linear time; `add` records a page placed since.
 */
function nearestSections(pages: PageSpec[]): ((route: string) => number) & {
  add: (route: string, section: number) => void;
} {
  const byPrefix = new Map<string, number>();
  const add = (route: string, section: number) => {
    const parts = route.split('/');
    for (let length = 1; length <= parts.length; length++) {
      const prefix = parts.slice(0, length).join('/');
      if (!byPrefix.has(prefix)) byPrefix.set(prefix, section);
    }
  };
  for (const page of pages) add(page.route, page.section);
  const sectionOf = (route: string) => {
    const folders = route.split('/').slice(0, -1);
    for (let length = folders.length; length >= 1; length--) {
      const section = byPrefix.get(folders.slice(0, length).join('/'));
      if (section !== undefined) return section;
    }
    return 0;
  };
  return Object.assign(sectionOf, { add });
}

function tooManyPages(count: number, limit: number, configFile: string): never {
  throw overBudget({ file: configFile }, `the site has ${count} pages, more than ${limit}`, 'pages');
}

/**
 * The spec's optional `paths` (page-selection.ts): the pages they do not select are marked so that
 * navigation and links leave them out. A path that names no page and no folder is an error listing
 * every such path, rather than a smaller export than the caller asked for.
 */
function selectPaths(pages: PageSpec[], paths: string[] | undefined, home: string): void {
  if (!paths || paths.length === 0) return;
  const unknown = unknownPaths(
    paths,
    pages.map((page) => page.route),
    home,
  );
  if (unknown.length > 0) throw new ExportError(unknownPathsMessage(unknown), []);
  for (const page of pages) page.rendered = paths.some((path) => selectsPage(path, page.route, home));
}

/** The home page's route: the index page, or the first page of the default section (index.html's target). */
export function homeRoute(pages: PageSpec[], sections: SiteSection[]): string {
  if (pages.some((page) => page.route === '')) return '';
  return pages[sections[defaultSection({ sections })]?.firstPage ?? 0]?.route ?? '';
}

/** An OpenAPI reference, or undefined; kinds we cannot render (webhooks) are reported, not fatal. */
function operationRef(text: string, report: (message: string) => void): ReturnType<typeof parseOperationRef> {
  try {
    return parseOperationRef(text);
  } catch (error) {
    if (!(error instanceof UnsupportedOperationRefError)) throw error;
    report(`${error.message}; no page was made for it`);
    return undefined;
  }
}

const extensionOf = (file: string) => file.split('.').pop()?.toLowerCase() ?? '';

/**
 * OpenAPI documents of the repository are served at their path, as the platform serves them
 * (pages link to "/openapi.json" to offer the download); other JSON and YAML files are not.
 */
function isOpenApiFile(repo: DocsRepository, file: string): boolean {
  if (!['json', 'yaml', 'yml'].includes(extensionOf(file)) || file === 'docs.json' || file === 'mint.json')
    return false;
  return /["']?(?:openapi|swagger)["']?\s*:\s*["']?\d/.test(repo.readOpening(file, 4096));
}

function humanize(name: string): string {
  const words = name.replace(/[-_]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * Where a path a page names may be: beside the page when relative, then from the repository root
 * (where the platform's examples put it); only from the root when it starts with "/". A path
 * leaving the repository is no candidate.
 */
function candidatePaths(repo: DocsRepository, source: string, page: string): string[] {
  const candidates: string[] = [];
  for (const from of source.startsWith('/') ? [undefined] : [{ file: page }, undefined]) {
    try {
      candidates.push(repo.normalize(source, from));
    } catch {
      // leaves the repository from there
    }
  }
  return candidates;
}
