import type { ApiConfig } from '../contract/api-config.ts';
import { LocalObjectStore } from './local-store.ts';
import type { ObjectStore } from './object-store.ts';
import { S3ObjectStore } from './s3-store.ts';

/**
 * The object store a configuration names. `publicUrl` is where the API server is reached, for the
 * local store's links (asked for when a link is made: the port may be known only after listen).
 */
export function openObjectStore(storage: ApiConfig['storage'], publicUrl: () => string): ObjectStore {
  if ('local' in storage) {
    const configured = storage.local.publicUrl;
    return new LocalObjectStore(storage.local.dir, configured ? () => configured : publicUrl);
  }
  // Credentials come from the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, profiles,
  // roles): never from the configuration file.
  return new S3ObjectStore(storage.s3);
}
