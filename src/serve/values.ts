import { parse } from 'yaml';
import { StaticExportValues } from '../contract/site-values.ts';

/** A values file that cannot be used: the message names the file and the field. */
export class ValuesError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ValuesError';
  }
}

/**
 * The `staticExport` section of a Helm values file (a mounted Secret or ConfigMap in a cluster).
 * Nothing else of the file is read. Errors name the field, never its value: the file holds a
 * presigned link.
 */
export function parseValues(text: string, file: string): StaticExportValues {
  let document: unknown;
  try {
    document = parse(text);
  } catch (error) {
    const position = (error as { linePos?: Array<{ line: number; col: number }> }).linePos?.[0];
    throw new ValuesError(
      `${file}: not valid YAML${position ? ` at line ${position.line}, column ${position.col}` : ''}`,
    );
  }
  const section = (document as { staticExport?: unknown } | null)?.staticExport;
  if (section === undefined) throw new ValuesError(`${file}: has no staticExport section`);
  const parsed = StaticExportValues.safeParse(section);
  if (!parsed.success) {
    const issues = parsed.error.issues.map(
      (issue) => `staticExport.${issue.path.join('.')}: ${issue.message}`,
    );
    throw new ValuesError(`${file}: ${issues.join('; ')}`);
  }
  return parsed.data;
}
