import type { Readable } from 'node:stream';

/**
 * Where the service keeps job records, keys and bundles. Two implementations with the same
 * semantics: S3 (s3-store.ts) and a local directory (local-store.ts). Keys are relative paths
 * with "/" separators ("jobs/se_….json", "bundles/se_….tar.gz").
 */
export interface ObjectStore {
  /** Stores a file from disk, streaming (archives can be large). */
  putFile(key: string, path: string, contentType: string): Promise<void>;
  putJson(key: string, value: unknown): Promise<void>;
  /** The parsed JSON document, or undefined when there is none. */
  getJson(key: string): Promise<unknown>;
  /** Removes an object; removing one that is not there is not an error. */
  delete(key: string): Promise<void>;
  /** Keys under a prefix, in no particular order. */
  list(prefix: string): Promise<string[]>;
  /** A link that lets anyone holding it GET the object until it expires. */
  presignGet(key: string, lifetimeMs: number): Promise<{ url: string; expiresAt: Date }>;
  /** For messages: where this store is ("s3://bucket/prefix", "/var/lib/docsnap"). */
  readonly location: string;
  /**
   * Present when the store's links point at the API server itself (the local store): the server
   * answers them under `pathPrefix` with `open`.
   */
  readonly downloads?: LinkDownloads;
}

/** Answers the links of a store that has no server of its own. */
export interface LinkDownloads {
  /** The URL path its links start with ("/downloads/"); the object key follows. */
  readonly pathPrefix: string;
  /** The object a link names, after checking the link; the reason when it is refused. */
  open(key: string, expires: string, signature: string): Promise<OpenedLink>;
}

export type OpenedLink = { stream: Readable; size: number } | { refused: string; notFound?: boolean };

/** Keys are fixed by the service; anything else (.., absolute, backslashes) is a bug or an attack. */
export function checkKey(key: string): string {
  if (!/^[\w.-]+(?:\/[\w.-]+)*$/.test(key) || key.split('/').some((part) => part === '..' || part === '.'))
    throw new Error(`invalid object key "${key}"`);
  return key;
}
