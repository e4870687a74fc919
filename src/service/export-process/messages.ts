import type { ArchiveResult } from '../../export/archive/archive.ts';
import type { SourceProblem } from '../../export/errors.ts';
import type { ExportOptionsInput } from '../../export/options.ts';
import type { ExportProgress } from '../../export/pipeline.ts';

/** What an export process is asked to do: plain data, sent over the IPC channel. */
export interface IsolatedExportRequest {
  source: string;
  archivePath: string;
  /** Where the export keeps its temporary files: inside the job's own work directory. */
  workDir: string;
  options: ExportOptionsInput;
  /**
   * Load the site and answer its page routes only (no rendering, no archive): how a request's
   * `paths` are checked before its job is accepted.
   */
  pagesOnly?: boolean;
}

export interface IsolatedExportResult {
  pageCount: number;
  archive?: ArchiveResult;
  warnings: SourceProblem[];
  /** With `pagesOnly`: the route of every page of the site ("" is the home page). */
  routes?: string[];
  /** With `pagesOnly`: the home page's route (what "index" selects). */
  home?: string;
}

export type ParentMessage = { type: 'export'; request: IsolatedExportRequest };

export type ChildMessage =
  | { type: 'progress'; progress: ExportProgress }
  | { type: 'result'; result: IsolatedExportResult }
  | {
      type: 'error';
      /** `export`: bad content, the message is for the author; `internal`: a stack for the log. */
      error: { kind: 'export' | 'internal'; message: string; problems: SourceProblem[] };
    };
