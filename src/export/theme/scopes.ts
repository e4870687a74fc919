import { slug } from 'github-slugger';
import { languageTag } from '../source/languages.ts';
import type { PageSpec, SiteModel } from '../source/load-site.ts';
import type { ScopeChoice } from '../source/navigation.ts';

/**
 * Where a page sits among the site's languages, versions, products, dropdowns and tabs, decided
 * once per site from the sections' paths: which tabs the header shows on a page, which switchers
 * the page has and where each option leads, and the page in another language that is "the same
 * page". Pure decisions; the layout renders them.
 */

type SwitcherKind = Exclude<ScopeChoice['kind'], 'tab'>;
const SWITCHER_KINDS: ReadonlySet<ScopeChoice['kind']> = new Set([
  'language',
  'version',
  'product',
  'dropdown',
]);

export interface HeaderTab {
  label: string;
  icon?: string;
  /** The section the tab leads to (its landing page is the section's first page). */
  section: number;
  current: boolean;
}

export interface Switcher {
  kind: SwitcherKind;
  /** Where the switched choice is in the sections' paths. */
  depth: number;
  current: ScopeChoice;
  options: Array<{ choice: ScopeChoice; section: number; current: boolean }>;
}

interface SiteScopes {
  /** Per section: the header tabs shown on its pages. */
  tabs: Map<number, HeaderTab[]>;
  switchers: Map<number, Switcher[]>;
  /** Per section path prefix (a language or version subtree), its pages by key. */
  pagesByKey: Map<string, Map<string, number>>;
}

const cache = new WeakMap<SiteModel, SiteScopes>();

function scopesOf(site: SiteModel): SiteScopes {
  let scopes = cache.get(site);
  if (!scopes) {
    scopes = { tabs: new Map(), switchers: new Map(), pagesByKey: new Map() };
    cache.set(site, scopes);
  }
  return scopes;
}

const same = (a: ScopeChoice | undefined, b: ScopeChoice | undefined) =>
  a !== undefined && b !== undefined && a.kind === b.kind && a.label === b.label;

/** The choices before the first tab: what a header tab must agree on to be shown beside the current one. */
function outer(path: ScopeChoice[]): ScopeChoice[] {
  const tab = path.findIndex((choice) => choice.kind === 'tab');
  return tab < 0 ? path : path.slice(0, tab);
}

/** Two lists of switcher choices conflict when they choose differently for a kind both choose. */
function conflicts(a: ScopeChoice[], b: ScopeChoice[]): boolean {
  return a.some((choice) => b.some((other) => other.kind === choice.kind && other.label !== choice.label));
}

/** The header's tabs on a page of `section`: one per tab label among sections that agree on the outer choices. */
export function headerTabs(site: SiteModel, section: number): HeaderTab[] {
  const scopes = scopesOf(site);
  const known = scopes.tabs.get(section);
  if (known) return known;
  const path = site.sections[section]?.path ?? [];
  const mine = outer(path);
  const byLabel = new Map<string, HeaderTab>();
  site.sections.forEach((candidate, index) => {
    const tab = candidate.path.find((choice) => choice.kind === 'tab');
    // A section reached by no tab is in the header only when nothing at all leads to it (top-level groups).
    if (!tab && candidate.path.length > 0) return;
    if (candidate.hidden && index !== section) return;
    if (conflicts(mine, outer(candidate.path))) return;
    const label = tab?.label ?? candidate.label;
    const current =
      index === section ||
      same(
        tab,
        path.find((choice) => choice.kind === 'tab'),
      );
    const known = byLabel.get(label);
    if (known && !(current && !known.current)) return;
    byLabel.set(label, {
      label,
      ...(candidate.icon ? { icon: candidate.icon } : {}),
      section: current ? section : index,
      current,
    });
  });
  const tabs = [...byLabel.values()];
  scopes.tabs.set(section, tabs);
  return tabs;
}

/**
 * The switchers on a page of `section`, outermost first: for each language, version, product or
 * dropdown on its path, the options beside it, each leading to the section that keeps as many of
 * the page's other choices as it can.
 */
export function switchers(site: SiteModel, section: number): Switcher[] {
  const scopes = scopesOf(site);
  const known = scopes.switchers.get(section);
  if (known) return known;
  const path = site.sections[section]?.path ?? [];
  const result: Switcher[] = [];
  path.forEach((current, depth) => {
    if (!SWITCHER_KINDS.has(current.kind)) return;
    const prefix = path.slice(0, depth);
    const best = new Map<string, { section: number; score: number; choice: ScopeChoice }>();
    site.sections.forEach((candidate, index) => {
      const choice = candidate.path[depth];
      if (!choice || choice.kind !== current.kind || choice.hidden) return;
      if (!prefix.every((p, i) => same(p, candidate.path[i]))) return;
      const score = index === section ? Number.POSITIVE_INFINITY : agreement(path, candidate.path, depth + 1);
      const known = best.get(choice.label);
      if (!known || score > known.score) best.set(choice.label, { section: index, score, choice });
    });
    if (best.size < 2) return;
    result.push({
      kind: current.kind as SwitcherKind,
      depth,
      current,
      options: [...best.values()].map(({ section: target, choice }) => ({
        choice,
        section: target,
        current: same(choice, current),
      })),
    });
  });
  scopes.switchers.set(section, result);
  return result;
}

/** How many choices after `from` two paths share, position by position. */
function agreement(a: ScopeChoice[], b: ScopeChoice[], from: number): number {
  let score = 0;
  for (let i = from; i < Math.min(a.length, b.length); i++) if (same(a[i], b[i])) score++;
  return score;
}

/** The page's language tag for `<html lang>`: its section's language, else English. */
export function pageLanguage(site: SiteModel, page: PageSpec): string {
  const code = languageCode(site, page);
  return code ? languageTag(code) : 'en';
}

/** The code of the language the page's section is under, as docs.json writes it, if any. */
function languageCode(site: SiteModel, page: PageSpec): string | undefined {
  return site.sections[page.section]?.path.find((choice) => choice.kind === 'language')?.code;
}

/** The folder of the search index a page searches: its language's ("fr/"), or the site's (""). */
export function searchScope(site: SiteModel, page: PageSpec): string {
  const code = languageCode(site, page);
  return code ? `${languageTag(code)}/` : '';
}

/**
 * The page that is "the same page" as `page` in the subtree of `target`'s choice at `depth` (the
 * same page in French, in v2): the page whose route, without the path segments that name the
 * choices (a language code, a version), is the same. Undefined when that subtree has none.
 */
export function counterpart(
  site: SiteModel,
  page: PageSpec,
  target: number,
  depth: number,
): number | undefined {
  const key = pageKey(site, page);
  const path = site.sections[target]?.path ?? [];
  // The target section first (it keeps the reader's other choices: the version, the tab), then the switched subtree.
  return pagesUnder(site, path).get(key) ?? pagesUnder(site, path.slice(0, depth + 1)).get(key);
}

/** The rendered pages of the sections under a path, by key; the first of each key wins. */
function pagesUnder(site: SiteModel, path: ScopeChoice[]): Map<string, number> {
  const subtree = JSON.stringify(path.map((choice) => [choice.kind, choice.label]));
  const scopes = scopesOf(site);
  let pages = scopes.pagesByKey.get(subtree);
  if (!pages) {
    const found = new Map<string, number>();
    site.pages.forEach((candidate, index) => {
      const candidatePath = site.sections[candidate.section]?.path ?? [];
      if (!candidate.rendered || !path.every((choice, i) => same(choice, candidatePath[i]))) return;
      const key = pageKey(site, candidate);
      if (!found.has(key)) found.set(key, index);
    });
    pages = found;
    scopes.pagesByKey.set(subtree, pages);
  }
  return pages;
}

/** A page's route without the leading segments that name its section's choices ("fr/v2/quickstart" → "quickstart"). */
function pageKey(site: SiteModel, page: PageSpec): string {
  const names = new Set(
    (site.sections[page.section]?.path ?? [])
      .filter((choice) => choice.kind !== 'tab')
      .flatMap((choice) => [choice.code?.toLowerCase(), slug(choice.label)])
      .filter((name): name is string => Boolean(name)),
  );
  const segments = page.route.split('/');
  while (segments.length > 0 && names.has((segments[0] ?? '').toLowerCase())) segments.shift();
  return segments.join('/');
}
