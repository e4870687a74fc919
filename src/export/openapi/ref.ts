import { HTTP_METHODS, type HttpMethod } from './types.ts';

/** An operation named by a page: `openapi: "openapi.json GET /users/{id}"` or a navigation entry "GET /x". */
export interface OperationRef {
  /** The OpenAPI file named before the method (repository path or URL), if any. */
  file?: string;
  method: HttpMethod;
  path: string;
}

/** Thrown for references the export recognizes but cannot render, such as "WEBHOOK name". */
export class UnsupportedOperationRefError extends Error {
  readonly ref: string;
  constructor(ref: string, message: string) {
    super(message);
    this.name = 'UnsupportedOperationRefError';
    this.ref = ref;
  }
}

export function isHttpMethod(value: string): value is HttpMethod {
  return (HTTP_METHODS as readonly string[]).includes(value);
}

/**
 * Parses "[file] METHOD /path". Returns undefined for anything else (an ordinary page path such as
 * "api-reference/overview"), so it can be used to tell operation entries from page entries.
 * A webhook reference ("[file] WEBHOOK name") throws UnsupportedOperationRefError.
 */
export function parseOperationRef(text: string): OperationRef | undefined {
  const parts = text.trim().split(/\s+/);
  if (parts.length < 2 || parts.length > 3) return undefined;
  const [file, methodText, path] = parts.length === 3 ? parts : [undefined, parts[0], parts[1]];
  if (methodText === undefined || path === undefined) return undefined;
  const method = methodText.toUpperCase();
  if (method === 'WEBHOOK') {
    throw new UnsupportedOperationRefError(
      text,
      `OpenAPI reference "${text.trim()}": webhook pages are not supported by the static export; ` +
        'document the webhook on an ordinary page instead.',
    );
  }
  if (!isHttpMethod(method) || !path.startsWith('/')) return undefined;
  return file === undefined ? { method, path } : { file, method, path };
}
