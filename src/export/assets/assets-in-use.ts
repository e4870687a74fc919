import { posix } from 'node:path';

/**
 * The repository's static files an export of selected pages (the spec's `paths`) ships: those its
 * rendered pages link or embed, and every one the site itself may use whatever the page: named in
 * docs.json (logo, favicon, background…), or by file name in a published stylesheet or script
 * (url() and fetches are relative to files we do not parse: a file name match keeps it).
 */
export function assetsInUse(
  assets: string[],
  usedByPages: ReadonlySet<string>,
  site: { config: unknown; stylesheets: Iterable<string>; scripts: Iterable<string> },
): string[] {
  const named = new Set<string>();
  collectStrings(site.config, (text) => named.add(text.replace(/^\.?\/+/, '').split(/[?#]/)[0] ?? ''));
  const code = [...site.stylesheets, ...site.scripts];
  const inCode = (asset: string) => {
    const name = posix.basename(asset);
    return code.some((text) => text.includes(name));
  };
  return assets.filter((asset) => usedByPages.has(asset) || named.has(asset) || inCode(asset));
}

function collectStrings(value: unknown, add: (text: string) => void, depth = 0): void {
  if (depth > 64) return;
  if (typeof value === 'string') add(value);
  else if (Array.isArray(value)) for (const item of value) collectStrings(item, add, depth + 1);
  else if (value && typeof value === 'object')
    for (const item of Object.values(value)) collectStrings(item, add, depth + 1);
}
