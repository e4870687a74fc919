/**
 * Static API reference pages from OpenAPI 3.x: parse the page's operation reference, load the
 * repository's spec (never over the network), find the operation, render it as hast and Markdown.
 */

export { OperationBudget } from './budget.ts';
export { type CodeSample, type ResponseSample, responseSamples } from './examples.ts';
export { OpenApiError } from './files.ts';
export { clearOpenApiCache, type LoadOpenApiOptions, loadOpenApi } from './load.ts';
export { operationMarkdown } from './operation-markdown.ts';
export { findOperation, listOperations, operationTitle } from './operations.ts';
export type { PlaygroundOptions } from './playground.ts';
export { type OperationRef, parseOperationRef, UnsupportedOperationRefError } from './ref.ts';
export {
  type FetchRemoteSpec,
  loadSpecSource,
  type RemoteSpecCopy,
  type RemoteSpecOptions,
  shownUrl,
} from './remote-copy.ts';
export { type ApiPageOptions, DEFAULT_API_PAGE, renderOperation } from './render.ts';
export { DEFAULT_SAMPLE_LANGUAGES, sampleLanguage } from './sample-languages.ts';
export { type RequestSample, requestSamples, type SampleOptions } from './samples.ts';
export type {
  ApiCodeSample,
  ApiExample,
  ApiHeader,
  ApiMediaType,
  ApiOperation,
  ApiParameter,
  ApiRequestBody,
  ApiResponse,
  ApiSecurityRequirement,
  ApiSecurityScheme,
  ApiServer,
  HttpMethod,
  OpenApiSpec,
  ParameterLocation,
  SchemaObject,
} from './types.ts';
export { HTTP_METHODS } from './types.ts';

/**
 * The API pages' stylesheet (part of the site's) and script: sample choosers and the playground,
 * written as `_docsnap/api.js` when the site has API pages and loaded only by them.
 */
export const openapiAssets: { css: URL[]; js: URL } = {
  css: [new URL('./assets/openapi.css', import.meta.url)],
  js: new URL('./assets/api.js', import.meta.url),
};

/** Where the API pages' script goes in an export. */
export const API_JS = '_docsnap/api.js';
