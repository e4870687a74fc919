import { ExportError, type SourceLocation } from './errors.ts';

/**
 * Limits that keep one hostile or broken docs repository from taking the time and memory of the
 * process that exports it. Each is checked before the work it bounds grows (a size is checked
 * before reading, nesting before parsing, inlined snippets before copying them), and exceeding
 * one stops the export with an ExportError naming the file, the budget and its limit. Real
 * documentation stays far below every default; a caller may change them through
 * `ExportOptions.budgets`.
 */
export interface ExportBudgets {
  /** Bytes of one page or snippet file (.mdx, .md). */
  pageSourceBytes: number;
  /** Lists, block quotes and elements (components, HTML) nested in one file or one page. */
  nestingDepth: number;
  /** Snippets inlined inside snippets. */
  snippetDepth: number;
  /** Markdown nodes of one page once its snippets are inlined. */
  inlinedNodes: number;
  /** Bytes of one page's HTML; the text a page gathers (snippets, API reference) counts as it is gathered. */
  pageHtmlBytes: number;
  /** Fields, variants and example values the API reference of one OpenAPI operation renders. */
  operationNodes: number;
  /** Levels of groups and dividers in the docs.json navigation. */
  navigationDepth: number;
  /** Nesting of objects and arrays in an OpenAPI document (JSON or YAML) and the files it references. */
  documentDepth: number;
  /** Files of the repository the export walks (dot folders and tooling folders aside). */
  repositoryFiles: number;
  /** Folders nested in the repository, counted from its root. */
  folderDepth: number;
  /** Bytes of the repository's files together. */
  repositoryBytes: number;
  /** Pages of one export, generated ones (OpenAPI operations) included. */
  pages: number;
}

const MiB = 1024 * 1024;

export const DEFAULT_BUDGETS: Readonly<ExportBudgets> = Object.freeze({
  pageSourceBytes: 2 * MiB,
  nestingDepth: 64,
  snippetDepth: 16,
  inlinedNodes: 100_000,
  pageHtmlBytes: 16 * MiB,
  operationNodes: 20_000,
  navigationDepth: 32,
  documentDepth: 256,
  repositoryFiles: 100_000,
  folderDepth: 32,
  repositoryBytes: 4 * 1024 * MiB,
  pages: 50_000,
});

/** The defaults with the caller's overrides; each override must be a positive integer. */
export function resolveBudgets(overrides: Partial<ExportBudgets> = {}): ExportBudgets {
  const budgets = { ...DEFAULT_BUDGETS };
  for (const [name, value] of Object.entries(overrides) as [keyof ExportBudgets, unknown][]) {
    if (!(name in DEFAULT_BUDGETS)) throw new ExportError(`unknown export budget "${name}"`, []);
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1)
      throw new ExportError(`export budget ${name} must be a positive integer, not ${String(value)}`, []);
    budgets[name] = value;
  }
  return budgets;
}

/**
 * The error for an exceeded budget: what was measured and the limit, then the option that sets
 * it, e.g. "guide.mdx:3: lists, block quotes and elements nested 10000 deep exceed the limit of 64
 * (budgets.nestingDepth)".
 */
export function overBudget(location: SourceLocation, what: string, budget: keyof ExportBudgets): ExportError {
  return ExportError.at(location, `${what} (budgets.${budget})`);
}

/** "5 MiB", "2.5 MiB", "300 KiB", "12 bytes". */
export function formatBytes(bytes: number): string {
  if (bytes >= MiB) return `${Number((bytes / MiB).toFixed(1))} MiB`;
  if (bytes >= 1024) return `${Number((bytes / 1024).toFixed(1))} KiB`;
  return `${bytes} bytes`;
}

/**
 * True for V8's "Maximum call stack size exceeded": what recursion over something nested deeper
 * than the budgets foresaw ends with. Callers turn it into an error naming the file, so that
 * message never reaches a user.
 */
export function isStackOverflow(error: unknown): boolean {
  // Some parsers (yaml) report it inside their own error class.
  return error instanceof Error && /Maximum call stack size exceeded/.test(error.message);
}
