import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { SourceProblem } from '../errors.ts';
import type { ExportOptions } from '../options.ts';
import type { SiteModel } from '../source/load-site.ts';

/**
 * The repository's own scripts. The platform loads every `.js` file of a docs repository on
 * every page; an export runs only docsnap's own scripts unless it is told to include the site's
 * (`features.siteScripts`), because they run on the site's origin with all it can reach. Even then,
 * an air-gapped export leaves out a script that names another origin (an `http:`, `https:` or
 * `//host` URL in its text): such a script would load from elsewhere, which the page's
 * Content-Security-Policy forbids anyway. The scripts are published at their own paths and
 * loaded after docsnap's, deferred, in path order.
 */

export const MAX_SCRIPT_BYTES = 2 * 1024 * 1024;
const OTHER_ORIGIN = /(?:\bhttps?:\/\/|['"`(=\s]\/\/)[\w.-]+\.[a-z]{2,}/i;

export function publishScripts(
  site: SiteModel,
  options: ExportOptions,
  warnings: SourceProblem[],
): Map<string, string> {
  const published = new Map<string, string>();
  if (site.scripts.length > 0 && !options.features.siteScripts) {
    warnings.push({
      file: site.scripts[0] as string,
      message: `${site.scripts.length} .js file${site.scripts.length === 1 ? '' : 's'} of the repository not included: exported pages run only docsnap's scripts unless the export includes the site's own (--site-scripts, the site's features.siteScripts, a StaticExport's exporter.embedded.siteScripts)`,
    });
    site.scripts = [];
    return published;
  }
  for (const file of site.scripts) {
    const full = join(site.root, file);
    if (statSync(full).size > MAX_SCRIPT_BYTES) {
      warnings.push({
        file,
        message: `a script of more than ${MAX_SCRIPT_BYTES / 1024 / 1024} MiB is not included`,
      });
      continue;
    }
    const text = readFileSync(full, 'utf8');
    const external = options.deployment === 'air-gapped' ? OTHER_ORIGIN.exec(text)?.[0] : undefined;
    if (external) {
      warnings.push({
        file,
        message: `names another origin (${external.trim()}): an air-gapped export loads nothing from elsewhere; the script is not included`,
      });
      continue;
    }
    published.set(file, text);
  }
  site.scripts = [...published.keys()];
  return published;
}
