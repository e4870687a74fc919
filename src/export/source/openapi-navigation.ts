import { slug } from 'github-slugger';
import type { SourceProblem } from '../errors.ts';
import { listOperations, type OpenApiSpec } from '../openapi/index.ts';
import { API_FOLDER, DIVIDERS, hasContents, isObject, type Json, openapiOf } from './navigation.ts';

/**
 * docs.json's `openapi` on a navigation level (the navigation itself, a tab, anchor, dropdown,
 * product, version, language, menu item or group) that lists no pages of its own: the level is
 * given a page for every operation of the document, as the format generates them, in groups
 * named after the operations' first tag (in the order of the document's `tags`, then the order
 * tags first appear), operations in document order; untagged operations follow in a group named
 * "API Reference", as the platform names it. Operations marked `x-hidden` get no page.
 * The expanded entries are ordinary "METHOD /path" references, so pages, stubs and titles are
 * made as for entries written by hand.
 */

export interface OpenapiNavigationContext {
  configFile: string;
  /** The repository file of an `openapi` source, or undefined when there is none to read (a URL). */
  fileOf(source: string, location: string): string | undefined;
  load(file: string): Promise<OpenApiSpec | Error>;
  warnings: SourceProblem[];
  /** The navigation depth budget: deeper levels are left as they are, for the navigation's check to refuse. */
  maxDepth: number;
}

export async function expandOpenapiNavigation(
  navigation: Json,
  context: OpenapiNavigationContext,
): Promise<Json> {
  return (await expandLevel(navigation, 'navigation', context, 0)) as Json;
}

async function expandLevel(
  node: Json,
  location: string,
  context: OpenapiNavigationContext,
  depth: number,
): Promise<Json> {
  if (depth > context.maxDepth) return node;
  const source = openapiOf(node);
  if (source !== undefined && !hasContents(node))
    return { ...node, ...(await generated(source, apiDirectory(node), location, context)) };
  const expanded: Json = { ...node };
  for (const key of ['groups', 'pages', ...DIVIDERS.map(([list]) => list)]) {
    const list = node[key];
    if (!Array.isArray(list)) continue;
    expanded[key] = await Promise.all(
      list.map((entry, i) =>
        isObject(entry) ? expandLevel(entry, `${location}.${key}[${i}]`, context, depth + 1) : entry,
      ),
    );
  }
  return expanded;
}

/** The groups and pages a level's OpenAPI document gives it, or none with a warning saying why. */
async function generated(
  source: string,
  directory: string,
  location: string,
  context: OpenapiNavigationContext,
): Promise<Json> {
  const warn = (message: string) =>
    context.warnings.push({ file: context.configFile, message: `${location}.openapi: ${message}` });
  const file = context.fileOf(source, `${location}.openapi`);
  if (file === undefined) {
    warn(
      `${JSON.stringify(source)} is not read: the export reads OpenAPI documents from the repository only (give a local copy with --openapi-override URL=FILE, or let the export fetch it with --fetch-remote-specs); no pages were made for it`,
    );
    return {};
  }
  const spec = await context.load(file);
  if (spec instanceof Error) {
    warn(`${spec.message}; no pages were made for it`);
    return {};
  }
  const operations = listOperations(spec);
  if (operations.length === 0) {
    warn(`${file} has no operations; no pages were made for it`);
    return {};
  }
  const byTag = new Map<string, string[]>();
  const labels = tagLabels(spec);
  for (const tag of labels.keys()) byTag.set(tag, []);
  const untagged: string[] = [];
  for (const operation of operations) {
    if (operation.hidden) continue;
    const reference = `${operation.method} ${operation.path}`;
    const tag = operation.tags[0];
    if (tag === undefined) untagged.push(reference);
    else byTag.set(tag, [...(byTag.get(tag) ?? []), reference]);
  }
  const groups = [...byTag]
    .filter(([, pages]) => pages.length > 0)
    .map(([tag, pages]) => ({
      group: labels.get(tag) ?? tag,
      openapi: source,
      [API_FOLDER]: `${directory}/${slug(tag) || 'api'}`,
      pages,
    }));
  // Operations without a tag go in a group of their own, named as the platform names it.
  if (untagged.length > 0)
    groups.push({ group: 'API Reference', openapi: source, [API_FOLDER]: directory, pages: untagged });
  return { pages: groups };
}

/** The document's tags in order, each with its label: `x-group`, else `x-displayName`, else its name. */
function tagLabels(spec: OpenApiSpec): Map<string, string> {
  const labels = new Map<string, string>();
  const tags = spec.document.tags;
  if (!Array.isArray(tags)) return labels;
  for (const tag of tags) {
    if (!isObject(tag) || typeof tag.name !== 'string') continue;
    const label = [tag['x-group'], tag['x-displayName']].find(
      (value) => typeof value === 'string' && value.trim(),
    );
    labels.set(tag.name, (label as string | undefined) ?? tag.name);
  }
  return labels;
}

/** `openapi: { source, directory }`: the folder of the generated pages, "api-reference" by default. */
function apiDirectory(node: Json): string {
  const value = node.openapi;
  const directory = isObject(value) && typeof value.directory === 'string' ? value.directory : '';
  const clean = directory
    .split('/')
    .map((part) => slug(part))
    .filter(Boolean)
    .join('/');
  return clean || 'api-reference';
}
