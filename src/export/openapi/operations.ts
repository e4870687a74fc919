import { urlScheme } from '../url-policy.ts';
import { isHttpMethod } from './ref.ts';
import { isObject } from './resolve.ts';
import { asSchema, str } from './schema.ts';
import {
  type ApiCodeSample,
  type ApiExample,
  type ApiHeader,
  type ApiMediaType,
  type ApiOperation,
  type ApiParameter,
  type ApiRequestBody,
  type ApiResponse,
  type ApiSecurityRequirement,
  type ApiSecurityScheme,
  type ApiServer,
  HTTP_METHODS,
  type HttpMethod,
  type OpenApiSpec,
  type ParameterLocation,
} from './types.ts';

type JsonObject = Record<string, unknown>;

const indexes = new WeakMap<
  OpenApiSpec,
  { list: ApiOperation[]; exact: Map<string, ApiOperation>; loose: Map<string, ApiOperation> }
>();

// "/users/{userId}/" and "/users/{id}" name the same route; used only when no exact match exists.
function loosePath(path: string): string {
  return path.replace(/\{[^}]*\}/g, '{}').replace(/\/+$/, '') || '/';
}

function indexOf(spec: OpenApiSpec) {
  let index = indexes.get(spec);
  if (index) return index;
  const list: ApiOperation[] = [];
  const exact = new Map<string, ApiOperation>();
  const loose = new Map<string, ApiOperation>();
  const doc = spec.document;
  const paths = isObject(doc.paths) ? doc.paths : {};
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    for (const method of HTTP_METHODS) {
      const op = item[method.toLowerCase()];
      if (!isObject(op)) continue;
      const operation = normalizeOperation(doc, path, item, method, op);
      list.push(operation);
      exact.set(`${method} ${path}`, operation);
      const key = `${method} ${loosePath(path)}`;
      if (!loose.has(key)) loose.set(key, operation);
    }
  }
  index = { list, exact, loose };
  indexes.set(spec, index);
  return index;
}

/** Every operation of the document, in document order. */
export function listOperations(spec: OpenApiSpec): ApiOperation[] {
  return indexOf(spec).list;
}

/**
 * The operation for "METHOD /path" (method in any case). An exact path match wins; otherwise a
 * path that differs only in parameter names or a trailing slash is accepted.
 */
export function findOperation(spec: OpenApiSpec, method: string, path: string): ApiOperation | undefined {
  const upper = method.toUpperCase();
  if (!isHttpMethod(upper)) return undefined;
  const index = indexOf(spec);
  return index.exact.get(`${upper} ${path}`) ?? index.loose.get(`${upper} ${loosePath(path)}`);
}

/** A title for a page that has none of its own: summary, then operationId, then "METHOD /path". */
export function operationTitle(op: ApiOperation): string {
  return op.summary?.trim() || op.operationId || `${op.method} ${op.path}`;
}

// ---- normalization -----------------------------------------------------------------------------

function normalizeOperation(
  doc: JsonObject,
  path: string,
  item: JsonObject,
  method: HttpMethod,
  op: JsonObject,
): ApiOperation {
  const summary = str(op.summary) ?? str(item.summary);
  const description = str(op.description) ?? str(item.description);
  const operationId = str(op.operationId);
  const requestBody = normalizeRequestBody(op.requestBody);
  return {
    method,
    path,
    ...(summary !== undefined ? { summary } : {}),
    ...(description !== undefined ? { description } : {}),
    ...(operationId !== undefined ? { operationId } : {}),
    deprecated: op.deprecated === true,
    hidden: op['x-hidden'] === true,
    tags: Array.isArray(op.tags) ? op.tags.filter((t): t is string => typeof t === 'string') : [],
    parameters: mergeParameters(item.parameters, op.parameters),
    ...(requestBody ? { requestBody } : {}),
    responses: normalizeResponses(op.responses),
    security: normalizeSecurity(doc, op.security !== undefined ? op.security : doc.security),
    servers: normalizeServers(
      Array.isArray(op.servers) ? op.servers : Array.isArray(item.servers) ? item.servers : doc.servers,
    ),
    codeSamples: normalizeCodeSamples(op['x-codeSamples'] ?? op['x-code-samples']),
  };
}

const LOCATIONS = new Set<string>(['path', 'query', 'header', 'cookie']);
// OpenAPI: header parameters with these names are ignored (they are described elsewhere).
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

function normalizeExamples(example: unknown, examples: unknown): ApiExample[] {
  const out: ApiExample[] = [];
  if (isObject(examples)) {
    for (const [name, value] of Object.entries(examples)) {
      if (!isObject(value) || value.value === undefined) continue;
      const summary = str(value.summary);
      const description = str(value.description);
      out.push({
        name,
        ...(summary !== undefined ? { summary } : {}),
        ...(description !== undefined ? { description } : {}),
        value: value.value,
      });
    }
  }
  if (out.length === 0 && example !== undefined) out.push({ value: example });
  return out;
}

function firstMediaSchema(content: unknown): JsonObject | undefined {
  if (!isObject(content)) return undefined;
  for (const media of Object.values(content))
    if (isObject(media) && isObject(media.schema)) return media.schema;
  return undefined;
}

function mergeParameters(...lists: unknown[]): ApiParameter[] {
  const byKey = new Map<string, ApiParameter>();
  for (const list of lists) {
    if (!Array.isArray(list)) continue;
    for (const raw of list) {
      if (
        !isObject(raw) ||
        typeof raw.name !== 'string' ||
        typeof raw.in !== 'string' ||
        !LOCATIONS.has(raw.in)
      )
        continue;
      const location = raw.in as ParameterLocation;
      if (location === 'header' && IGNORED_HEADERS.has(raw.name.toLowerCase())) continue;
      const schema = asSchema(raw.schema) ?? firstMediaSchema(raw.content);
      const description = str(raw.description);
      const parameter: ApiParameter = {
        name: raw.name,
        in: location,
        required: location === 'path' || raw.required === true,
        deprecated: raw.deprecated === true,
        ...(description !== undefined ? { description } : {}),
        ...(schema ? { schema } : {}),
        examples: normalizeExamples(raw.example, raw.examples),
      };
      const key = `${location}:${location === 'header' ? raw.name.toLowerCase() : raw.name}`;
      // Re-inserting keeps the operation's definition but moves it to the operation's position.
      byKey.delete(key);
      byKey.set(key, parameter);
    }
  }
  return [...byKey.values()];
}

function normalizeContent(content: unknown): ApiMediaType[] {
  if (!isObject(content)) return [];
  const out: ApiMediaType[] = [];
  for (const [contentType, media] of Object.entries(content)) {
    if (!isObject(media)) continue;
    const schema = asSchema(media.schema);
    out.push({
      contentType,
      ...(schema ? { schema } : {}),
      examples: normalizeExamples(media.example, media.examples),
    });
  }
  return out;
}

function normalizeRequestBody(raw: unknown): ApiRequestBody | undefined {
  if (!isObject(raw)) return undefined;
  const description = str(raw.description);
  return {
    ...(description !== undefined ? { description } : {}),
    required: raw.required === true,
    content: normalizeContent(raw.content),
  };
}

function normalizeResponses(raw: unknown): ApiResponse[] {
  if (!isObject(raw)) return [];
  const out: ApiResponse[] = [];
  for (const [status, response] of Object.entries(raw)) {
    if (!isObject(response) || status.startsWith('x-')) continue;
    const headers: ApiHeader[] = [];
    if (isObject(response.headers)) {
      for (const [name, header] of Object.entries(response.headers)) {
        if (!isObject(header)) continue;
        const description = str(header.description);
        const schema = asSchema(header.schema) ?? firstMediaSchema(header.content);
        headers.push({
          name,
          ...(description !== undefined ? { description } : {}),
          required: header.required === true,
          ...(schema ? { schema } : {}),
        });
      }
    }
    const description = str(response.description);
    out.push({
      status,
      ...(description !== undefined ? { description } : {}),
      content: normalizeContent(response.content),
      headers,
    });
  }
  // Object key order puts integer-like keys first; keep "default" last and ranges after exact codes.
  const rank = (status: string) =>
    /^\d{3}$/.test(status) ? Number(status) : /^\dXX$/i.test(status) ? Number(status[0]) * 100 + 99.5 : 1000;
  return out.sort((a, b) => rank(a.status) - rank(b.status));
}

function normalizeSecurityScheme(name: string, raw: unknown, scopes: string[]): ApiSecurityScheme {
  const scheme = isObject(raw) ? raw : {};
  const types = ['apiKey', 'http', 'oauth2', 'openIdConnect', 'mutualTLS'] as const;
  const type = types.find((t) => t === scheme.type) ?? 'unknown';
  const description = str(scheme.description);
  const httpScheme = str(scheme.scheme)?.toLowerCase();
  const bearerFormat = str(scheme.bearerFormat);
  const location =
    scheme.in === 'query' || scheme.in === 'header' || scheme.in === 'cookie' ? scheme.in : undefined;
  const parameterName = str(scheme.name);
  return {
    name,
    type,
    ...(description !== undefined ? { description } : {}),
    ...(httpScheme !== undefined ? { scheme: httpScheme } : {}),
    ...(bearerFormat !== undefined ? { bearerFormat } : {}),
    ...(location !== undefined ? { in: location } : {}),
    ...(parameterName !== undefined ? { parameterName } : {}),
    scopes,
  };
}

function normalizeSecurity(doc: JsonObject, raw: unknown): ApiSecurityRequirement[] {
  if (!Array.isArray(raw)) return [];
  const components = isObject(doc.components) ? doc.components : {};
  const schemes = isObject(components.securitySchemes) ? components.securitySchemes : {};
  const out: ApiSecurityRequirement[] = [];
  for (const requirement of raw) {
    if (!isObject(requirement)) continue;
    out.push(
      Object.entries(requirement).map(([name, scopes]) =>
        normalizeSecurityScheme(
          name,
          schemes[name],
          Array.isArray(scopes) ? scopes.filter((s): s is string => typeof s === 'string') : [],
        ),
      ),
    );
  }
  // `security: [{}]` alone means "no authentication".
  return out.every((r) => r.length === 0) ? [] : out;
}

function normalizeServers(raw: unknown): ApiServer[] {
  if (!Array.isArray(raw)) return [];
  const out: ApiServer[] = [];
  for (const server of raw) {
    if (!isObject(server) || typeof server.url !== 'string') continue;
    const variables = isObject(server.variables) ? server.variables : {};
    const url = server.url.replace(/\{([^}]+)\}/g, (whole, name: string) => {
      const variable = variables[name];
      return isObject(variable) && variable.default !== undefined ? String(variable.default) : whole;
    });
    // Samples and the playground send to it: http(s) or relative only, never javascript: or file:.
    const scheme = urlScheme(url);
    if (scheme !== undefined && scheme !== 'http' && scheme !== 'https') continue;
    const description = str(server.description);
    out.push({ url, ...(description !== undefined ? { description } : {}) });
  }
  return out;
}

function normalizeCodeSamples(raw: unknown): ApiCodeSample[] {
  if (!Array.isArray(raw)) return [];
  const out: ApiCodeSample[] = [];
  for (const sample of raw) {
    if (!isObject(sample) || typeof sample.source !== 'string') continue;
    const label = str(sample.label);
    out.push({
      lang: str(sample.lang) ?? 'text',
      ...(label !== undefined ? { label } : {}),
      source: sample.source,
    });
  }
  return out;
}
