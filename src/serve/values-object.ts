import {
  CoreV1Api,
  type KubeConfig,
  type KubernetesObject,
  type V1ConfigMap,
  type V1Secret,
} from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { SupervisedInformer } from '../kube/supervised-informer.ts';

/** A Secret or ConfigMap holding the values file under one key, watched through the Kubernetes API. */
export interface ValuesObjectRef {
  kind: 'Secret' | 'ConfigMap';
  namespace: string;
  name: string;
  key: string;
}

/** "NAMESPACE/NAME[:KEY]" → the reference (KEY defaults to values.yaml), or an error naming the flag. */
export function parseValuesObject(
  kind: ValuesObjectRef['kind'],
  text: string,
  flag: string,
): ValuesObjectRef {
  const match = /^([a-z0-9-]{1,63})\/([a-z0-9.-]{1,253})(?::([-._a-zA-Z0-9]{1,253}))?$/.exec(text.trim());
  if (!match) throw new Error(`${flag} wants NAMESPACE/NAME or NAMESPACE/NAME:KEY, got "${text}"`);
  return { kind, namespace: match[1] as string, name: match[2] as string, key: match[3] ?? 'values.yaml' };
}

/**
 * Watches one object and hands its values text to `onText` as soon as the API server has it,
 * seconds before kubelet updates the mounted file. The text of a Secret is never logged.
 */
export async function watchValuesObject(
  ref: ValuesObjectRef,
  kubeConfig: KubeConfig,
  log: Logger,
  onText: (text: string, origin: string) => void,
): Promise<() => void> {
  const core = kubeConfig.makeApiClient(CoreV1Api);
  const fieldSelector = `metadata.name=${ref.name}`;
  const plural = ref.kind === 'Secret' ? 'secrets' : 'configmaps';
  const origin = `${ref.kind} ${ref.namespace}/${ref.name}`;
  const informer = new SupervisedInformer<KubernetesObject>({
    kubeConfig,
    path: `/api/v1/namespaces/${ref.namespace}/${plural}`,
    fieldSelector,
    list: () =>
      ref.kind === 'Secret'
        ? core.listNamespacedSecret({ namespace: ref.namespace, fieldSelector })
        : core.listNamespacedConfigMap({ namespace: ref.namespace, fieldSelector }),
    onChange: (object, type) => {
      if (type === 'delete') return;
      const text = valuesText(object, ref);
      if (text === undefined) log.warn({ object: origin, key: ref.key }, 'the values object has no such key');
      else onText(text, origin);
    },
    log,
  });
  await informer.start();
  return () => informer.stop();
}

function valuesText(object: KubernetesObject, ref: ValuesObjectRef): string | undefined {
  if (ref.kind === 'Secret') {
    const encoded = (object as V1Secret).data?.[ref.key];
    return encoded === undefined
      ? (object as V1Secret).stringData?.[ref.key]
      : Buffer.from(encoded, 'base64').toString('utf8');
  }
  return (object as V1ConfigMap).data?.[ref.key];
}
