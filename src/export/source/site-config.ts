import { z } from 'zod';
import { describeIssues } from '../../contract/issues.ts';
import { ExportError, lineAndColumn, type SourceProblem } from '../errors.ts';
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
      links: z.array(linkSchema).optional(),
      primary: z
        .looseObject({ type: z.string().optional(), label: z.string().optional(), href: z.string() })
        .optional(),
    })
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
});

export interface SiteConfig {
  configFile: 'docs.json' | 'mint.json';
  name: string;
  description?: string;
  theme: string;
  colors: { primary: string; light: string; dark: string };
  logo?: { light: string; dark: string; href?: string };
  favicon?: string;
  navbarLinks: { label: string; href: string }[];
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

function firstOpenapi(value: string | string[] | { source: string } | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value[0];
  return value.source;
}

const DEFAULT_PRIMARY = '#16A34A';

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
    navbarLinks: (c.navbar?.links ?? []).map(({ label, href }) => ({ label, href })),
    navbarPrimary: c.navbar?.primary
      ? {
          label: c.navbar.primary.label ?? (c.navbar.primary.type === 'github' ? 'GitHub' : 'Open'),
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
