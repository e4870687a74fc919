import {
  MANAGED_BY_LABEL,
  SECRET_ACCESS_ANNOTATION,
  SECRET_ACCESS_LABEL,
  type StaticExport,
} from '../../contract/static-export.ts';

/** A Secret a StaticExport names, what it is for, and the condition reasons of its problems. */
export interface SecretReference {
  name: string;
  /** The spec field that names it, for messages. */
  field: string;
  /** Keys that must be present and non-empty (none for a target, which the operator writes). */
  keys: string[];
  notFound: string;
  missing: string;
  target: boolean;
}

/**
 * Every Secret a StaticExport reads or writes: its credentials and its Secret targets. The one
 * list behind both the lookups and the requeue of a StaticExport when one of its Secrets changes.
 */
export function secretReferences(resource: Pick<StaticExport, 'spec'>): SecretReference[] {
  const { api, embedded } = resource.spec.exporter;
  const references: SecretReference[] = [];
  if (api)
    references.push({
      name: api.adminKeySecretRef.name,
      field: 'spec.exporter.api.adminKeySecretRef',
      keys: [api.adminKeySecretRef.key],
      notFound: 'AdminKeySecretNotFound',
      missing: 'AdminKeyMissing',
      target: false,
    });
  if (embedded) {
    references.push({
      name: embedded.storage.s3.credentialsSecretRef.name,
      field: 'spec.exporter.embedded.storage.s3.credentialsSecretRef',
      keys: ['accessKeyId', 'secretAccessKey'],
      notFound: 'CredentialsSecretNotFound',
      missing: 'CredentialsMissing',
      target: false,
    });
    const git = embedded.source.git?.credentialsSecretRef;
    if (git)
      references.push({
        name: git.name,
        field: 'spec.exporter.embedded.source.git.credentialsSecretRef',
        keys: ['username', 'password'],
        notFound: 'CredentialsSecretNotFound',
        missing: 'CredentialsMissing',
        target: false,
      });
  }
  resource.spec.targets.forEach((target, index) => {
    if (target.secret)
      references.push({
        name: target.secret.name,
        field: `spec.targets[${index}].secret`,
        keys: [],
        notFound: 'TargetNotFound',
        missing: 'TargetMissing',
        target: true,
      });
  });
  return references;
}

interface ObjectMeta {
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: Array<{ uid: string }>;
}

/**
 * Whether an object opted in for the StaticExport: labelled with its name, or labelled and listing
 * it (or "*") in the annotation. Nothing else of the namespace is the StaticExport's to use.
 */
export function optsIn(metadata: ObjectMeta | undefined, staticExport: string): boolean {
  const label = metadata?.labels?.[SECRET_ACCESS_LABEL];
  if (label === undefined) return false;
  if (label === staticExport) return true;
  const listed = metadata?.annotations?.[SECRET_ACCESS_ANNOTATION]?.split(',').map((name) => name.trim());
  return listed?.some((name) => name === '*' || name === staticExport) ?? false;
}

/** A target the StaticExport may write: one it created (owned and labelled as docsnap's), or one that opts in. */
export function mayWriteTarget(
  metadata: ObjectMeta | undefined,
  owner: Pick<StaticExport, 'metadata'>,
): boolean {
  const [labelKey, labelValue] = Object.entries(MANAGED_BY_LABEL)[0] as [string, string];
  const created =
    metadata?.labels?.[labelKey] === labelValue &&
    (metadata?.ownerReferences ?? []).some((reference) => reference.uid === owner.metadata.uid);
  return created || optsIn(metadata, owner.metadata.name);
}

/** How to let a StaticExport use an object, for messages. */
export function optInHint(staticExport: string): string {
  return `label it ${SECRET_ACCESS_LABEL}=${staticExport} (or list the StaticExport in its ${SECRET_ACCESS_ANNOTATION} annotation)`;
}
