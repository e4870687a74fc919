import { statSync } from 'node:fs';
import { type ExportBudgets, formatBytes, overBudget } from '../budgets.ts';
import { ExportError } from '../errors.ts';
import type { DocsRepository } from './repository.ts';
import { parseJsonFile } from './site-config.ts';

/**
 * Resolves `{"$ref": "./file.json"}` anywhere in docs.json, as the format documents: the object
 * is replaced by the referenced file's JSON, its other keys laid over it (when both are objects),
 * and a referenced file's own `$ref`s are relative to that file. References stay inside the
 * repository (DocsRepository), a cycle is refused with its chain, and the files a configuration
 * may pull in are bounded in number and size (budgets.pageSourceBytes each).
 */
export function resolveConfigRefs(
  repo: DocsRepository,
  configFile: string,
  value: unknown,
  budgets: Pick<ExportBudgets, 'pageSourceBytes' | 'documentDepth'>,
): unknown {
  let files = 0;
  const resolve = (node: unknown, file: string, path: string, chain: string[], depth = 0): unknown => {
    // Resolution recurses, so it stops at the document depth budget; what lies deeper is left to
    // the checks of the settings themselves (navigationDepth names deep navigation), unless it
    // holds a $ref, which would otherwise go unresolved.
    if (depth > budgets.documentDepth) {
      if (holdsRef(node))
        throw ExportError.at({ file }, `${path}: a $ref nested deeper than ${budgets.documentDepth} levels`);
      return node;
    }
    if (Array.isArray(node))
      return node.map((item, i) => resolve(item, file, `${path}[${i}]`, chain, depth + 1));
    if (node === null || typeof node !== 'object') return node;
    const { $ref: reference, ...siblings } = node as Record<string, unknown>;
    if (reference === undefined) {
      return Object.fromEntries(
        Object.entries(siblings).map(([key, child]) => [
          key,
          resolve(child, file, `${path}.${key}`, chain, depth + 1),
        ]),
      );
    }
    const where = `${path}.$ref`;
    if (typeof reference !== 'string' || reference === '')
      throw ExportError.at({ file }, `${where}: expected the path of a JSON file`);
    if (/^[a-z][a-z0-9+.-]*:/i.test(reference))
      throw ExportError.at(
        { file },
        `${where}: ${JSON.stringify(reference)} is a URL; a $ref names a file of the repository`,
      );
    const target = repo.normalize(reference, { file });
    if (chain.includes(target))
      throw ExportError.at({ file }, `${where}: a $ref cycle: ${[...chain, target].join(' → ')}`);
    if (!repo.exists(target))
      throw ExportError.at({ file }, `${where}: ${JSON.stringify(reference)} names no file (${target})`);
    if (++files > MAX_REFERENCED_FILES)
      throw ExportError.at({ file }, `${where}: more than ${MAX_REFERENCED_FILES} files referenced`);
    const size = statSync(repo.absolute(target, { file })).size;
    if (size > budgets.pageSourceBytes)
      throw overBudget(
        { file: target },
        `a referenced configuration file of ${formatBytes(size)}, past the limit of ${formatBytes(budgets.pageSourceBytes)}`,
        'pageSourceBytes',
      );
    const text = repo.readText(target, { file });
    const referenced = resolve(parseJsonFile(text, target), target, '$', [...chain, target], depth + 1);
    const overrides = resolve(siblings, file, path, chain, depth + 1) as Record<string, unknown>;
    if (Object.keys(overrides).length === 0) return referenced;
    if (referenced === null || typeof referenced !== 'object' || Array.isArray(referenced))
      throw ExportError.at(
        { file },
        `${path}: keys beside $ref need an object in ${target}, which holds ${Array.isArray(referenced) ? 'an array' : typeof referenced}`,
      );
    return { ...referenced, ...overrides };
  };
  return resolve(value, configFile, '$', [configFile]);
}

/** Whether a $ref key is anywhere in a JSON value, walked without recursion. */
function holdsRef(value: unknown): boolean {
  const pending = [value];
  while (pending.length > 0) {
    const node = pending.pop();
    if (node === null || typeof node !== 'object') continue;
    if (!Array.isArray(node) && '$ref' in node) return true;
    pending.push(...Object.values(node));
  }
  return false;
}

/** Files one configuration may pull in through $ref: far above what splitting a docs.json needs. */
const MAX_REFERENCED_FILES = 1000;
