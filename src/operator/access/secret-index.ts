import type { StaticExport } from '../../contract/static-export.ts';
import { secretReferences } from './secret-references.ts';

/**
 * Which StaticExports name each Secret, kept as StaticExports come and go, so that a Secret's
 * change requeues the ones that use it without going through every StaticExport of the namespace
 * (a burst of 1,000 target Secrets would otherwise cost a million lookups).
 */
export class SecretReferenceIndex {
  /** StaticExport key → the "namespace/name" of each Secret it names. */
  private readonly secretsOf = new Map<string, string[]>();
  /** "namespace/name" of a Secret → keys of the StaticExports naming it. */
  private readonly namers = new Map<string, Set<string>>();

  /** Records (or replaces) what the StaticExport under `key` names. */
  set(key: string, resource: Pick<StaticExport, 'spec' | 'metadata'>): void {
    const namespace = resource.metadata.namespace;
    const secrets = [...new Set(secretReferences(resource).map((ref) => `${namespace}/${ref.name}`))];
    const previous = this.secretsOf.get(key);
    if (previous && previous.length === secrets.length && previous.every((s, i) => s === secrets[i])) return;
    this.delete(key);
    this.secretsOf.set(key, secrets);
    for (const secret of secrets) {
      const keys = this.namers.get(secret) ?? new Set<string>();
      keys.add(key);
      this.namers.set(secret, keys);
    }
  }

  delete(key: string): void {
    for (const secret of this.secretsOf.get(key) ?? []) {
      const keys = this.namers.get(secret);
      keys?.delete(key);
      if (keys?.size === 0) this.namers.delete(secret);
    }
    this.secretsOf.delete(key);
  }

  /** Keys of the StaticExports that name the Secret. */
  namersOf(namespace: string, name: string): Iterable<string> {
    return this.namers.get(`${namespace}/${name}`) ?? [];
  }
}
