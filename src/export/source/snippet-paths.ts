import type { DocsRepository } from './repository.ts';

/**
 * Where a snippet named in an import or a `<Snippet file>` lives: relative to the file that names
 * it ("./x.mdx", "../x.mdx"), from the repository root when it starts with "/", and under
 * /snippets/ when it is bare ("x.mdx"). Throws, as normalize does, for a path leaving the repository.
 */
export function snippetPath(repo: DocsRepository, source: string, from: string): string {
  const written = source.startsWith('/') || source.startsWith('.') ? source : `/snippets/${source}`;
  return repo.normalize(written, { file: from });
}

/** Files in a snippets folder are snippets, never pages, imported or not (as the platform has it). */
export function inSnippetsFolder(path: string): boolean {
  return path.startsWith('snippets/') || path.includes('/snippets/');
}

// `import Name from "…"`, `import { a } from '…'` at the start of a line (MDX's ESM syntax).
const IMPORT_LINE = /^import\s[^'"\n]*?\bfrom\s*(["'])([^"'\n]+)\1/gm;

/**
 * The .mdx and .md files a page imports, found by a scan of its import lines: an imported file
 * is a snippet, so it is not built as a page of its own. Paths leaving the repository are
 * skipped here (the import itself is reported when the page is rendered).
 */
export function importedPageFiles(repo: DocsRepository, text: string, from: string): string[] {
  const files: string[] = [];
  for (const match of text.matchAll(IMPORT_LINE)) {
    const source = match[2] as string;
    if (!/\.mdx?$/i.test(source)) continue;
    try {
      files.push(snippetPath(repo, source, from));
    } catch {
      // reported by the renderer, which refuses the same path
    }
  }
  return files;
}
