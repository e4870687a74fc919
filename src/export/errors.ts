/** Where a problem is: a file relative to the docs repository, and a line (1-based) when known. */
export interface SourceLocation {
  file: string;
  line?: number;
  column?: number;
}

export interface SourceProblem extends SourceLocation {
  message: string;
}

export function formatLocation(location: SourceLocation): string {
  const line = location.line ? `:${location.line}${location.column ? `:${location.column}` : ''}` : '';
  return `${location.file}${line}`;
}

/**
 * Bad input that stops an export: every problem found, each naming its file (and line), so the
 * author can fix them all at once.
 */
export class ExportError extends Error {
  readonly problems: SourceProblem[];

  constructor(summary: string, problems: SourceProblem[]) {
    super(
      problems.length === 0
        ? summary
        : `${summary}\n${problems.map((p) => `  ${formatLocation(p)}: ${p.message}`).join('\n')}`,
    );
    this.name = 'ExportError';
    this.problems = problems;
  }

  /** An ExportError sent as data between threads or processes (errors lose their class there). */
  static revive(data: { message: string; problems: SourceProblem[] }): ExportError {
    const error = new ExportError('', data.problems);
    error.message = data.message;
    return error;
  }

  static at(location: SourceLocation, message: string): ExportError {
    return new ExportError(`${formatLocation(location)}: ${message}`, []);
  }
}

/** Line and column (1-based) of a character offset in a text. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}
