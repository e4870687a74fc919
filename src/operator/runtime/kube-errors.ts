import { ApiException } from '@kubernetes/client-node';

/** The HTTP status of a failed Kubernetes API call, if it got that far. */
export function statusOf(error: unknown): number | undefined {
  if (error instanceof ApiException) return error.code;
  const code = (error as { code?: unknown; statusCode?: unknown } | undefined)?.code;
  return typeof code === 'number' ? code : undefined;
}

export const isNotFound = (error: unknown) => statusOf(error) === 404;
export const isConflict = (error: unknown) => statusOf(error) === 409;

/**
 * The apiserver's own message of a failed call ("secrets \"x\" is forbidden: …"), rather than the
 * client's dump of status, body and headers.
 */
export function kubeMessage(error: unknown): string {
  if (error instanceof ApiException) {
    let body: unknown = error.body;
    if (typeof error.body === 'string') {
      try {
        body = JSON.parse(error.body);
      } catch {
        return `HTTP ${error.code}: ${error.body.slice(0, 300)}`;
      }
    }
    const message = (body as { message?: unknown } | undefined)?.message;
    return typeof message === 'string' ? message : `HTTP ${error.code}`;
  }
  return error instanceof Error ? error.message : String(error);
}
