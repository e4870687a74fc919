import type { ExportWarnings } from '../contract/admin-api.ts';
import type { SourceProblem } from './errors.ts';

/**
 * The export report: every warning with its file, line and kind, and a count per kind. The CLI
 * prints the counts and writes the whole report as JSON (`--report FILE`); a site with hundreds
 * of warnings is read by kind first ("300 broken links"), then file by file.
 */

export interface ReportedWarning {
  kind: WarningKind;
  file: string;
  line?: number;
  column?: number;
  message: string;
}

export interface ExportReport {
  pageCount: number;
  /** Warnings per kind, most frequent first. */
  summary: Array<{ kind: WarningKind; count: number }>;
  warnings: ReportedWarning[];
}

/**
 * Kinds of warning, each recognised by its message (warnings are written in many places; their
 * wording is the one thing they share). The first that matches wins.
 */
const KINDS = [
  ['missing page', /does not exist .*; the entry is left out of the navigation$/],
  ['invalid frontmatter', /^invalid frontmatter/],
  ['missing file', /^[\w.]+: ".*" does not exist; left out$/],
  ['unknown component', /^unknown component /],
  ['unknown icon', /^unknown icon /],
  ['broken link', /^broken link|has no anchor #/],
  ['refused URL', /refused URL/],
  ['loads from another origin', /air-gapped|another origin/],
  ['JavaScript not run', /is JavaScript and was/],
  ['markup removed', /^removed|removed from|\bremoved:/],
  ['setting not applied', /cannot apply to a static site|not supported yet|is accepted and ignored/],
  ['API reference', /openapi|OpenAPI|API reference|^[A-Z]+ \/\S*: /],
  ['redirect', /^redirect /],
  ['snippet', /^snippet /],
  ['math', /^math (?:not typeset|uses )/],
  ['diagram', /^diagrams? /],
  ['missing title', /^no title in frontmatter/],
  ['file not published', /is not published|is left out$|cannot be exported/],
  ['component props', /^<[A-Za-z][\w.]*>/],
] as const satisfies ReadonlyArray<readonly [string, RegExp]>;

export type WarningKind = (typeof KINDS)[number][0] | 'other';

export function warningKind(message: string): WarningKind {
  return KINDS.find(([, pattern]) => pattern.test(message))?.[0] ?? 'other';
}

/** A warning as reported: a "line N: " its message starts with becomes its line. */
export function reportedWarning(problem: SourceProblem): ReportedWarning {
  const prefix = /^line (\d+): /.exec(problem.message);
  const line = problem.line ?? (prefix ? Number(prefix[1]) : undefined);
  const message = prefix ? problem.message.slice(prefix[0].length) : problem.message;
  return {
    kind: warningKind(message),
    file: problem.file,
    ...(line !== undefined ? { line } : {}),
    ...(problem.column !== undefined ? { column: problem.column } : {}),
    message,
  };
}

export function exportReport(pageCount: number, problems: readonly SourceProblem[]): ExportReport {
  const warnings = problems.map(reportedWarning);
  const summary = Object.entries(countByKind(warnings))
    .map(([kind, count]) => ({ kind: kind as WarningKind, count }))
    .sort((a, b) => b.count - a.count || a.kind.localeCompare(b.kind));
  return { pageCount, summary, warnings };
}

/** The warnings of an export counted, in all and per kind: what job and StaticExport status show. */
export function warningCounts(problems: readonly SourceProblem[]): ExportWarnings {
  return { count: problems.length, byKind: countByKind(problems.map(reportedWarning)) };
}

function countByKind(warnings: readonly ReportedWarning[]): Record<string, number> {
  const byKind: Record<string, number> = {};
  for (const { kind } of warnings) byKind[kind] = (byKind[kind] ?? 0) + 1;
  return byKind;
}
