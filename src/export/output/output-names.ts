import { ExportError, type SourceProblem } from '../errors.ts';
import { unsafeNameReason } from '../source/routes.ts';

/**
 * The names of the repository's static files in an export: each must be safe on its own
 * (`unsafeNameReason`: no control characters, bidirectional overrides, backslashes, `..`), and
 * none may name the same file as another file of the export where the export is unpacked. macOS
 * and Windows compare names without regard to letter case (and macOS to Unicode normalization):
 * `Logo.png` and `logo.png` would be one file there, and which survives depends on the order of
 * unpacking.
 */

/** Two names of one file (or of a file and a folder) on a case-insensitive file system. */
export interface NameClash {
  name: string;
  /** The name met first: another file, or a folder when `folder` is set. */
  other: string;
  folder: boolean;
}

/** Every clash among relative output names ("images/logo.png"). */
export function nameClashes(names: Iterable<string>): NameClash[] {
  const clashes: NameClash[] = [];
  const files = new Map<string, string>();
  const folders = new Map<string, string>();
  for (const name of names) {
    const key = foldedName(name);
    const same = files.get(key);
    if (same === undefined) files.set(key, name);
    else if (same !== name) clashes.push({ name, other: same, folder: false });
    const segments = name.split('/');
    for (let end = 1; end < segments.length; end++) {
      const folder = segments.slice(0, end).join('/');
      if (!folders.has(foldedName(folder))) folders.set(foldedName(folder), folder);
    }
  }
  for (const [key, name] of files) {
    const folder = folders.get(key);
    if (folder !== undefined) clashes.push({ name, other: folder, folder: true });
  }
  return clashes;
}

/**
 * Every problem with the names of `assets` (the repository's static files), among the export's
 * `others` (pages, generated files), each naming the file. Clashes between two pages are not
 * an asset's business: a docs.json redirect from `/Guide` to `/guide` is meant for hosts that
 * tell the two apart.
 */
export function assetNameProblems(assets: string[], others: Iterable<string>): SourceProblem[] {
  const problems: SourceProblem[] = [];
  for (const asset of assets) {
    const reason = unsafeNameReason(asset);
    if (reason)
      problems.push({ file: printableName(asset), message: `this name cannot be exported: ${reason}` });
  }
  const isAsset = new Set(assets);
  for (const clash of nameClashes([...others, ...assets])) {
    if (!isAsset.has(clash.name) && !isAsset.has(clash.other)) continue;
    problems.push({
      file: printableName(clash.name),
      message: clash.folder
        ? `is also the name of the folder ${printableName(clash.other)}`
        : `differs from ${printableName(clash.other)} only in letter case or Unicode form: on macOS and Windows the two are one file`,
    });
  }
  return problems;
}

/** Throws an ExportError listing every problem of `assetNameProblems`. */
export function assertAssetNames(assets: string[], others: Iterable<string>): void {
  const problems = assetNameProblems(assets, others);
  if (problems.length > 0)
    throw new ExportError(
      `${problems.length} static file${problems.length === 1 ? '' : 's'} of the repository cannot be exported under ${problems.length === 1 ? 'its name' : 'their names'}`,
      problems,
    );
}

/** The key under which case-insensitive file systems see a name. */
function foldedName(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

/** Control characters and bidirectional controls: shown as escapes in messages, never as is. */
const INVISIBLE = /[\p{Cc}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/gu;

/**
 * A name as it can be shown in a message or a terminal: quoted, with control characters and
 * bidirectional controls as `\u{…}` escapes (a newline or U+202E in a name would otherwise
 * rewrite the message around it).
 */
export function printableName(name: string): string {
  const escaped = name.replace(
    INVISIBLE,
    (c) => `\\u{${(c.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')}}`,
  );
  return `"${escaped}"`;
}
