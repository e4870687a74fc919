import { OperationBudget, textWeight } from './budget.ts';
import { isObject } from './resolve.ts';
import {
  asSchema,
  type ExampleMode,
  exampleFromSchema,
  explicitExample,
  schemaTypes,
  str,
  toJson,
} from './schema.ts';
import type { ApiExample, ApiMediaType, ApiOperation, ApiParameter, ApiSecurityScheme } from './types.ts';

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
function mediaExamples(media: ApiMediaType, mode: ExampleMode, budget: OperationBudget): ApiExample[] {
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

// ---- request -------------------------------------------------------------------------------------

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function parameterValue(parameter: ApiParameter, budget: OperationBudget): string | undefined {
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

function scalarText(value: unknown): string {
  if (Array.isArray(value)) return value.map(scalarText).join(',');
  if (typeof value === 'object' && value !== null) return toJson(value).replace(/\s+/g, '');
  return String(value);
}

function authHeaders(op: ApiOperation): {
  headers: string[];
  query: string[];
  cookies: string[];
  user?: string;
} {
  const out: { headers: string[]; query: string[]; cookies: string[]; user?: string } = {
    headers: [],
    query: [],
    cookies: [],
  };
  const first: ApiSecurityScheme[] = op.security.find((r) => r.length > 0) ?? [];
  for (const scheme of first) {
    const placeholder = `<${scheme.name.replace(/[^\w-]+/g, '_')}>`;
    if (scheme.type === 'apiKey' && scheme.parameterName) {
      if (scheme.in === 'query') out.query.push(`${encodeURIComponent(scheme.parameterName)}=${placeholder}`);
      else if (scheme.in === 'cookie') out.cookies.push(`${scheme.parameterName}=${placeholder}`);
      else out.headers.push(`${scheme.parameterName}: ${placeholder}`);
    } else if (scheme.type === 'http' && scheme.scheme === 'basic') {
      out.user = '<username>:<password>';
    } else if (scheme.type === 'http' && scheme.scheme !== undefined && scheme.scheme !== 'bearer') {
      out.headers.push(
        `Authorization: ${scheme.scheme[0]?.toUpperCase()}${scheme.scheme.slice(1)} <credentials>`,
      );
    } else if (scheme.type === 'http' || scheme.type === 'oauth2' || scheme.type === 'openIdConnect') {
      out.headers.push('Authorization: Bearer <token>');
    }
  }
  return out;
}

function bodyLines(media: ApiMediaType, budget: OperationBudget): string[] {
  const example = mediaExamples(media, 'request', budget)[0];
  const type = media.contentType.toLowerCase();
  const lines = [`--header ${shellQuote(`Content-Type: ${media.contentType}`)}`];
  if (!example) return lines;
  const value = example.value;
  if (type.startsWith('multipart/form-data') || type.startsWith('application/x-www-form-urlencoded')) {
    const flag = type.startsWith('multipart/') ? '--form' : '--data-urlencode';
    const properties = media.schema && isObject(media.schema.properties) ? media.schema.properties : {};
    if (isObject(value)) {
      for (const [name, field] of Object.entries(value)) {
        const property = asSchema(properties[name]);
        const binary = property?.format === 'binary' || property?.contentMediaType !== undefined;
        const text = binary && flag === '--form' ? `@<${name}>` : scalarText(field);
        lines.push(`${flag} ${shellQuote(`${name}=${text}`)}`);
      }
    }
    return lines;
  }
  lines.push(`--data ${shellQuote(format(value, languageOf(media.contentType)))}`);
  return lines;
}

/** A curl command for the operation: first server, example path and required query values, auth, body. */
export function curlExample(op: ApiOperation, budget = OperationBudget.standalone(op)): string {
  const base = (op.servers[0]?.url ?? '').replace(/\/+$/, '');
  const byPath = new Map(op.parameters.filter((p) => p.in === 'path').map((p) => [p.name, p]));
  const path = op.path.replace(/\{([^}]+)\}/g, (_whole, name: string) => {
    const parameter = byPath.get(name);
    const value = parameter ? parameterValue(parameter, budget) : undefined;
    // curl treats {…} as a URL glob, so unknown values become <name> placeholders.
    return value === undefined ? `<${name}>` : encodeURIComponent(value);
  });
  const auth = authHeaders(op);
  const query = [...auth.query];
  const lines = [`--request ${op.method}`];
  const headers = [...auth.headers];
  const cookies = [...auth.cookies];
  for (const parameter of op.parameters) {
    if (!parameter.required || parameter.in === 'path') continue;
    const value = parameterValue(parameter, budget) ?? `<${parameter.name}>`;
    if (parameter.in === 'query')
      query.push(`${encodeURIComponent(parameter.name)}=${encodeURIComponent(value)}`);
    else if (parameter.in === 'header') headers.push(`${parameter.name}: ${value}`);
    else cookies.push(`${parameter.name}=${value}`);
  }
  lines.push(`--url ${shellQuote(`${base}${path}${query.length > 0 ? `?${query.join('&')}` : ''}`)}`);
  if (auth.user) lines.push(`--user ${shellQuote(auth.user)}`);
  for (const header of headers) lines.push(`--header ${shellQuote(header)}`);
  if (cookies.length > 0) lines.push(`--cookie ${shellQuote(cookies.join('; '))}`);
  const media = op.requestBody ? preferredMedia(op.requestBody.content) : undefined;
  if (media) lines.push(...bodyLines(media, budget));
  return `curl ${lines.join(' \\\n  ')}`;
}

const SAMPLE_LANGUAGES: Record<string, string> = {
  curl: 'bash',
  shell: 'bash',
  sh: 'bash',
  'c#': 'csharp',
  csharp: 'csharp',
  js: 'javascript',
  node: 'javascript',
  'node.js': 'javascript',
  ts: 'typescript',
  py: 'python',
  golang: 'go',
};

/** The request examples: curl, then the document's own code samples (x-codeSamples). */
export function requestSamples(op: ApiOperation, budget = OperationBudget.standalone(op)): CodeSample[] {
  const samples: CodeSample[] = [{ title: 'cURL', lang: 'bash', code: curlExample(op, budget) }];
  for (const sample of op.codeSamples) {
    const lang = sample.lang.trim().toLowerCase();
    samples.push({
      title: sample.label ?? sample.lang,
      lang: SAMPLE_LANGUAGES[lang] ?? lang,
      code: sample.source,
    });
  }
  return samples;
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
