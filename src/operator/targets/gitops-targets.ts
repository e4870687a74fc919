import type { CustomObjectsApi } from '@kubernetes/client-node';
import type { Target } from '../../contract/static-export.ts';
import { isApiNotServed, isNotFound } from '../runtime/kube-errors.ts';
import {
  applicationWithValues,
  helmReleaseWithValues,
  TargetError,
  type ValuesEdit,
} from './gitops-values.ts';
import type { StaticExportValues } from './helm-values.ts';

/** A GitOps tool's resource that docsnap writes Helm values into, never creates. */
interface GitOpsApi {
  group: string;
  version: string;
  plural: string;
  kind: 'Application' | 'HelmRelease';
  title: string;
}

export const ARGO_CD_APPLICATION: GitOpsApi = {
  group: 'argoproj.io',
  version: 'v1alpha1',
  plural: 'applications',
  kind: 'Application',
  title: 'the Argo CD Application API',
};

export const FLUX_HELM_RELEASE: GitOpsApi = {
  group: 'helm.toolkit.fluxcd.io',
  version: 'v2',
  plural: 'helmreleases',
  kind: 'HelmRelease',
  title: 'the Flux HelmRelease API',
};

/** Called with the field path of the values once it is known (before the write). */
export type Located = (key: string) => void;

/** Writes the values into an existing Argo CD Application's helm.valuesObject. */
export function writeApplication(
  custom: CustomObjectsApi,
  namespace: string,
  ref: NonNullable<Target['argoCDApplication']>,
  values: StaticExportValues,
  located: Located,
): Promise<void> {
  return writeObject(custom, ARGO_CD_APPLICATION, namespace, ref.name, located, (object) =>
    applicationWithValues(object, ref.source, values),
  );
}

/** Writes the values into an existing Flux HelmRelease's spec.values. */
export function writeHelmRelease(
  custom: CustomObjectsApi,
  namespace: string,
  ref: NonNullable<Target['fluxHelmRelease']>,
  values: StaticExportValues,
  located: Located,
): Promise<void> {
  return writeObject(custom, FLUX_HELM_RELEASE, namespace, ref.name, located, (object) =>
    helmReleaseWithValues(object, values),
  );
}

/**
 * One read-edit-write of a custom object. The write is a PUT carrying the resource version read,
 * so a concurrent change (the GitOps controller writes these objects too) fails with 409 rather
 * than being overwritten; the caller retries on a fresh read. No change, no write.
 */
async function writeObject(
  custom: CustomObjectsApi,
  api: GitOpsApi,
  namespace: string,
  name: string,
  located: Located,
  edit: (object: Record<string, unknown>) => ValuesEdit,
): Promise<void> {
  const { group, version, plural } = api;
  let object: Record<string, unknown>;
  try {
    object = await custom.getNamespacedCustomObject({ group, version, plural, namespace, name });
  } catch (error) {
    if (isApiNotServed(error))
      throw new TargetError(`${api.title} (${group}/${version}) is not served by this cluster`);
    if (isNotFound(error)) throw new TargetError(`${api.kind} ${name} not found in namespace ${namespace}`);
    throw error;
  }
  const result = edit(object);
  located(result.key);
  if (!result.changed) return;
  await custom.replaceNamespacedCustomObject({
    group,
    version,
    plural,
    namespace,
    name,
    body: result.object,
  });
}
