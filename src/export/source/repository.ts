import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { ExportError, type SourceLocation } from '../errors.ts';

/** Folders that are never part of the site: tooling, dependencies, VCS. */
const IGNORED_DIRS = new Set(['node_modules', '.git', '.github', '.mintlify', '.vscode', '.idea']);

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
    if (existsSync(full)) {
      const real = realpathSync(full);
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

  /**
   * Every file of the site, sorted, as repository-relative paths. Dot folders and tooling folders
   * are skipped; symlinks are followed only when they stay inside the repository (others are
   * reported through `onRefused` and left out).
   */
  listFiles(onRefused: (path: string, reason: string) => void = () => {}): string[] {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(join(this.root, dir), { withFileTypes: true }).sort((a, b) =>
        a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
      )) {
        const path = dir ? `${dir}/${entry.name}` : entry.name;
        if (entry.name.startsWith('.') || IGNORED_DIRS.has(entry.name)) continue;
        let isDir = entry.isDirectory();
        if (entry.isSymbolicLink()) {
          try {
            this.absolute(path);
            isDir = statSync(join(this.root, path)).isDirectory();
          } catch (error) {
            onRefused(path, (error as Error).message);
            continue;
          }
        } else if (!entry.isFile() && !isDir) continue;
        if (isDir) walk(path);
        else files.push(path);
      }
    };
    walk('');
    return files;
  }
}
