/**
 * The normalized model of an OpenAPI 3.x operation that API reference pages are rendered from.
 * Schemas stay as the (dereferenced) JSON objects of the document: they may share nodes and, for
 * recursive types, contain cycles, so everything that walks them tracks the objects it is inside.
 */

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** A JSON Schema object as found in the document, after `$ref` resolution. Read through schema.ts. */
export type SchemaObject = Readonly<Record<string, unknown>>;

/** A loaded, `$ref`-resolved OpenAPI 3.x document. */
export interface OpenApiSpec {
  /** The file, relative to the repository root, '/'-separated. */
  readonly file: string;
  /** The document's `openapi` field, e.g. "3.0.3". */
  readonly version: string;
  readonly title?: string;
  readonly document: Readonly<Record<string, unknown>>;
  /**
   * Problems that did not stop loading (a `$ref` to a remote URL or to a missing file, …); the
   * affected schemas render as "unresolved". Worth reporting once per spec.
   */
  readonly warnings: readonly string[];
}

export type ParameterLocation = 'path' | 'query' | 'header' | 'cookie';

export interface ApiExample {
  /** The key in an `examples` map; absent for a single `example`. */
  name?: string;
  summary?: string;
  description?: string;
  value: unknown;
}

export interface ApiParameter {
  name: string;
  in: ParameterLocation;
  required: boolean;
  deprecated: boolean;
  description?: string;
  schema?: SchemaObject;
  examples: ApiExample[];
}

export interface ApiMediaType {
  contentType: string;
  schema?: SchemaObject;
  examples: ApiExample[];
}

export interface ApiRequestBody {
  description?: string;
  required: boolean;
  content: ApiMediaType[];
}

export interface ApiHeader {
  name: string;
  description?: string;
  required: boolean;
  schema?: SchemaObject;
}

export interface ApiResponse {
  /** "200", "4XX" or "default". */
  status: string;
  description?: string;
  content: ApiMediaType[];
  headers: ApiHeader[];
}

export interface ApiSecurityScheme {
  /** The key under components.securitySchemes. */
  name: string;
  type: 'apiKey' | 'http' | 'oauth2' | 'openIdConnect' | 'mutualTLS' | 'unknown';
  description?: string;
  /** For http: "bearer", "basic", … */
  scheme?: string;
  bearerFormat?: string;
  /** For apiKey: where the key goes and under which name. */
  in?: 'query' | 'header' | 'cookie';
  parameterName?: string;
  scopes: string[];
}

/** One way to authenticate: every scheme listed applies together. An empty list means "no auth". */
export type ApiSecurityRequirement = ApiSecurityScheme[];

export interface ApiServer {
  /** With server variables replaced by their defaults. */
  url: string;
  description?: string;
}

/** A vendor code sample (`x-codeSamples` / `x-code-samples`). */
export interface ApiCodeSample {
  lang: string;
  label?: string;
  source: string;
}

export interface ApiOperation {
  method: HttpMethod;
  path: string;
  summary?: string;
  /** Markdown. */
  description?: string;
  operationId?: string;
  deprecated: boolean;
  /** `x-hidden: true`: the operation gets no generated page. */
  hidden: boolean;
  tags: string[];
  /** Path-level and operation-level parameters merged (the operation's win), in document order. */
  parameters: ApiParameter[];
  requestBody?: ApiRequestBody;
  responses: ApiResponse[];
  /** Alternatives (any one suffices); empty when the operation needs no authentication. */
  security: ApiSecurityRequirement[];
  servers: ApiServer[];
  codeSamples: ApiCodeSample[];
}
