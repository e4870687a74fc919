import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { SourceProblem } from '../errors.ts';
import type { SiteModel } from '../source/load-site.ts';
import { MAX_STYLESHEET_BYTES, sanitizeStylesheet, TOO_LARGE } from './stylesheet-policy.ts';

/**
 * The repository's stylesheets as the export publishes them: each one held to the stylesheet
 * policy, keyed by its path. One the policy refuses is dropped from `site.stylesheets`, so no
 * page links to a file that is not there; what the policy removed is reported with the file.
 */
export function publishStylesheets(
  site: SiteModel,
  airGapped: boolean,
  warnings: SourceProblem[],
): Map<string, string> {
  const published = new Set([...site.assets, ...site.stylesheets]);
  const accepted = new Map<string, string>();
  for (const file of site.stylesheets) {
    const full = join(site.root, file);
    const outcome =
      statSync(full).size > MAX_STYLESHEET_BYTES
        ? { refused: TOO_LARGE } // refused before it is read
        : sanitizeStylesheet(readFileSync(full, 'utf8'), { file, airGapped, published });
    if ('refused' in outcome) {
      warnings.push({ file, message: `${outcome.refused}; the stylesheet is left out` });
      continue;
    }
    for (const message of outcome.warnings) warnings.push({ file, message });
    accepted.set(file, outcome.css);
  }
  site.stylesheets = [...accepted.keys()];
  return accepted;
}
