import type { CoreV1Api, V1Secret } from '@kubernetes/client-node';
import { SECRET_ACCESS_LABEL } from '../../contract/static-export.ts';

/**
 * A Secret that opted in to docsnap (SECRET_ACCESS_LABEL), from the operator's cache when given,
 * else from the API; undefined when there is none, or it does not carry the label. The operator
 * lists Secrets by that label and never gets one by name: it cannot read any other.
 */
export async function findSecret(
  core: CoreV1Api,
  namespace: string,
  name: string,
  cached?: (namespace: string, name: string) => V1Secret | undefined,
): Promise<V1Secret | undefined> {
  const found = cached?.(namespace, name);
  if (found) return found;
  const list = await core.listNamespacedSecret({
    namespace,
    fieldSelector: `metadata.name=${name}`,
    labelSelector: SECRET_ACCESS_LABEL,
  });
  return list.items[0];
}
