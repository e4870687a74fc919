import { DEFAULT_BUDGETS, overBudget } from '../budgets.ts';
import { ExportError, type SourceProblem } from '../errors.ts';
import { LANGUAGE_CODES, languageName } from './languages.ts';
import type { SiteChrome } from './site-config.ts';

/**
 * docs.json navigation, flattened into what one layout can show: top-level sections (the header
 * tabs) holding a tree of groups, pages and links (the sidebar). Every divider kind of the format
 * (tabs, anchors, dropdowns, products, versions, languages, menus) at any depth is kept: the
 * outermost becomes sections, deeper ones become groups, so no page is ever lost.
 */

export type NavItem =
  | { kind: 'page'; ref: number } // index into the list of page references
  | { kind: 'link'; label: string; href: string; icon?: string }
  | {
      kind: 'group';
      label: string;
      icon?: string;
      expanded: boolean;
      hidden?: boolean;
      /** `directory` (inherited) on a group with a root page: its children listed on that page. */
      directory?: 'card' | 'accordion';
      /** `tag` ("NEW"): a badge beside the group's title. */
      tag?: string;
      items: NavItem[];
    };

/** One choice on the way to a section: a language, version, product or dropdown entry, or a tab. */
export interface ScopeChoice {
  kind: 'language' | 'version' | 'product' | 'dropdown' | 'tab';
  label: string;
  /** A language's code as written ("fr", "pt-BR"). */
  code?: string;
  icon?: string;
  /** `default: true` on a language or version. */
  default?: boolean;
  hidden?: boolean;
  /** `tag` on a version ("Latest", "Beta"): a badge beside it in the switcher. */
  tag?: string;
  /** Where the entry is written, e.g. "navigation.languages[1]". */
  location: string;
  /** A language's own `banner`, `navbar` and `footer` as written; loadSite reads them into `chrome`. */
  overrides?: Json;
  chrome?: SiteChrome;
}

export interface NavSection {
  label: string;
  icon?: string;
  /** The choices that lead to the section, outermost first: empty for a site without switchers or tabs. */
  path: ScopeChoice[];
  /** `hidden: true`: not shown in the header; its pages are still built. */
  hidden?: boolean;
  items: NavItem[];
}

/** A page named by the navigation: a page path, or an OpenAPI operation ("GET /users"). */
export interface PageReference {
  text: string;
  /** Where it is written, e.g. "navigation.tabs[0].groups[1].pages[3]". */
  location: string;
  section: number;
  /** Section and group labels above it, for breadcrumbs and search results. */
  breadcrumb: string[];
  /** The OpenAPI source inherited from the nearest enclosing level (or docs.json's top level). */
  openapi?: string;
  /** Under a `hidden` level, or hidden itself: the page is built but not listed. */
  hidden: boolean;
  /** For an operation generated from an `openapi` level: the folder of its page ("api-reference/pets"). */
  apiFolder?: string;
}

export interface Navigation {
  sections: NavSection[];
  references: PageReference[];
  /** Global links shown on every page (docs.json `navigation.global` anchors and tabs with href). */
  globalLinks: { label: string; href: string; icon?: string }[];
  /** What is shown differently from how it is written, e.g. an entry with nothing in it. */
  warnings: SourceProblem[];
}

/**
 * An entry's icon as one string: a name, a path or URL, or an icon object (`{ name, style, library }`)
 * written as its words ("tabler filled rocket"), which the icon lookup reads.
 */
export function iconOf(node: Json): string | undefined {
  const icon = node.icon;
  if (typeof icon === 'string') return icon;
  if (!isObject(icon) || typeof icon.name !== 'string') return undefined;
  const words = [icon.library, icon.style].filter((word): word is string => typeof word === 'string');
  return [...words, icon.name].join(' ');
}

const CHOICE_KINDS: Record<string, ScopeChoice['kind']> = {
  languages: 'language',
  versions: 'version',
  products: 'product',
  dropdowns: 'dropdown',
  tabs: 'tab',
  anchors: 'tab',
  // A tab's menu lists its parts like a dropdown does.
  menu: 'dropdown',
};

function scopeChoice(key: string, label: string, entry: Json, location: string): ScopeChoice {
  const kind = CHOICE_KINDS[key] ?? 'tab';
  const icon = iconOf(entry);
  return {
    kind,
    label: kind === 'language' ? languageName(label) : label,
    ...(kind === 'language' ? { code: label } : {}),
    ...(icon ? { icon } : {}),
    ...(entry.default === true ? { default: true } : {}),
    ...(entry.hidden === true ? { hidden: true } : {}),
    ...(typeof entry.tag === 'string' && entry.tag ? { tag: entry.tag } : {}),
    location,
    ...(kind === 'language' && LANGUAGE_CHROME.some((name) => entry[name] !== undefined)
      ? {
          overrides: Object.fromEntries(
            LANGUAGE_CHROME.flatMap((name) => (entry[name] === undefined ? [] : [[name, entry[name]]])),
          ),
        }
      : {}),
  };
}

/** The settings a language may give itself. */
const LANGUAGE_CHROME = ['banner', 'navbar', 'footer'] as const;

/** Divider arrays of the format and the key that names each entry. */
/** The key openapi-navigation.ts marks its generated groups with, naming the folder of their pages. */
export const API_FOLDER = '$docsnapApiFolder';

export const DIVIDERS: ReadonlyArray<readonly [string, string]> = [
  ['tabs', 'tab'],
  ['anchors', 'anchor'],
  ['dropdowns', 'dropdown'],
  ['products', 'product'],
  ['versions', 'version'],
  ['languages', 'language'],
  ['menu', 'item'],
];

export type Json = Record<string, unknown>;
export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function openapiOf(node: Json): string | undefined {
  const value = node.openapi;
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
  if (isObject(value) && typeof value.source === 'string') return value.source;
  return undefined;
}

/**
 * Flattens docs.json's navigation. Levels (groups and dividers in one another) are counted and
 * refused past `limits.maxDepth`, before the walk and the sidebar, which recurse, go further.
 */
export function flattenNavigation(
  navigation: Json,
  configFile: string,
  siteOpenapi: string | undefined,
  siteName: string,
  limits = { maxDepth: DEFAULT_BUDGETS.navigationDepth },
): Navigation {
  const references: PageReference[] = [];
  const problems: SourceProblem[] = [];
  const globalLinks: Navigation['globalLinks'] = [];
  const warnings: SourceProblem[] = [];
  const problem = (location: string, message: string) =>
    problems.push({ file: configFile, message: `${location}: ${message}` });

  /** Each entry of each divider list of a level (tabs, anchors, …) that `include` keeps; malformed ones are named. */
  const forEachDivider = (
    node: Json,
    location: string,
    include: (key: string) => boolean,
    visit: (entry: Json, at: string, key: string, label: string, nameKey: string) => void,
  ): void => {
    for (const [key, nameKey] of DIVIDERS) {
      const list = node[key];
      if (list === undefined || !include(key)) continue;
      if (!Array.isArray(list)) {
        problem(`${location}.${key}`, 'expected an array');
        continue;
      }
      list.forEach((entry, i) => {
        const at = `${location}.${key}[${i}]`;
        if (isObject(entry)) visit(entry, at, key, labelOf(entry, nameKey), nameKey);
        else problem(at, `expected a ${nameKey} object`);
      });
    }
  };
  const labelOf = (node: Json, nameKey: string): string => {
    const value = node[nameKey];
    return typeof value === 'string' && value ? value : nameKey;
  };

  interface Scope {
    section: number;
    breadcrumb: string[];
    openapi?: string;
    /** Levels of the navigation around this one: 1 in a top-level section. */
    depth: number;
    hidden: boolean;
    /** `directory`, inherited down the navigation until a level sets its own. */
    directory?: string;
    /** Set on the groups expand-openapi generates (openapi-navigation.ts): where their pages go. */
    apiFolder?: string;
  }

  /** The scope of a group or divider inside `scope`, once its depth is checked. */
  /** `depth`, once checked against the budget: the walk and the sidebar recurse that deep. */
  const checkedDepth = (location: string, depth: number): number => {
    if (depth > limits.maxDepth)
      throw overBudget(
        { file: configFile },
        `${elide(location)}: navigation nested ${depth} deep exceeds the limit of ${limits.maxDepth}`,
        'navigationDepth',
      );
    return depth;
  };

  const nested = (scope: Scope, location: string, label: string, node: Json): Scope => {
    const depth = checkedDepth(location, scope.depth + 1);
    return {
      ...scope,
      depth,
      breadcrumb: [...scope.breadcrumb, label],
      openapi: openapiOf(node) ?? scope.openapi,
      hidden: scope.hidden || node.hidden === true,
      directory: typeof node.directory === 'string' ? node.directory : scope.directory,
      apiFolder: typeof node[API_FOLDER] === 'string' ? node[API_FOLDER] : scope.apiFolder,
    };
  };

  const pages = (list: unknown, location: string, scope: Scope): NavItem[] => {
    if (!Array.isArray(list)) {
      problem(location, 'expected an array of pages');
      return [];
    }
    const items: NavItem[] = [];
    list.forEach((entry, i) => {
      const at = `${location}[${i}]`;
      if (typeof entry === 'string') {
        if (!entry.trim()) {
          problem(at, 'empty page reference');
          return;
        }
        references.push({
          text: entry.trim(),
          location: at,
          section: scope.section,
          breadcrumb: scope.breadcrumb,
          openapi: scope.openapi,
          hidden: scope.hidden,
          ...(scope.apiFolder ? { apiFolder: scope.apiFolder } : {}),
        });
        items.push({ kind: 'page', ref: references.length - 1 });
      } else if (isObject(entry) && typeof entry.group === 'string') {
        items.push(group(entry, at, scope));
      } else if (isObject(entry) && typeof entry.href === 'string') {
        items.push({
          kind: 'link',
          label: labelOf(entry, typeof entry.label === 'string' ? 'label' : 'page'),
          href: entry.href,
          icon: iconOf(entry),
        });
      } else if (isObject(entry) && typeof entry.page === 'string') {
        // An object page entry (`{ page, … }`) is a page with settings we do not need.
        references.push({
          text: entry.page.trim(),
          location: at,
          section: scope.section,
          breadcrumb: scope.breadcrumb,
          openapi: scope.openapi,
          hidden: scope.hidden || entry.hidden === true,
        });
        items.push({ kind: 'page', ref: references.length - 1 });
      } else {
        problem(at, 'expected a page path, a group ({ "group", "pages" }) or a link ({ "href" })');
      }
    });
    return items;
  };

  const group = (node: Json, location: string, scope: Scope): NavItem => {
    const label = labelOf(node, 'group');
    const inner = nested(scope, location, label, node);
    const items = contents(node, location, inner);
    // A group's root page is shown as its first entry.
    if (typeof node.root === 'string') {
      references.push({
        text: node.root,
        location: `${location}.root`,
        section: scope.section,
        breadcrumb: inner.breadcrumb,
        openapi: inner.openapi,
        hidden: inner.hidden,
      });
      items.unshift({ kind: 'page', ref: references.length - 1 });
    }
    const directory =
      typeof node.root === 'string' && (inner.directory === 'card' || inner.directory === 'accordion')
        ? inner.directory
        : undefined;
    return {
      kind: 'group',
      label,
      icon: iconOf(node),
      expanded: node.expanded === true,
      hidden: inner.hidden,
      ...(directory ? { directory } : {}),
      ...(typeof node.tag === 'string' && node.tag ? { tag: node.tag } : {}),
      items,
    };
  };

  /** Everything a navigation level may hold: groups, pages and nested dividers of any kind. */
  const contents = (node: Json, location: string, scope: Scope): NavItem[] => {
    const items: NavItem[] = [];
    if (node.pages !== undefined) items.push(...pages(node.pages, `${location}.pages`, scope));
    if (node.groups !== undefined) {
      if (!Array.isArray(node.groups)) problem(`${location}.groups`, 'expected an array of groups');
      else
        node.groups.forEach((g, i) => {
          if (isObject(g)) items.push(group(g, `${location}.groups[${i}]`, scope));
          else problem(`${location}.groups[${i}]`, 'expected a group object');
        });
    }
    forEachDivider(
      node,
      location,
      () => true,
      (entry, at, _key, label) => {
        if (typeof entry.href === 'string' && !hasContents(entry)) {
          items.push({ kind: 'link', label, href: entry.href, icon: iconOf(entry) });
          return;
        }
        const inner = nested(scope, at, label, entry);
        items.push({
          kind: 'group',
          label,
          icon: iconOf(entry),
          expanded: true,
          hidden: inner.hidden,
          items: contents(entry, at, inner),
        });
      },
    );
    return items;
  };

  const sections: NavSection[] = [];
  const rootOpenapi = openapiOf(navigation) ?? siteOpenapi;

  /**
   * The levels above the sidebar: switchers (languages, versions, products, dropdowns) and tabs
   * (tabs, anchors, menus), in any order and nesting. Each level that holds groups or pages
   * becomes a section, with the choices that lead to it; dividers inside a section become groups.
   */
  const level = (node: Json, location: string, path: ScopeChoice[], scope: Omit<Scope, 'section'>): void => {
    const tab = path.find((choice) => choice.kind === 'tab');
    // Under a tab, anchors and tabs are parts of its sidebar (groups), not tabs of the header.
    const inSidebar = (key: string) =>
      key === 'groups' || key === 'pages' || (tab !== undefined && CHOICE_KINDS[key] === 'tab');
    const own = Object.fromEntries(Object.entries(node).filter(([key]) => inSidebar(key)));
    if (Object.keys(own).length > 0) {
      const section: Scope = { ...scope, section: sections.length };
      sections.push({
        label: tab?.label ?? path.at(-1)?.label ?? siteName,
        icon: tab?.icon ?? path.at(-1)?.icon,
        path,
        ...(tab?.hidden ? { hidden: true } : {}),
        items: contents(own, location, section),
      });
    }
    forEachDivider(
      node,
      location,
      (key) => !inSidebar(key),
      (entry, at, key, label, nameKey) => {
        if (typeof entry.href === 'string' && !hasContents(entry)) {
          globalLinks.push({ label, href: entry.href, icon: iconOf(entry) });
          return;
        }
        const depth = checkedDepth(at, scope.depth + (path.length > 0 ? 1 : 0));
        const choice = scopeChoice(key, label, entry, at);
        if (choice.kind === 'language' && !LANGUAGE_CODES.has(label)) {
          problem(
            `${at}.language`,
            `${JSON.stringify(label)} is not a language code of the format (${[...LANGUAGE_CODES].join(', ')})`,
          );
          return;
        }
        if (!hasContents(entry))
          warnings.push({
            file: configFile,
            message: `${at}: ${nameKey} "${label}" has no pages; it is not shown`,
          });
        level(entry, at, [...path, choice], {
          ...scope,
          depth,
          // A hidden tab is left out of the header only: its own sidebar still lists its pages.
          breadcrumb: choice.kind === 'tab' ? [...scope.breadcrumb, label] : scope.breadcrumb,
          openapi: openapiOf(entry) ?? scope.openapi,
          directory: typeof entry.directory === 'string' ? entry.directory : scope.directory,
        });
      },
    );
  };
  level(navigation, 'navigation', [], {
    breadcrumb: [],
    openapi: rootOpenapi,
    depth: 1,
    hidden: false,
    ...(typeof navigation.directory === 'string' ? { directory: navigation.directory } : {}),
  });
  if (isObject(navigation.global)) {
    for (const [key, nameKey] of DIVIDERS) {
      const list = navigation.global[key];
      if (!Array.isArray(list)) continue;
      for (const entry of list) {
        if (isObject(entry) && typeof entry.href === 'string')
          globalLinks.push({ label: labelOf(entry, nameKey), href: entry.href, icon: iconOf(entry) });
      }
    }
  }
  if (sections.length === 0 && problems.length === 0)
    problem('navigation', 'has no pages (expected tabs, anchors, groups or pages)');
  if (problems.length > 0) throw new ExportError(`${configFile} has an invalid navigation`, problems);
  warnings.push(...notApplied(navigation, limits.maxDepth).map((message) => ({ file: configFile, message })));
  return { sections, references, globalLinks, warnings };
}

/** A long location with its middle cut out: "navigation.groups[0].pages[0] … .pages[0]". */
function elide(location: string, max = 100): string {
  return location.length <= max ? location : `${location.slice(0, max / 2)} … ${location.slice(-max / 2)}`;
}

export function hasContents(node: Json): boolean {
  return (
    node.pages !== undefined || node.groups !== undefined || DIVIDERS.some(([key]) => node[key] !== undefined)
  );
}

/** Navigation settings of the format the export does not apply yet, and what it does instead. */
const NOT_APPLIED: Record<string, string> = {
  asyncapi: 'asyncapi: AsyncAPI channel pages are not supported yet; none were made',
  thumbnail: 'thumbnail: social images are generated by the platform; they cannot apply to a static site',
  boost: 'boost: search ranking by group is not supported yet; every page ranks by its text',
  color: 'color on anchors is not supported yet; anchors take the site colors',
};

/** One note per setting of NOT_APPLIED found anywhere in the navigation. */
function notApplied(navigation: Json, maxDepth: number): string[] {
  const found = new Set<string>();
  const visit = (node: unknown, depth: number): void => {
    if (depth > maxDepth) return;
    if (Array.isArray(node)) {
      for (const entry of node) visit(entry, depth + 1);
      return;
    }
    if (!isObject(node)) return;
    for (const key of Object.keys(NOT_APPLIED)) if (node[key] !== undefined) found.add(key);
    // A language's banner, navbar and footer are settings, not navigation.
    for (const [key, value] of Object.entries(node))
      if (
        typeof value === 'object' &&
        value !== null &&
        !(key in NOT_APPLIED) &&
        !LANGUAGE_CHROME.includes(key as never)
      )
        visit(value, depth + 1);
  };
  visit(navigation, 0);
  return [...found].map((key) => `navigation ${NOT_APPLIED[key]}`);
}
