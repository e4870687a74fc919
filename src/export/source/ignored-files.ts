import ignore from 'ignore';
import { ExportError, type SourceProblem } from '../errors.ts';
import { readPageSource } from './page-source.ts';
import type { DocsRepository } from './repository.ts';

const MINTIGNORE = '.mintignore';

/**
 * What the platform never builds or publishes, whatever `.mintignore` says: its documented default
 * ignored patterns (tooling, dependencies, build output, repository documents), read with
 * gitignore's rules like `.mintignore` itself.
 */
export const DEFAULT_IGNORED_PATTERNS = [
  '.git',
  '.github',
  '.claude',
  '.agents',
  '.idea',
  '.vscode',
  'node_modules',
  'build',
  'dist',
  'coverage',
  '.cache',
  'tmp',
  'temp',
  'README.md',
  'LICENSE.md',
  'CHANGELOG.md',
  'CONTRIBUTING.md',
];

/**
 * A tenant's ignore file compiles to regular expressions, tried on every path: these bounds keep
 * that linear. A `**` between folders becomes a repeated group that backtracks over the folders
 * of a path, so a pattern gets one (after runs of them are merged; a leading and a trailing one
 * cost nothing); other wildcards are pinned to one name.
 */
export const MINTIGNORE_LIMITS = {
  bytes: 64 * 1024,
  patterns: 1_000,
  wildcards: 8,
  globstars: 1,
  /**
   * Path characters times patterns over the walk: ~6 s of matching at worst (measured on paths of
   * 4 KB), 20 times what 10,000 files of 100 characters under 50 patterns take.
   */
  matchingWork: 1e9,
};

/** Whether a repository-relative path (a folder when `folder`) is left out of the site. */
export type IgnoredFiles = (path: string, folder: boolean) => boolean;

/**
 * The platform's defaults plus the repository's `.mintignore` (gitignore syntax: globs, `**`,
 * folder patterns, `!` to take a file back). An ignore file that cannot be read, and patterns past
 * the limits, are reported and not applied.
 */
export function ignoredFiles(repo: DocsRepository, problems: SourceProblem[]): IgnoredFiles {
  // Two sets of rules, so that `!` in .mintignore cannot take back a default.
  const defaults = ignore().add(DEFAULT_IGNORED_PATTERNS);
  const rules = ignore();
  const text = readIgnoreFile(repo, problems);
  const patterns = text === undefined ? [] : acceptedPatterns(text, problems);
  rules.add(patterns);
  let work = 0;
  return (path, folder) => {
    const tested = folder ? `${path}/` : path;
    if (defaults.ignores(tested)) return true;
    // Matching costs about the path's length for each pattern: bounded over the whole walk.
    work += tested.length * patterns.length;
    if (work > MINTIGNORE_LIMITS.matchingWork)
      throw ExportError.at(
        { file: MINTIGNORE },
        `its ${patterns.length} patterns tried on every path of the repository are more matching than an export does; use fewer patterns, or folder patterns`,
      );
    return rules.ignores(tested);
  };
}

function readIgnoreFile(repo: DocsRepository, problems: SourceProblem[]): string | undefined {
  if (!repo.exists(MINTIGNORE)) return undefined;
  try {
    return readPageSource(repo, MINTIGNORE, MINTIGNORE_LIMITS.bytes);
  } catch (error) {
    if (!(error instanceof ExportError)) throw error;
    problems.push({
      file: MINTIGNORE,
      message: `not applied: ${error.message.replace(/^\.mintignore: /, '')}`,
    });
    return undefined;
  }
}

function acceptedPatterns(text: string, problems: SourceProblem[]): string[] {
  const accepted: string[] = [];
  for (const [index, line] of text.split(/\r?\n/).entries()) {
    const pattern = mergeGlobstars(line.trim());
    if (pattern === '' || pattern.startsWith('#')) continue;
    if (accepted.length === MINTIGNORE_LIMITS.patterns) {
      problems.push({
        file: MINTIGNORE,
        line: index + 1,
        message: `more than ${MINTIGNORE_LIMITS.patterns} patterns; this one and the rest are not applied`,
      });
      break;
    }
    const refusal = tooCostly(pattern);
    if (refusal) problems.push({ file: MINTIGNORE, line: index + 1, message: `${refusal} is not applied` });
    else accepted.push(pattern);
  }
  return accepted;
}

// A run of globstars matches what one does: "a", two stars, "b" is the same with two stars twice.
// (Written out: a slash and a star would end this comment.)
function mergeGlobstars(pattern: string): string {
  return pattern.replace(/\*\*(?:\/\*\*)+/g, '**');
}

function tooCostly(pattern: string): string | undefined {
  if ((pattern.match(/[*?[]/g)?.length ?? 0) > MINTIGNORE_LIMITS.wildcards)
    return `a pattern with more than ${MINTIGNORE_LIMITS.wildcards} wildcards`;
  // A leading "**" + "/" and a trailing "/" + "**" cost nothing (any depth, everything inside).
  const inner = pattern.replace(/^!?(?:\/?\*\*\/)/, '').replace(/\/\*\*$/, '');
  if ((inner.match(/\*\*/g)?.length ?? 0) > MINTIGNORE_LIMITS.globstars)
    return `a pattern with more than ${MINTIGNORE_LIMITS.globstars} "**" between folders`;
  return undefined;
}
