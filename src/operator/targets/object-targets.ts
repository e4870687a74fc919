import type { CoreV1Api, V1ConfigMap, V1Secret } from '@kubernetes/client-node';
import {
  MANAGED_BY_LABEL,
  type StaticExport,
  type Target,
  type TargetStatus,
} from '../../contract/static-export.ts';
import { isConflict, isNotFound, kubeMessage } from '../runtime/kube-errors.ts';
import { findSecret } from '../runtime/secrets.ts';
import { type StaticExportValues, withStaticExportValues } from './helm-values.ts';

export interface TargetClients {
  core: CoreV1Api;
  /** A Secret from the operator's cache, to save a read; the API is asked when it is not there. */
  cachedSecret?: (namespace: string, name: string) => V1Secret | undefined;
}

/**
 * Writes the staticExport values into one target (a Secret or ConfigMap key holding Helm values).
 * A missing object is created, labelled as docsnap's and owned by the StaticExport (so it goes
 * with it); an existing one is updated in place, other keys untouched, and never adopted.
 * Unchanged values cause no write. Conflicting writers are retried on a fresh read.
 */
export async function writeTarget(
  clients: TargetClients,
  owner: StaticExport,
  target: Target,
  values: StaticExportValues,
): Promise<TargetStatus> {
  const kind = target.secret ? 'Secret' : 'ConfigMap';
  const ref = (target.secret ?? target.configMap) as { name: string; key: string };
  const status: TargetStatus = { kind, name: ref.name, key: ref.key };
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        if (kind === 'Secret') await writeSecret(clients, owner, ref, values, attempt > 1);
        else await writeConfigMap(clients.core, owner, ref, values);
        return { ...status, syncedAt: new Date().toISOString() };
      } catch (error) {
        if (!isConflict(error) || attempt >= 3) throw error;
      }
    }
  } catch (error) {
    return { ...status, error: `${kind} ${ref.name} key ${ref.key}: ${kubeMessage(error)}` };
  }
}

async function writeSecret(
  clients: TargetClients,
  owner: StaticExport,
  ref: { name: string; key: string },
  values: StaticExportValues,
  fresh: boolean,
): Promise<void> {
  const namespace = owner.metadata.namespace;
  const existing = await findSecret(
    clients.core,
    namespace,
    ref.name,
    fresh ? undefined : clients.cachedSecret,
  );
  if (!existing) {
    await clients.core.createNamespacedSecret({
      namespace,
      body: {
        metadata: createdMetadata(owner, ref.name),
        type: 'Opaque',
        data: { [ref.key]: base64(withStaticExportValues(undefined, values)) },
      },
    });
    return;
  }
  const current = existing.data?.[ref.key];
  const text = current === undefined ? undefined : Buffer.from(current, 'base64').toString('utf8');
  const updated = withStaticExportValues(text, values);
  if (updated === text) return;
  await clients.core.replaceNamespacedSecret({
    namespace,
    name: ref.name,
    body: { ...existing, data: { ...existing.data, [ref.key]: base64(updated) } },
  });
}

async function writeConfigMap(
  core: CoreV1Api,
  owner: StaticExport,
  ref: { name: string; key: string },
  values: StaticExportValues,
): Promise<void> {
  const namespace = owner.metadata.namespace;
  let existing: V1ConfigMap | undefined;
  try {
    existing = await core.readNamespacedConfigMap({ namespace, name: ref.name });
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
  if (!existing) {
    await core.createNamespacedConfigMap({
      namespace,
      body: {
        metadata: createdMetadata(owner, ref.name),
        data: { [ref.key]: withStaticExportValues(undefined, values) },
      },
    });
    return;
  }
  const text = existing.data?.[ref.key];
  const updated = withStaticExportValues(text, values);
  if (updated === text) return;
  await core.replaceNamespacedConfigMap({
    namespace,
    name: ref.name,
    body: { ...existing, data: { ...existing.data, [ref.key]: updated } },
  });
}

function createdMetadata(owner: StaticExport, name: string) {
  return {
    name,
    labels: { ...MANAGED_BY_LABEL },
    ownerReferences: [
      {
        apiVersion: owner.apiVersion,
        kind: owner.kind,
        name: owner.metadata.name,
        uid: owner.metadata.uid,
        controller: true,
      },
    ],
  };
}

function base64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}
