import { OperationBudget, textWeight } from './budget.ts';
import { type ExampleMode, exampleFromSchema, explicitExample, schemaTypes, str, toJson } from './schema.ts';
import type { ApiExample, ApiMediaType, ApiOperation, ApiParameter } from './types.ts';

/** A code block to show: the page renders it with ctx.codeBlock, the Markdown copy as a fence. */
export interface CodeSample {
  title: string;
  lang: string;
  code: string;
}

export interface ResponseSample extends CodeSample {
  status: string;
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b|^application\/json/i;

/** The media type to show first: JSON if there is one. */
export function preferredMedia(content: ApiMediaType[]): ApiMediaType | undefined {
  return content.find((m) => JSON_TYPE.test(m.contentType)) ?? content[0];
}

export function languageOf(contentType: string): string {
  const type = contentType.toLowerCase();
  if (JSON_TYPE.test(type)) return 'json';
  if (type.includes('xml')) return 'xml';
  if (type.includes('yaml')) return 'yaml';
  if (type.includes('html')) return 'html';
  if (type.includes('csv')) return 'csv';
  return 'text';
}

/** The examples of a media type: its own (their text counted), else one generated from its schema. */
export function mediaExamples(media: ApiMediaType, mode: ExampleMode, budget: OperationBudget): ApiExample[] {
  if (media.examples.length > 0) {
    for (const example of media.examples) budget.text(textWeight(example.value));
    return media.examples;
  }
  if (!media.schema) return [];
  return [{ value: exampleFromSchema(media.schema, mode, () => budget.node()) }];
}

function format(value: unknown, lang: string): string {
  if (typeof value === 'string' && lang !== 'json') return value;
  return toJson(value);
}

// ---- request values (samples.ts builds the requests) ------------------------------------------

/** A parameter's example value as text; undefined when only a placeholder would do. */
export function parameterValue(parameter: ApiParameter, budget: OperationBudget): string | undefined {
  const explicit =
    parameter.examples[0] ?? (parameter.schema ? explicitExample(parameter.schema) : undefined);
  if (explicit !== undefined) return scalarText(explicit.value);
  const schema = parameter.schema;
  if (!schema) return undefined;
  // Generated values read well for numbers, booleans and formats; a bare "string" in a URL does not.
  const types = schemaTypes(schema);
  if (types[0] === 'string' && str(schema.format) === undefined) return undefined;
  return scalarText(exampleFromSchema(schema, 'request', () => budget.node()));
}

export function scalarText(value: unknown): string {
  if (Array.isArray(value)) return value.map(scalarText).join(',');
  if (typeof value === 'object' && value !== null) return toJson(value).replace(/\s+/g, '');
  return String(value);
}

/** One example per response status (each named example of it, if there are several). */
export function responseSamples(op: ApiOperation, budget = OperationBudget.standalone(op)): ResponseSample[] {
  const out: ResponseSample[] = [];
  for (const response of op.responses) {
    const media = preferredMedia(response.content);
    if (!media) continue;
    const lang = languageOf(media.contentType);
    const examples = mediaExamples(media, 'response', budget);
    for (const example of examples) {
      const name = example.summary ?? example.name;
      const title = examples.length > 1 && name ? `${response.status} ${name}` : response.status;
      out.push({ status: response.status, title, lang, code: format(example.value, lang) });
    }
  }
  return out;
}
