import {
  closeSync,
  type Dirent,
  existsSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  realpathSync,
  statSync,
} from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { DEFAULT_BUDGETS, type ExportBudgets, formatBytes, overBudget } from '../budgets.ts';
import { ExportError, type SourceLocation } from '../errors.ts';
import type { IgnoredFiles } from './ignored-files.ts';

/** The budgets the repository walk keeps to. */
export type RepositoryLimits = Pick<ExportBudgets, 'repositoryFiles' | 'folderDepth' | 'repositoryBytes'>;

/**
 * Never part of the site, whatever an ignore file says: dot files and folders (VCS, tooling and
 * secrets such as .env) and dependencies, which are not even walked.
 */
const NEVER_WALKED = (name: string) => name.startsWith('.') || name === 'node_modules';

/**
 * Read access to a docs repository that never leaves it: every path is resolved inside the
 * repository root, and `..` escapes, absolute paths and symlinks pointing outside are refused.
 * Paths are POSIX-style and relative to the root ("images/a.png"); a leading "/" means the root.
 */
export class DocsRepository {
  readonly root: string;

  private constructor(root: string) {
    this.root = root;
  }

  static open(dir: string): DocsRepository {
    if (!existsSync(dir)) throw new ExportError(`docs repository not found: ${dir}`, []);
    if (!statSync(dir).isDirectory()) throw new ExportError(`docs repository is not a directory: ${dir}`, []);
    return new DocsRepository(realpathSync(dir));
  }

  /**
   * Normalizes a reference to a repository-relative path, or explains why it is refused.
   * `from` is the referring file, for references relative to it ("./a.png", "../b.mdx").
   */
  normalize(reference: string, from?: SourceLocation): string {
    const where = from ?? { file: '.' };
    if (reference.includes('\0'))
      throw ExportError.at(where, `refused path ${JSON.stringify(reference)}: NUL byte`);
    const clean = reference.split(/[?#]/)[0] ?? '';
    let base = '';
    if (!clean.startsWith('/') && from && from.file !== '.')
      base = from.file.split('/').slice(0, -1).join('/');
    const parts: string[] = base ? base.split('/') : [];
    for (const part of clean.split('/')) {
      if (part === '' || part === '.') continue;
      if (part === '..') {
        if (parts.length === 0) {
          throw ExportError.at(where, `refused path ${JSON.stringify(reference)}: it leaves the repository`);
        }
        parts.pop();
      } else parts.push(part);
    }
    return parts.join('/');
  }

  /** Absolute path of a repository-relative path, after checking symlinks do not leave the repository. */
  absolute(path: string, from?: SourceLocation): string {
    const full = join(this.root, path);
    const real = realPathOrUndefined(full);
    if (real !== undefined) {
      const rel = relative(this.root, real);
      if (rel.startsWith('..') || isAbsolute(rel)) {
        throw ExportError.at(
          from ?? { file: path },
          `refused path ${JSON.stringify(path)}: a symlink leading outside the repository`,
        );
      }
    }
    return full;
  }

  exists(path: string): boolean {
    const full = join(this.root, path);
    return existsSync(full) && statSync(full).isFile();
  }

  readText(path: string, from?: SourceLocation): string {
    return readFileSync(this.absolute(path, from), 'utf8');
  }

  /** The first `bytes` bytes of a file, as text: enough to tell what kind of document it is. */
  readOpening(path: string, bytes: number): string {
    const fd = openSync(this.absolute(path), 'r');
    try {
      const buffer = Buffer.alloc(bytes);
      return buffer.toString('utf8', 0, readSync(fd, buffer, 0, bytes, 0));
    } finally {
      closeSync(fd);
    }
  }

  /**
   * Every file of the site, sorted, as repository-relative paths. Dot folders and tooling folders
   * are skipped; symlinks are followed only when they stay inside the repository (others are
   * reported through `onRefused` and left out). Each real directory is walked once, whatever
   * number of paths lead to it, so symlinks to a parent or to a sibling cannot multiply the walk;
   * the walk stops with a named error past the limits on files, depth and bytes. What `ignored`
   * matches (.mintignore, ignored-files.ts) is left out, and ignored folders are not walked.
   */
  listFiles(
    limits: RepositoryLimits = DEFAULT_BUDGETS,
    onRefused: (path: string, reason: string) => void = () => {},
    ignored: IgnoredFiles = () => false,
  ): string[] {
    const files: string[] = [];
    const walked = new Set<string>([this.root]);
    let bytes = 0;
    let seen = 0;
    // An explicit stack in place of recursion (depth is bounded by a limit, not by the call
    // stack), taking entries in the order a recursive walk in name order would.
    const pending: Array<{ path: string; entry: Dirent; parentReal: string; depth: number }> = [];
    const enter = (dir: string, real: string, depth: number) => {
      const entries = readdirSync(real, { withFileTypes: true }).sort(byName);
      for (let i = entries.length - 1; i >= 0; i--) {
        const entry = entries[i] as Dirent;
        if (NEVER_WALKED(entry.name)) continue;
        pending.push({ path: dir ? `${dir}/${entry.name}` : entry.name, entry, parentReal: real, depth });
      }
    };
    enter('', this.root, 0);
    while (pending.length > 0) {
      const { path, entry, parentReal, depth } = pending.pop() as (typeof pending)[number];
      const target = this.resolveEntry(entry, parentReal, path, onRefused);
      if (!target) continue;
      if (ignored(path, target.isDirectory)) {
        // Walked all the same: an ignored file counts against the number of files.
        if (!target.isDirectory) tooManyFiles(++seen, limits, path);
        continue;
      }
      if (target.isDirectory) {
        if (walked.has(target.real)) {
          onRefused(path, `${path}: a symlink to a folder that is already part of the site; left out`);
          continue;
        }
        if (depth + 1 > limits.folderDepth)
          throw overBudget(
            { file: path },
            `folders nested more than ${limits.folderDepth} deep`,
            'folderDepth',
          );
        walked.add(target.real);
        enter(path, target.real, depth + 1);
        continue;
      }
      files.push(path);
      bytes += target.size;
      tooManyFiles(++seen, limits, path);
      if (bytes > limits.repositoryBytes)
        throw overBudget(
          { file: path },
          `the repository's files add up to more than ${formatBytes(limits.repositoryBytes)}`,
          'repositoryBytes',
        );
    }
    return files;
  }

  /** What a directory entry is once symlinks are followed, or undefined when it is not part of the site. */
  private resolveEntry(
    entry: Dirent,
    parentReal: string,
    path: string,
    onRefused: (path: string, reason: string) => void,
  ): { real: string; isDirectory: boolean; size: number } | undefined {
    const own = join(parentReal, entry.name);
    if (entry.isDirectory()) return { real: own, isDirectory: true, size: 0 };
    if (entry.isFile()) return { real: own, isDirectory: false, size: statSync(own).size };
    if (!entry.isSymbolicLink()) return undefined; // sockets, devices, FIFOs
    try {
      const real = realpathSync(own);
      const rel = relative(this.root, real);
      if (rel.startsWith('..') || isAbsolute(rel))
        throw ExportError.at(
          { file: path },
          `refused path ${JSON.stringify(path)}: a symlink leading outside the repository`,
        );
      if (rel.split(sep).some(NEVER_WALKED))
        throw ExportError.at(
          { file: path },
          `refused path ${JSON.stringify(path)}: a symlink into a dot file or folder or node_modules, which are never part of the site`,
        );
      const stats = statSync(real);
      if (!stats.isDirectory() && !stats.isFile()) return undefined;
      return { real, isDirectory: stats.isDirectory(), size: stats.isFile() ? stats.size : 0 };
    } catch (error) {
      onRefused(
        path,
        error instanceof ExportError
          ? error.message
          : (error as NodeJS.ErrnoException).code === 'ELOOP'
            ? `${path}: a symlink loop`
            : // Node's message would name the server's absolute path.
              `${path}: cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      );
      return undefined;
    }
  }
}

/** Whether `path` is `root` or lies under it (both absolute, symlinks already resolved). */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

function tooManyFiles(seen: number, limits: RepositoryLimits, path: string): void {
  if (seen > limits.repositoryFiles)
    throw overBudget(
      { file: path },
      `the repository has more than ${limits.repositoryFiles} files`,
      'repositoryFiles',
    );
}

function byName(a: Dirent, b: Dirent): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** The real path of a file, or undefined when it does not exist (one system call, not two). */
function realPathOrUndefined(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}
