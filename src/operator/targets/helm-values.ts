import { Document, isMap, parseDocument } from 'yaml';

export interface StaticExportValues {
  enabled: boolean;
  bundleUrl: string;
  version: string;
}

/**
 * Helm values YAML with its staticExport section set, and nothing else touched: other keys,
 * comments, key order and formatting come through as they were (yaml's Document API edits the
 * parsed document in place). An empty or missing text starts a new document.
 * Throws when the text is not YAML (naming the line, column and kind of error, never quoting the
 * text: a target may hold other secrets) or not a mapping.
 */
export function withStaticExportValues(text: string | undefined, values: StaticExportValues): string {
  const parsed = parseDocument(text ?? '');
  const [error] = parsed.errors;
  if (error) {
    const at = error.linePos?.[0];
    throw new Error(`not valid YAML${at ? ` at line ${at.line}, column ${at.col}` : ''} (${error.code})`);
  }
  // Nothing but comments (or nothing at all): start from an empty mapping, keeping the comments.
  const document: Document = parsed.contents === null ? new Document({}) : parsed;
  if (parsed.contents === null) document.commentBefore = parsed.commentBefore ?? parsed.comment;
  if (!isMap(document.contents)) throw new Error('the Helm values must be a YAML mapping at the top level');
  const section = document.get('staticExport');
  if (section !== undefined && !isMap(section))
    throw new Error('staticExport in the Helm values is not a mapping');
  document.setIn(['staticExport', 'enabled'], values.enabled);
  document.setIn(['staticExport', 'bundleUrl'], values.bundleUrl);
  document.setIn(['staticExport', 'version'], values.version);
  return document.toString({ lineWidth: 0 });
}
