import { type HarRequest, HTTPSnippet } from '@readme/httpsnippet';
import { OperationBudget } from './budget.ts';
import { type CodeSample, mediaExamples, parameterValue, preferredMedia, scalarText } from './examples.ts';
import { isObject } from './resolve.ts';
import { DEFAULT_SAMPLE_LANGUAGES, LANGUAGES, sampleLanguage } from './sample-languages.ts';
import { asSchema, str, toJson } from './schema.ts';
import type { ApiOperation, ApiSecurityScheme } from './types.ts';

/**
 * Request samples in the languages a reader picks from, generated at build time by an HTTP
 * snippet generator (@readme/httpsnippet) from one HAR request built from the operation: the
 * first server, example values for path, query, header and cookie parameters (required ones, or
 * all when docs.json says so), the first security requirement as placeholders, and the example
 * body. A sample the document carries (`x-codeSamples`, `x-code-samples`) for a language takes
 * that language's place.
 */

export interface SampleOptions {
  /** Keys of LANGUAGES, in the order the reader sees them. */
  languages: readonly string[];
  /** Only required parameters in samples (docs.json `api.examples.defaults: "required"`). */
  requiredOnly: boolean;
}

export const DEFAULT_SAMPLE_OPTIONS: SampleOptions = {
  languages: DEFAULT_SAMPLE_LANGUAGES,
  requiredOnly: true,
};

/** A sample with the language key the reader's choice is remembered by. */
export interface RequestSample extends CodeSample {
  language: string;
}

/**
 * Placeholders go into the HAR request as plain tokens (the generator percent-encodes `<` and
 * `>` in URLs and cookies) and become `<name>` in the generated code.
 */
class Placeholders {
  private readonly names: string[] = [];
  token(name: string): string {
    this.names.push(name.replace(/[^\w.-]+/g, '_'));
    return `DOCSNAPPLACEHOLDER${this.names.length - 1}X`;
  }
  fill(code: string, target: string): string {
    // `<` and `>` are redirections to a shell: a word the generator left unquoted is quoted first.
    const shellSafe = target === 'shell' ? quoteShellWords(code, PLACEHOLDER) : code;
    return shellSafe.replace(PLACEHOLDER, (_, index: string) => `<${this.names[Number(index)]}>`);
  }
}

const PLACEHOLDER = /DOCSNAPPLACEHOLDER(\d+)X/g;

/** Single-quotes each whitespace-separated word of a shell command that holds `pattern` outside quotes. */
function quoteShellWords(code: string, pattern: RegExp): string {
  return code.replace(
    /(^|\s)((?:[^\s'"\\]|\\.)*(?:'[^']*'(?:[^\s'"\\]|\\.)*)*)/g,
    (whole, space: string, word: string) => {
      if (!word || word.startsWith("'") || !new RegExp(pattern.source).test(word.replace(/'[^']*'/g, '')))
        return whole;
      return `${space}'${word.replace(/'/g, `'\\''`)}'`;
    },
  );
}

/**
 * The generator's JavaScript targets write multipart values between single quotes without
 * escaping them: for those, the values arrive escaped already.
 */
function withEscapedFormValues(har: HarRequest): HarRequest {
  const params = har.postData?.params;
  if (!params) return har;
  const escapeQuoted = (value: string) =>
    value.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n');
  return {
    ...har,
    postData: {
      ...har.postData,
      params: params.map((p) => (p.value === undefined ? p : { ...p, value: escapeQuoted(p.value) })),
    },
  } as HarRequest;
}

/** The operation as one HAR request, with example values and placeholders. */
export function harRequest(
  op: ApiOperation,
  options: Pick<SampleOptions, 'requiredOnly'>,
  budget: OperationBudget,
  placeholders = new Placeholders(),
): HarRequest {
  const base = (op.servers[0]?.url ?? 'https://api.example.com').replace(/\/+$/, '');
  const byPath = new Map(op.parameters.filter((p) => p.in === 'path').map((p) => [p.name, p]));
  const path = op.path.replace(/\{([^}]+)\}/g, (_whole, name: string) => {
    const parameter = byPath.get(name);
    const value = parameter ? parameterValue(parameter, budget) : undefined;
    return value === undefined ? placeholders.token(name) : encodeURIComponent(value);
  });
  const headers: HarRequest['headers'] = [];
  const queryString: HarRequest['queryString'] = [];
  const cookies: HarRequest['cookies'] = [];
  const security: ApiSecurityScheme[] = op.security.find((r) => r.length > 0) ?? [];
  for (const scheme of security) {
    const value = placeholders.token(scheme.name);
    if (scheme.type === 'apiKey' && scheme.parameterName) {
      const entry = { name: scheme.parameterName, value };
      if (scheme.in === 'query') queryString.push(entry);
      else if (scheme.in === 'cookie') cookies.push(entry);
      else headers.push(entry);
    } else if (scheme.type === 'http' && scheme.scheme === 'basic') {
      headers.push({ name: 'Authorization', value: `Basic ${placeholders.token('credentials')}` });
    } else if (scheme.type === 'http' && scheme.scheme && scheme.scheme !== 'bearer') {
      const name = `${scheme.scheme[0]?.toUpperCase()}${scheme.scheme.slice(1)}`;
      headers.push({ name: 'Authorization', value: `${name} ${placeholders.token('credentials')}` });
    } else headers.push({ name: 'Authorization', value: `Bearer ${placeholders.token('token')}` });
  }
  for (const parameter of op.parameters) {
    if (parameter.in === 'path' || (options.requiredOnly && !parameter.required)) continue;
    const entry = {
      name: parameter.name,
      value: parameterValue(parameter, budget) ?? placeholders.token(parameter.name),
    };
    if (parameter.in === 'query') queryString.push(entry);
    else if (parameter.in === 'header') headers.push(entry);
    else cookies.push(entry);
  }
  const postData = bodyOf(op, budget, placeholders);
  if (postData) headers.push({ name: 'Content-Type', value: postData.mimeType });
  return {
    method: op.method,
    url: `${base}${path}`,
    httpVersion: 'HTTP/1.1',
    headers,
    queryString,
    cookies,
    headersSize: -1,
    bodySize: -1,
    // The generator's type wants a body; with no text and no params it writes none.
    postData: postData ?? { mimeType: 'application/octet-stream' },
  };
}

function bodyOf(
  op: ApiOperation,
  budget: OperationBudget,
  placeholders: Placeholders,
): HarRequest['postData'] | undefined {
  const media = op.requestBody ? preferredMedia(op.requestBody.content) : undefined;
  if (!media) return undefined;
  const value = mediaExamples(media, 'request', budget)[0]?.value;
  const type = media.contentType.toLowerCase();
  if (type.startsWith('multipart/form-data') || type.startsWith('application/x-www-form-urlencoded')) {
    const properties = media.schema && isObject(media.schema.properties) ? media.schema.properties : {};
    type Param = { name: string; value?: string; fileName?: string; contentType?: string };
    const params = Object.entries(isObject(value) ? value : {}).map(([name, field]): Param => {
      const property = asSchema(properties[name]);
      const binary = property?.format === 'binary' || property?.contentMediaType !== undefined;
      return binary && type.startsWith('multipart/')
        ? {
            name,
            fileName: placeholders.token(name),
            contentType: str(property?.contentMediaType) ?? 'application/octet-stream',
          }
        : { name, value: scalarText(field) };
    });
    return { mimeType: media.contentType, params };
  }
  if (value === undefined) return { mimeType: media.contentType, text: '' };
  return { mimeType: media.contentType, text: typeof value === 'string' ? value : toJson(value) };
}

// A page and its Markdown copy show the same samples: generated once per operation and options.
const generatedFor = new WeakMap<ApiOperation, WeakMap<SampleOptions, RequestSample[]>>();

/** The request samples of an operation, in the reader's languages; the document's own take their language's place. */
export function requestSamples(
  op: ApiOperation,
  options: SampleOptions = DEFAULT_SAMPLE_OPTIONS,
  budget = OperationBudget.standalone(op),
): RequestSample[] {
  let byOptions = generatedFor.get(op);
  if (!byOptions) {
    byOptions = new WeakMap();
    generatedFor.set(op, byOptions);
  }
  let samples = byOptions.get(options);
  if (!samples) {
    samples = samplesOf(op, options, budget);
    byOptions.set(options, samples);
  }
  return samples;
}

function samplesOf(op: ApiOperation, options: SampleOptions, budget: OperationBudget): RequestSample[] {
  const own = new Map<string, RequestSample>();
  const others: RequestSample[] = [];
  for (const sample of op.codeSamples) {
    const language = sampleLanguage(sample.lang);
    const known = language ? LANGUAGES[language] : undefined;
    const entry = {
      title: sample.label ?? known?.title ?? sample.lang,
      lang: known?.lang ?? sample.lang.trim().toLowerCase(),
      code: sample.source,
      language: language ?? sample.lang.trim().toLowerCase(),
    };
    if (language && !own.has(language)) own.set(language, entry);
    else others.push(entry);
  }
  const placeholders = new Placeholders();
  let har: HarRequest | undefined;
  const snippets = new Map<boolean, HTTPSnippet>();
  const generated = (language: string): RequestSample | undefined => {
    const spec = LANGUAGES[language];
    if (!spec) return undefined;
    har ??= harRequest(op, options, budget, placeholders);
    const javascript = spec.target === 'javascript' || spec.target === 'node';
    let snippet = snippets.get(javascript);
    if (!snippet) {
      snippet = new HTTPSnippet(javascript ? withEscapedFormValues(har) : har);
      snippets.set(javascript, snippet);
    }
    const [code] = snippet.convert(spec.target as never, spec.client) || [];
    return typeof code === 'string'
      ? { title: spec.title, lang: spec.lang, code: placeholders.fill(code, spec.target), language }
      : undefined;
  };
  const samples = options.languages.flatMap((language) => {
    const sample = own.get(language) ?? generated(language);
    own.delete(language);
    return sample ? [sample] : [];
  });
  return [...samples, ...own.values(), ...others];
}
