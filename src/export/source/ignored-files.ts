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

/** A tenant's ignore file compiles to regular expressions: these bounds keep that cheap. */
export const MINTIGNORE_LIMITS = { bytes: 64 * 1024, patterns: 1_000, wildcards: 8 };

/** Whether a repository-relative path (a folder when `folder`) is left out of the site. */
export type IgnoredFiles = (path: string, folder: boolean) => boolean;

/**
 * The platform's defaults plus the repository's `.mintignore` (gitignore syntax: globs, `**`,
 * folder patterns, `!` to take a file back). An ignore file that cannot be read, and patterns past
 * the limits, are reported and not applied.
 */
export function ignoredFiles(repo: DocsRepository, problems: SourceProblem[]): IgnoredFiles {
  const rules = ignore().add(DEFAULT_IGNORED_PATTERNS);
  const text = readIgnoreFile(repo, problems);
  if (text !== undefined) rules.add(acceptedPatterns(text, problems));
  return (path, folder) => rules.ignores(folder ? `${path}/` : path);
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
  const file = MINTIGNORE;
  const accepted: string[] = [];
  for (const [index, line] of text.split(/\r?\n/).entries()) {
    const pattern = line.trim();
    if (pattern === '' || pattern.startsWith('#')) continue;
    if (accepted.length === MINTIGNORE_LIMITS.patterns) {
      problems.push({
        file,
        line: index + 1,
        message: `more than ${MINTIGNORE_LIMITS.patterns} patterns; this one and the rest are not applied`,
      });
      break;
    }
    if ((pattern.match(/[*?[]/g)?.length ?? 0) > MINTIGNORE_LIMITS.wildcards)
      problems.push({
        file,
        line: index + 1,
        message: `a pattern with more than ${MINTIGNORE_LIMITS.wildcards} wildcards is not applied`,
      });
    else accepted.push(line);
  }
  return accepted;
}
