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
}

export interface IsolatedExportResult {
  pageCount: number;
  archive?: ArchiveResult;
  warnings: SourceProblem[];
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
