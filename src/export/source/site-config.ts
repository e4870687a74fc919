import { z } from 'zod';
import { describeIssues } from '../../contract/issues.ts';
import { ExportError, lineAndColumn, type SourceProblem } from '../errors.ts';
import { sampleLanguage } from '../openapi/sample-languages.ts';
import type { IconLibrary } from '../render-context.ts';

/**
 * docs.json (and the legacy mint.json), validated leniently: the fields docsnap uses must be of
 * the right type; every other key of the format is accepted and ignored, so a real repository
 * never fails for a setting we do not render.
 */

const colorSchema = z
  .string()
  .regex(/^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/, 'expected a hex color like #0D9373');
const lightDark = z.object({ light: z.string(), dark: z.string(), href: z.string().optional() });
const linkSchema = z.looseObject({ label: z.string(), href: z.string(), icon: z.string().optional() });
const navbarLinkSchema = z
  .looseObject({
    type: z.enum(['github', 'discord']).optional(),
    label: z.string().optional(),
    href: z.string(),
    icon: z.string().optional(),
  })
  .refine(
    (link) => link.label !== undefined || link.type !== undefined,
    'a link without a type needs a label',
  );
const fontSchema = z.looseObject({
  family: z.string(),
  weight: z.number().optional(),
  source: z.string().optional(),
  format: z.enum(['woff', 'woff2']).optional(),
});

const docsJsonSchema = z.looseObject({
  name: z.string().min(1, 'must not be empty'),
  description: z.string().optional(),
  theme: z.string().optional(), // every theme of the format is accepted; one layout renders them all
  colors: z
    .looseObject({ primary: colorSchema, light: colorSchema.optional(), dark: colorSchema.optional() })
    .optional(),
  logo: z.union([z.string(), lightDark]).optional(),
  favicon: z.union([z.string(), lightDark]).optional(),
  navigation: z.looseObject({}),
  navbar: z
    .looseObject({
      links: z.array(navbarLinkSchema).optional(),
      primary: z
        .looseObject({
          type: z.enum(['button', 'github', 'discord']).optional(),
          label: z.string().optional(),
          href: z.string(),
        })
        .optional(),
    })
    .optional(),
  banner: z
    .looseObject({
      content: z.string(),
      dismissible: z.boolean().optional(),
      type: z.enum(['info', 'warning', 'critical']).optional(),
      color: z.union([colorSchema, z.looseObject({ light: colorSchema, dark: colorSchema })]).optional(),
    })
    .optional(),
  errors: z
    .looseObject({
      '404': z
        .looseObject({
          redirect: z.boolean().optional(),
          title: z.string().optional(),
          description: z.string().optional(),
        })
        .optional(),
    })
    .optional(),
  styling: z
    .looseObject({
      eyebrows: z.enum(['section', 'breadcrumbs']).optional(),
      codeblocks: z.union([z.string(), z.looseObject({})]).optional(),
      latex: z.boolean().optional(),
    })
    .optional(),
  background: z
    .looseObject({
      decoration: z.enum(['gradient', 'grid', 'windows']).optional(),
      image: z.union([z.string(), z.looseObject({ light: z.string(), dark: z.string() })]).optional(),
      color: z.looseObject({ light: colorSchema.optional(), dark: colorSchema.optional() }).optional(),
    })
    .optional(),
  fonts: fontSchema
    .partial({ family: true })
    .extend({ heading: fontSchema.optional(), body: fontSchema.optional() })
    .optional(),
  contextual: z
    .looseObject({
      options: z.array(z.union([z.string(), z.looseObject({ title: z.string(), href: z.unknown() })])),
      display: z.enum(['header', 'toc']).optional(),
    })
    .optional(),
  api: z
    .looseObject({
      playground: z
        .looseObject({
          display: z.enum(['interactive', 'simple', 'none', 'auth']).optional(),
          proxy: z.boolean().optional(),
        })
        .optional(),
      examples: z
        .looseObject({
          languages: z.array(z.string()).optional(),
          defaults: z.enum(['required', 'all']).optional(),
          prefill: z.boolean().optional(),
          autogenerate: z.boolean().optional(),
        })
        .optional(),
      mdx: z.looseObject({ auth: z.unknown().optional(), server: z.unknown().optional() }).optional(),
    })
    .optional(),
  variations: z
    .looseObject({
      options: z
        .array(
          z.looseObject({
            id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'ids are letters, digits, _ and -'),
            label: z.string(),
          }),
        )
        .min(1),
    })
    .optional(),
  variables: z
    .record(z.string().regex(/^[A-Za-z0-9-]+$/, 'names are letters, digits and hyphens'), z.string())
    .optional(),
  footer: z
    .looseObject({
      socials: z.record(z.string(), z.string()).optional(),
      links: z.array(z.looseObject({ header: z.string().optional(), items: z.array(linkSchema) })).optional(),
    })
    .optional(),
  redirects: z
    .array(z.looseObject({ source: z.string(), destination: z.string(), permanent: z.boolean().optional() }))
    .optional(),
  appearance: z
    .looseObject({ default: z.enum(['system', 'light', 'dark']).optional(), strict: z.boolean().optional() })
    .optional(),
  icons: z.looseObject({ library: z.enum(['fontawesome', 'lucide', 'tabler']).optional() }).optional(),
  openapi: z.union([z.string(), z.array(z.string()), z.looseObject({ source: z.string() })]).optional(),
  integrations: z.looseObject({}).optional(),
  search: z.looseObject({ prompt: z.string().optional() }).optional(),
  seo: z
    .looseObject({
      indexing: z.enum(['navigable', 'all']).optional(),
      metatags: z.record(z.string(), z.string()).optional(),
    })
    .optional(),
});

const mintJsonSchema = z.looseObject({
  name: z.string().min(1, 'must not be empty'),
  colors: z
    .looseObject({ primary: colorSchema, light: colorSchema.optional(), dark: colorSchema.optional() })
    .optional(),
  logo: z.union([z.string(), lightDark]).optional(),
  favicon: z.string().optional(),
  navigation: z.array(z.looseObject({ group: z.string(), pages: z.array(z.unknown()) })),
  tabs: z.array(z.looseObject({ name: z.string(), url: z.string() })).optional(),
  primaryTab: z.looseObject({ name: z.string() }).optional(),
  anchors: z
    .array(z.looseObject({ name: z.string(), url: z.string(), icon: z.string().optional() }))
    .optional(),
  topbarLinks: z.array(z.looseObject({ name: z.string().optional(), url: z.string() })).optional(),
  topbarCtaButton: z.looseObject({ name: z.string().optional(), url: z.string() }).optional(),
  footerSocials: z
    .union([z.record(z.string(), z.string()), z.array(z.looseObject({ type: z.string(), url: z.string() }))])
    .optional(),
  redirects: z
    .array(z.looseObject({ source: z.string(), destination: z.string(), permanent: z.boolean().optional() }))
    .optional(),
  openapi: z.union([z.string(), z.array(z.string())]).optional(),
  api: z
    .looseObject({
      baseUrl: z.union([z.string(), z.array(z.string())]).optional(),
      playground: z.looseObject({ mode: z.enum(['show', 'simple', 'hide']).optional() }).optional(),
      request: z
        .looseObject({
          example: z.looseObject({ languages: z.array(z.string()).optional() }).optional(),
        })
        .optional(),
    })
    .optional(),
});

export interface SiteConfig {
  configFile: 'docs.json' | 'mint.json';
  name: string;
  description?: string;
  theme: string;
  colors: { primary: string; light: string; dark: string };
  logo?: { light: string; dark: string; href?: string };
  favicon?: string;
  /** `favicon.dark`: the icon for dark color schemes, when it differs. */
  faviconDark?: string;
  navbarLinks: { label: string; href: string; icon?: string }[];
  navbarPrimary?: { label: string; href: string };
  footerSocials: { name: string; href: string }[];
  footerLinks: { header?: string; items: { label: string; href: string }[] }[];
  redirects: { source: string; destination: string; permanent: boolean }[];
  appearance: { default: 'system' | 'light' | 'dark'; strict: boolean };
  iconLibrary: IconLibrary;
  /** The site-wide OpenAPI source, inherited by every navigation entry that names none. */
  openapi?: string;
  /** Web analytics settings as written (`integrations`); used only where the deployment allows. */
  integrations: Record<string, unknown>;
  /** docs.json's navigation object (mint.json's is converted to this shape). */
  navigation: Record<string, unknown>;
  /**
   * `seo.indexing`: "navigable" (the default) keeps pages outside the navigation, and hidden ones,
   * out of search engines and the site's search; "all" indexes every page.
   */
  indexing: 'navigable' | 'all';
  /** `seo.metatags`: meta tags on every page, by name (or `og:` property). */
  metatags: Record<string, string>;
  /** `search.prompt`: the search box's placeholder. */
  searchPrompt?: string;
  /** `banner`: a line above every page; `content` is inline Markdown. */
  banner?: {
    content: string;
    dismissible: boolean;
    type: 'info' | 'warning' | 'critical';
    color?: { light: string; dark: string };
  };
  /** `errors.404`: the not-found page's title and text. */
  notFound: { title?: string; description?: string };
  /** `styling.eyebrows`: the label above a page's title, its group ("section") or its whole path. */
  eyebrows: 'section' | 'breadcrumbs';
  background: {
    decoration?: 'gradient' | 'grid' | 'windows';
    image?: { light: string; dark: string };
    color?: { light?: string; dark?: string };
  };
  /** `fonts`: the body and heading fonts; a family with no source is a Google Fonts family. */
  fonts: { body?: FontSetting; heading?: FontSetting };
  /** `contextual.options` the export can offer without the platform: copy the page as Markdown, view it. */
  contextual: Array<'copy' | 'view'>;
  /** `variables`: `{{name}}` in pages is replaced with the value. */
  variables: Record<string, string>;
  /** docs.json `api`: how API pages show samples and the playground. */
  api: ApiSettings;
  /** `variations.options`: what `<Variation is>` chooses between; the first is the default. */
  variations: Array<{ id: string; label: string }>;
  /** Settings of the format that cannot apply to a static site, or not yet: accepted, one note each. */
  notes: SourceProblem[];
}

/** docs.json `api` as API pages apply it. */
export interface ApiSettings {
  /** `playground.display`: `auth` (the platform's credentials-only view) shows as `simple`. */
  playground: 'interactive' | 'simple' | 'none';
  /** `examples.languages`, as the sample generator names them (samples.ts); the platform's defaults when unset. */
  languages?: string[];
  /** `examples.defaults`: samples with required parameters only (the default), or all. */
  requiredOnly: boolean;
  /** `examples.prefill`: the playground's inputs hold the examples. */
  prefill: boolean;
  /** `examples.autogenerate: false`: only the document's own samples. */
  autogenerate: boolean;
  /** mint.json `api.baseUrl`: the servers of operations whose document names none. */
  baseUrls?: string[];
}

const DEFAULT_API: ApiSettings = {
  playground: 'interactive',
  requiredOnly: true,
  prefill: false,
  autogenerate: true,
};

/** What a language of `navigation.languages` may set for itself: its banner, navbar and footer. */
export type SiteChrome = Pick<
  SiteConfig,
  'banner' | 'navbarLinks' | 'navbarPrimary' | 'footerSocials' | 'footerLinks'
>;

/**
 * A language's own banner, navbar and footer (`navigation.languages[].banner` …), read like the
 * site's: the site's own where the language sets none. Errors name the language's location.
 */
export function languageChrome(
  site: SiteConfig,
  overrides: Record<string, unknown>,
  location: string,
): SiteChrome {
  let parsed: SiteConfig;
  try {
    parsed = parseSiteConfig({ name: site.name, navigation: {}, ...overrides }, 'docs.json');
  } catch (error) {
    if (!(error instanceof ExportError)) throw error;
    throw new ExportError(
      `${site.configFile} has invalid settings`,
      error.problems.map((problem) => ({ ...problem, message: `${location}.${problem.message}` })),
    );
  }
  return {
    banner: 'banner' in overrides ? parsed.banner : site.banner,
    navbarLinks: 'navbar' in overrides ? parsed.navbarLinks : site.navbarLinks,
    navbarPrimary: 'navbar' in overrides ? parsed.navbarPrimary : site.navbarPrimary,
    footerSocials: 'footer' in overrides ? parsed.footerSocials : site.footerSocials,
    footerLinks: 'footer' in overrides ? parsed.footerLinks : site.footerLinks,
  };
}

export interface FontSetting {
  family: string;
  weight?: number;
  source?: string;
  format?: 'woff' | 'woff2';
}

/** Parses JSON, reporting a syntax error with its line and column. */
export function parseJsonFile(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const position = /position (\d+)/.exec(message);
    const where = position ? lineAndColumn(text, Number(position[1])) : undefined;
    throw new ExportError(`${file} is not valid JSON`, [
      { file, ...where, message: message.replace(/^JSON\.parse: /, '') },
    ]);
  }
}

function zodProblems(error: z.ZodError, file: string): SourceProblem[] {
  return describeIssues(error).map((message) => ({ file, message }));
}

function apiSettings(api: DocsJson['api']): ApiSettings {
  const display = api?.playground?.display;
  const languages = api?.examples?.languages?.flatMap((name) => sampleLanguage(name) ?? []);
  return {
    playground: display === 'auth' ? 'simple' : (display ?? 'interactive'),
    ...(languages ? { languages } : {}),
    requiredOnly: api?.examples?.defaults !== 'all',
    prefill: api?.examples?.prefill === true,
    autogenerate: api?.examples?.autogenerate !== false,
  };
}

/** mint.json `api`: the playground's mode, sample languages and base URLs, as docs.json's `api` reads them. */
function mintApiSettings(api: z.infer<typeof mintJsonSchema>['api']): ApiSettings {
  const mode = api?.playground?.mode;
  const languages = api?.request?.example?.languages?.flatMap((name) => sampleLanguage(name) ?? []);
  const baseUrls = (typeof api?.baseUrl === 'string' ? [api.baseUrl] : (api?.baseUrl ?? [])).filter((url) =>
    /^https?:\/\//i.test(url),
  );
  return {
    ...DEFAULT_API,
    playground: mode === 'hide' ? 'none' : mode === 'simple' ? 'simple' : 'interactive',
    ...(languages ? { languages } : {}),
    ...(baseUrls.length > 0 ? { baseUrls } : {}),
  };
}

function unknownSampleLanguages(api: DocsJson['api']): string[] {
  return (api?.examples?.languages ?? []).filter((name) => sampleLanguage(name) === undefined);
}

function firstOpenapi(value: string | string[] | { source: string } | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value[0];
  return value.source;
}

const DEFAULT_PRIMARY = '#16A34A';

type DocsJson = z.infer<typeof docsJsonSchema>;

function fontsOf(fonts: DocsJson['fonts']): SiteConfig['fonts'] {
  if (!fonts) return {};
  const own = fonts.family
    ? { family: fonts.family, weight: fonts.weight, source: fonts.source, format: fonts.format }
    : undefined;
  return {
    ...((fonts.body ?? own) ? { body: fonts.body ?? own } : {}),
    ...((fonts.heading ?? own) ? { heading: fonts.heading ?? own } : {}),
  } as SiteConfig['fonts'];
}

/** Integrations the export includes (theme/analytics.ts); customScripts has a note of its own. */
const SUPPORTED_INTEGRATIONS = new Set(['plausible', 'ga4', 'customScripts']);

/** Contextual options that need the platform's cloud (an assistant, an AI tool, an MCP server). */
const CLOUD_OPTIONS = (options: unknown[]) =>
  options
    .filter((option) => option !== 'copy' && option !== 'view')
    .map((option) =>
      typeof option === 'string' ? option : `"${String((option as { title?: unknown }).title)}"`,
    );

/**
 * One note per documented setting the export accepts but cannot apply (it needs the platform's
 * servers), or does not apply yet; each says what the export does instead.
 */
function notesOf(c: DocsJson, file: string): SourceProblem[] {
  const notes: Array<[boolean, string]> = [
    [
      c.errors?.['404']?.redirect !== undefined,
      'errors.404.redirect: a static host decides what it serves for a missing page; 404.html is written, the redirect is not',
    ],
    [
      c.contextual !== undefined && CLOUD_OPTIONS(c.contextual.options).length > 0,
      `contextual.options ${CLOUD_OPTIONS(c.contextual?.options ?? []).join(', ')}: these need the platform's cloud and cannot apply to a static site; "copy" and "view" are offered`,
    ],
    [
      c.thumbnails !== undefined,
      'thumbnails: social images are generated by the platform; they cannot apply to a static site (seo.metatags can name one)',
    ],
    [
      c.metadata !== undefined,
      'metadata.timestamp: last-modified dates are not supported yet; pages show none',
    ],
    [
      c.interaction !== undefined,
      'interaction.drilldown is not supported yet: group titles expand their group',
    ],
    [
      c.styling?.codeblocks !== undefined && c.styling.codeblocks !== 'system',
      "styling.codeblocks: other code block themes are not supported yet; code blocks follow the site's color scheme",
    ],
    [
      c.styling?.latex !== undefined,
      'styling.latex is not supported yet: the page is rendered without LaTeX styles',
    ],
    [
      c.seo?.organization !== undefined,
      'seo.organization: structured data is not supported yet; it is accepted and ignored',
    ],
    [
      c.api?.playground?.proxy !== undefined,
      "api.playground.proxy: a static site has no server to relay requests; the playground sends them from the reader's browser, which the API must allow (CORS). It is accepted and ignored",
    ],
    [
      c.api?.mdx !== undefined,
      'api.mdx: endpoints defined in MDX frontmatter are not supported yet; it is accepted and ignored',
    ],
    [
      unknownSampleLanguages(c.api).length > 0,
      `api.examples.languages ${unknownSampleLanguages(c.api).join(', ')}: no sample generator for these; they are left out`,
    ],
    [
      c.integrations?.customScripts !== undefined,
      "integrations.customScripts: the site's own scripts are not loaded (exported pages run only docsnap's scripts); it is accepted and ignored",
    ],
  ];
  const analytics = Object.keys(c.integrations ?? {}).filter((name) => !SUPPORTED_INTEGRATIONS.has(name));
  if (analytics.length > 0)
    notes.push([
      true,
      `integrations.${analytics.join(', integrations.')}: not supported yet; the export includes no script for ${analytics.length === 1 ? 'it' : 'them'} (plausible and ga4 are)`,
    ]);
  return notes.flatMap(([applies, message]) => (applies ? [{ file, message }] : []));
}

/** Reads docs.json (or mint.json) from a parsed JSON value into the normalized configuration. */
export function parseSiteConfig(raw: unknown, configFile: 'docs.json' | 'mint.json'): SiteConfig {
  if (configFile === 'mint.json') return fromMintJson(raw);
  const parsed = docsJsonSchema.safeParse(raw);
  if (!parsed.success)
    throw new ExportError(`${configFile} has invalid settings`, zodProblems(parsed.error, configFile));
  const c = parsed.data;
  const primary = c.colors?.primary ?? DEFAULT_PRIMARY;
  const logo = typeof c.logo === 'string' ? { light: c.logo, dark: c.logo } : c.logo;
  return {
    configFile,
    name: c.name,
    description: c.description,
    theme: c.theme ?? 'mint',
    colors: { primary, light: c.colors?.light ?? primary, dark: c.colors?.dark ?? primary },
    logo,
    favicon: typeof c.favicon === 'string' ? c.favicon : c.favicon?.light,
    faviconDark:
      typeof c.favicon === 'object' && c.favicon.dark !== c.favicon.light ? c.favicon.dark : undefined,
    navbarLinks: (c.navbar?.links ?? []).map(({ type, label, href, icon }) => ({
      label: label ?? (type === 'github' ? 'GitHub' : 'Discord'),
      href,
      ...(icon || type ? { icon: icon ?? (type === 'github' ? 'brands github' : 'brands discord') } : {}),
    })),
    navbarPrimary: c.navbar?.primary
      ? {
          label:
            c.navbar.primary.label ??
            ({ github: 'GitHub', discord: 'Discord', button: 'Open' } as const)[
              c.navbar.primary.type ?? 'button'
            ],
          href: c.navbar.primary.href,
        }
      : undefined,
    footerSocials: Object.entries(c.footer?.socials ?? {}).map(([name, href]) => ({ name, href })),
    footerLinks: (c.footer?.links ?? []).map((column) => ({
      header: column.header,
      items: column.items.map(({ label, href }) => ({ label, href })),
    })),
    redirects: (c.redirects ?? []).map((r) => ({
      source: r.source,
      destination: r.destination,
      permanent: r.permanent ?? true,
    })),
    appearance: { default: c.appearance?.default ?? 'system', strict: c.appearance?.strict ?? false },
    iconLibrary: c.icons?.library ?? 'fontawesome',
    openapi: firstOpenapi(c.openapi),
    integrations: c.integrations ?? {},
    navigation: c.navigation,
    indexing: c.seo?.indexing ?? 'navigable',
    metatags: c.seo?.metatags ?? {},
    searchPrompt: c.search?.prompt,
    banner: c.banner
      ? {
          content: c.banner.content,
          dismissible: c.banner.dismissible ?? false,
          type: c.banner.type ?? 'info',
          ...(c.banner.color
            ? {
                color:
                  typeof c.banner.color === 'string'
                    ? { light: c.banner.color, dark: c.banner.color }
                    : c.banner.color,
              }
            : {}),
        }
      : undefined,
    notFound: { title: c.errors?.['404']?.title, description: c.errors?.['404']?.description },
    eyebrows: c.styling?.eyebrows ?? 'section',
    background: {
      ...(c.background?.decoration ? { decoration: c.background.decoration } : {}),
      ...(c.background?.image
        ? {
            image:
              typeof c.background.image === 'string'
                ? { light: c.background.image, dark: c.background.image }
                : c.background.image,
          }
        : {}),
      ...(c.background?.color ? { color: c.background.color } : {}),
    },
    fonts: fontsOf(c.fonts),
    contextual: (c.contextual?.options ?? []).flatMap((option) =>
      option === 'copy' || option === 'view' ? [option] : [],
    ),
    variables: c.variables ?? {},
    api: apiSettings(c.api),
    variations: (c.variations?.options ?? []).map(({ id, label }) => ({ id, label })),
    notes: notesOf(c, configFile),
  };
}

/**
 * mint.json, the format's legacy file: groups are assigned to tabs by the URL prefix of their
 * first page (as the original product does); anchors with a folder URL become tabs as well,
 * external ones global links.
 */
function fromMintJson(raw: unknown): SiteConfig {
  const parsed = mintJsonSchema.safeParse(raw);
  if (!parsed.success)
    throw new ExportError('mint.json has invalid settings', zodProblems(parsed.error, 'mint.json'));
  const c = parsed.data;
  const isExternal = (url: string) => /^[a-z]+:/i.test(url);
  const prefixTabs = [
    ...(c.tabs ?? []).map((t) => ({
      name: t.name,
      url: t.url.replace(/^\/|\/$/g, ''),
      icon: undefined as string | undefined,
    })),
    ...(c.anchors ?? [])
      .filter((a) => !isExternal(a.url))
      .map((a) => ({ name: a.name, url: a.url.replace(/^\/|\/$/g, ''), icon: a.icon })),
  ];
  const firstPage = (pages: unknown[]): string | undefined => {
    for (const p of pages) {
      if (typeof p === 'string') return p;
      if (p && typeof p === 'object' && Array.isArray((p as { pages?: unknown[] }).pages)) {
        const inner = firstPage((p as { pages: unknown[] }).pages);
        if (inner) return inner;
      }
    }
    return undefined;
  };
  const buckets = new Map<string, unknown[]>([
    ['', []],
    ...prefixTabs.map((t) => [t.url, []] as [string, unknown[]]),
  ]);
  for (const group of c.navigation) {
    const first = firstPage(group.pages)?.replace(/^\//, '') ?? '';
    const tab = prefixTabs.find((t) => first === t.url || first.startsWith(`${t.url}/`));
    buckets.get(tab?.url ?? '')?.push(group);
  }
  const tabs = [
    { tab: c.primaryTab?.name ?? 'Documentation', groups: buckets.get('') ?? [] },
    ...prefixTabs.map((t) => ({ tab: t.name, icon: t.icon, groups: buckets.get(t.url) ?? [] })),
  ].filter((t) => t.groups.length > 0);
  const socials = Array.isArray(c.footerSocials)
    ? c.footerSocials.map((s) => ({ name: s.type, href: s.url }))
    : Object.entries(c.footerSocials ?? {}).map(([name, href]) => ({ name, href }));
  const primary = c.colors?.primary ?? DEFAULT_PRIMARY;
  return {
    configFile: 'mint.json',
    name: c.name,
    theme: 'mint',
    colors: { primary, light: c.colors?.light ?? primary, dark: c.colors?.dark ?? primary },
    logo: typeof c.logo === 'string' ? { light: c.logo, dark: c.logo } : c.logo,
    favicon: c.favicon,
    navbarLinks: (c.topbarLinks ?? []).map((l) => ({ label: l.name ?? l.url, href: l.url })),
    navbarPrimary: c.topbarCtaButton
      ? { label: c.topbarCtaButton.name ?? 'Open', href: c.topbarCtaButton.url }
      : undefined,
    footerSocials: socials,
    footerLinks: [],
    redirects: (c.redirects ?? []).map((r) => ({
      source: r.source,
      destination: r.destination,
      permanent: r.permanent ?? true,
    })),
    appearance: { default: 'system', strict: false },
    iconLibrary: 'fontawesome',
    openapi: firstOpenapi(c.openapi),
    integrations: {},
    indexing: 'navigable',
    metatags: {},
    notFound: {},
    eyebrows: 'section',
    background: {},
    fonts: {},
    contextual: [],
    variables: {},
    api: mintApiSettings(c.api),
    variations: [],
    notes: [],
    navigation: {
      tabs,
      global: {
        anchors: (c.anchors ?? [])
          .filter((a) => isExternal(a.url))
          .map((a) => ({ anchor: a.name, href: a.url, icon: a.icon })),
      },
    },
  };
}
