import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { formatBytes, overBudget } from '../budgets.ts';
import type { SourceLocation } from '../errors.ts';
import type { DocsRepository } from './repository.ts';

/**
 * Reads a page or snippet (.mdx, .md), refusing one larger than `maxBytes` before reading it:
 * parsing and rendering cost grows with the source, and a page is read whole.
 */
export function readPageSource(
  repo: DocsRepository,
  path: string,
  maxBytes: number,
  from?: SourceLocation,
): string {
  // One open for the size check and the read: a page is read once, its path resolved once.
  const fd = openSync(repo.absolute(path, from), 'r');
  try {
    const { size } = fstatSync(fd);
    if (size > maxBytes)
      throw overBudget(
        { file: path },
        `${formatBytes(size)} exceeds the limit of ${formatBytes(maxBytes)} for one page or snippet`,
        'pageSourceBytes',
      );
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}
