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
 * Throws with the parser's message when the text is not YAML or not a mapping.
 */
export function withStaticExportValues(text: string | undefined, values: StaticExportValues): string {
  const parsed = parseDocument(text ?? '');
  if (parsed.errors.length > 0) throw new Error(`not valid YAML: ${parsed.errors[0]?.message}`);
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
