/**
 * Static API reference pages from OpenAPI 3.x: parse the page's operation reference, load the
 * repository's spec (never over the network), find the operation, render it as hast and Markdown.
 */

export { OperationBudget } from './budget.ts';
export {
  type CodeSample,
  curlExample,
  type ResponseSample,
  requestSamples,
  responseSamples,
} from './examples.ts';
export { OpenApiError } from './files.ts';
export { clearOpenApiCache, type LoadOpenApiOptions, loadOpenApi } from './load.ts';
export { operationMarkdown } from './operation-markdown.ts';
export { findOperation, listOperations, operationTitle } from './operations.ts';
export { type OperationRef, parseOperationRef, UnsupportedOperationRefError } from './ref.ts';
export { renderOperation } from './render.ts';
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

/** Stylesheets the page must link when it contains an API reference (no script is needed). */
export const openapiAssets: { css: URL[] } = {
  css: [new URL('./assets/openapi.css', import.meta.url)],
};
