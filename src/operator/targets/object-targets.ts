import type { CoreV1Api, CustomObjectsApi, V1ConfigMap, V1Secret } from '@kubernetes/client-node';
import {
  MANAGED_BY_LABEL,
  SECRET_ACCESS_ANNOTATION,
  SECRET_ACCESS_LABEL,
  type StaticExport,
  type Target,
  type TargetStatus,
} from '../../contract/static-export.ts';
import { mayWriteTarget, optInHint } from '../access/secret-references.ts';
import { isConflict, isNotFound, kubeMessage } from '../runtime/kube-errors.ts';
import { findSecret } from '../runtime/secrets.ts';
import { writeApplication, writeHelmRelease } from './gitops-targets.ts';
import { TargetError } from './gitops-values.ts';
import { type StaticExportValues, withStaticExportValues } from './helm-values.ts';

export interface TargetClients {
  core: CoreV1Api;
  /** For the GitOps targets: Argo CD Applications and Flux HelmReleases. */
  custom: CustomObjectsApi;
  /** A Secret from the operator's cache, to save a read; the API is asked when it is not there. */
  cachedSecret?: (namespace: string, name: string) => V1Secret | undefined;
}

/**
 * Writes the staticExport values into one target. A Secret or ConfigMap key holding Helm values:
 * a missing object is created, labelled as docsnap's and for the StaticExport, and owned by it (so
 * it goes with it); an existing one is updated in place, other keys untouched, never adopted, and
 * only when the StaticExport created it or it opts in (SECRET_ACCESS_LABEL): a StaticExport cannot
 * name any Secret of its namespace and have the operator edit it.
 * An Argo CD Application or Flux HelmRelease must exist: its values object is updated in place.
 * Unchanged values cause no write. Conflicting writers are retried on a fresh read.
 */
export async function writeTarget(
  clients: TargetClients,
  owner: StaticExport,
  target: Target,
  values: StaticExportValues,
): Promise<TargetStatus> {
  const status = describeTarget(target);
  const namespace = owner.metadata.namespace;
  const located = (key: string) => {
    status.key = key;
  };
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        if (target.secret) await writeSecret(clients, owner, target.secret, values, attempt > 1);
        else if (target.configMap) await writeConfigMap(clients.core, owner, target.configMap, values);
        else if (target.argoCDApplication)
          await writeApplication(clients.custom, namespace, target.argoCDApplication, values, located);
        else if (target.fluxHelmRelease)
          await writeHelmRelease(clients.custom, namespace, target.fluxHelmRelease, values, located);
        return { ...status, syncedAt: new Date().toISOString() };
      } catch (error) {
        if (!isConflict(error) || attempt >= 3) throw error;
      }
    }
  } catch (error) {
    // The link must stay out of status and events, whatever a server echoes back.
    const message = errorMessage(status, error);
    return {
      ...status,
      error: values.bundleUrl ? message.replaceAll(values.bundleUrl, '<bundle link>') : message,
    };
  }
}

/** Kind, name and (until the object is read, for GitOps targets: expected) field path of a target. */
function describeTarget(target: Target): TargetStatus {
  if (target.secret) return { kind: 'Secret', name: target.secret.name, key: target.secret.key };
  if (target.configMap) return { kind: 'ConfigMap', name: target.configMap.name, key: target.configMap.key };
  if (target.fluxHelmRelease)
    return { kind: 'HelmRelease', name: target.fluxHelmRelease.name, key: 'spec.values' };
  const application = target.argoCDApplication;
  if (!application) throw new Error('a target names no kind'); // the CRD's CEL rule refuses this
  const index = application.source?.index;
  const field = application.source ? `spec.sources[${index ?? ''}]` : 'spec.source';
  return { kind: 'Application', name: application.name, key: `${field}.helm.valuesObject` };
}

function errorMessage(status: TargetStatus, error: unknown): string {
  if (error instanceof TargetError) return error.message;
  if (status.kind === 'Secret' || status.kind === 'ConfigMap')
    return `${status.kind} ${status.name} key ${status.key}: ${kubeMessage(error)}`;
  return `${status.kind} ${status.name} (${status.key}): ${kubeMessage(error)}`;
}

async function writeSecret(
  clients: TargetClients,
  owner: StaticExport,
  ref: { name: string; key: string },
  values: StaticExportValues,
  fresh: boolean,
): Promise<void> {
  const namespace = owner.metadata.namespace;
  // A Secret missing from the cache is almost always one this operator is about to create, so it
  // creates it without reading first; one that exists after all answers 409 (AlreadyExists), and
  // the next attempt reads it (through the label: one without it is not the operator's to see).
  const existing = fresh
    ? await findSecret(clients.core, namespace, ref.name)
    : clients.cachedSecret?.(namespace, ref.name);
  if (!existing) {
    if (fresh) throw notAllowed('Secret', ref, owner);
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
  if (!mayWriteTarget(existing.metadata, owner)) throw notAllowed('Secret', ref, owner);
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
  if (!mayWriteTarget(existing.metadata, owner)) throw notAllowed('ConfigMap', ref, owner);
  const text = existing.data?.[ref.key];
  const updated = withStaticExportValues(text, values);
  if (updated === text) return;
  await core.replaceNamespacedConfigMap({
    namespace,
    name: ref.name,
    body: { ...existing, data: { ...existing.data, [ref.key]: updated } },
  });
}

/** An existing object the StaticExport did not create and that does not opt in. */
function notAllowed(kind: string, ref: { name: string; key: string }, owner: StaticExport): TargetError {
  return new TargetError(
    `${kind} ${ref.name} exists and does not allow this StaticExport to write it: ${optInHint(owner.metadata.name)}`,
  );
}

function createdMetadata(owner: StaticExport, name: string) {
  return {
    name,
    // A label value holds at most 63 characters; a longer name is listed in the annotation.
    labels: {
      ...MANAGED_BY_LABEL,
      [SECRET_ACCESS_LABEL]: owner.metadata.name.length <= 63 ? owner.metadata.name : '',
    },
    ...(owner.metadata.name.length > 63
      ? { annotations: { [SECRET_ACCESS_ANNOTATION]: owner.metadata.name } }
      : {}),
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
