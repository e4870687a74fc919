import { ApiException } from '@kubernetes/client-node';

/** The HTTP status of a failed Kubernetes API call, if it got that far. */
export function statusOf(error: unknown): number | undefined {
  if (error instanceof ApiException) return error.code;
  const code = (error as { code?: unknown; statusCode?: unknown } | undefined)?.code;
  return typeof code === 'number' ? code : undefined;
}

export const isNotFound = (error: unknown) => statusOf(error) === 404;
export const isConflict = (error: unknown) => statusOf(error) === 409;

/** The apiserver's Status body of a failed call, parsed; undefined when it sent something else. */
function statusBody(
  error: ApiException<unknown>,
): { message?: unknown; details?: { name?: unknown } } | undefined {
  if (typeof error.body !== 'string') return error.body as { message?: unknown } | undefined;
  try {
    return JSON.parse(error.body);
  } catch {
    return undefined;
  }
}

/**
 * A 404 for the API rather than the object: a missing object's Status names it in details.name,
 * while a group, version or resource the server does not serve (a CRD not installed) names nothing.
 */
export function isApiNotServed(error: unknown): boolean {
  if (!isNotFound(error)) return false;
  if (!(error instanceof ApiException)) return false;
  return !statusBody(error)?.details?.name;
}

/**
 * The apiserver's own message of a failed call ("secrets \"x\" is forbidden: …"), rather than the
 * client's dump of status, body and headers.
 */
export function kubeMessage(error: unknown): string {
  if (error instanceof ApiException) {
    const body = statusBody(error);
    if (body === undefined && typeof error.body === 'string')
      return `HTTP ${error.code}: ${error.body.slice(0, 300)}`;
    const message = body?.message;
    return typeof message === 'string' ? message : `HTTP ${error.code}`;
  }
  return error instanceof Error ? error.message : String(error);
}
