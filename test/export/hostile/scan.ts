import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Element } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { visit } from 'unist-util-visit';

export function listFiles(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    return entry.isDirectory() ? listFiles(dir, path) : [path];
  });
}

/**
 * The scheme a browser would see in a URL (it drops tabs and newlines anywhere and control
 * characters and spaces at the ends), lowercased; undefined for a relative URL.
 */
export function browserScheme(url: string): string | undefined {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: C0 controls are exactly what browsers trim.
  const cleaned = url.replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '');
  return /^([a-z][a-z0-9+.-]*):/i.exec(cleaned)?.[1]?.toLowerCase();
}

/** A URL that runs script or shows attacker HTML when followed or loaded; images may be data:. */
export function isScriptUrl(url: string, inImage: boolean): boolean {
  const scheme = browserScheme(url);
  if (scheme === 'javascript' || scheme === 'vbscript') return true;
  if (scheme !== 'data') return false;
  return !(inImage && /^\s*data:image\//i.test(url));
}

const IMAGE_ATTRIBUTES = new Set(['src', 'srcSet']);

/**
 * Every place in an exported site's pages and scripts where a hostile URL survived: an attribute
 * of any element whose value a browser reads as a script URL (meta refresh included), or a vector's
 * marker (`'name'`) in a generated script, where URLs travel as data (navigation scripts).
 * A marker left in an inert form (a relative link "java%09script:…") is not a finding.
 */
export function hostileUrlsIn(dir: string, markers: readonly string[]): string[] {
  const found: string[] = [];
  for (const file of listFiles(dir)) {
    if (file.endsWith('.js')) {
      const text = readFileSync(join(dir, file), 'utf8');
      for (const marker of markers) if (text.includes(`'${marker}'`)) found.push(`${file}: '${marker}'`);
    }
    if (!file.endsWith('.html')) continue;
    visit(fromHtml(readFileSync(join(dir, file), 'utf8')), 'element', (node: Element) => {
      for (const [name, value] of Object.entries(node.properties)) {
        const inImage = (node.tagName === 'img' || node.tagName === 'source') && IMAGE_ATTRIBUTES.has(name);
        for (const v of Array.isArray(value) ? value.map(String) : [String(value)]) {
          const refresh = name === 'content' && /^\s*\d*\s*;\s*url=(.*)$/i.exec(v)?.[1];
          if (isScriptUrl(v, inImage) || (refresh && isScriptUrl(refresh, false)))
            found.push(`${file}: <${node.tagName} ${name}="${v.slice(0, 80)}">`);
        }
      }
    });
  }
  return found;
}
