import type { CoreV1Api, V1Secret } from '@kubernetes/client-node';
import { isNotFound } from './kube-errors.ts';

/** A Secret from the operator's cache when given, else from the API; undefined when it does not exist. */
export async function findSecret(
  core: CoreV1Api,
  namespace: string,
  name: string,
  cached?: (namespace: string, name: string) => V1Secret | undefined,
): Promise<V1Secret | undefined> {
  const found = cached?.(namespace, name);
  if (found) return found;
  try {
    return await core.readNamespacedSecret({ namespace, name });
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}
