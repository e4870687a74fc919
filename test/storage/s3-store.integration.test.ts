import { beforeAll, describe, expect, inject, it } from 'vitest';
import { S3ObjectStore } from '../../src/storage/s3-store.ts';
import { createBucket } from '../harness/s3.ts';

const s3 = inject('s3');
const store = new S3ObjectStore({
  bucket: 'store-delete',
  region: s3.region,
  endpoint: s3.endpoint,
  forcePathStyle: true,
  prefix: 'tenant',
  credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
});

describe('S3 object store (versitygw)', () => {
  beforeAll(async () => {
    await createBucket(s3, 'store-delete');
  });

  it('deletes an object, and deleting a missing one is no error', async () => {
    await store.putJson('keys/a.json', { a: 1 });
    await store.putJson('keys/b.json', { b: 2 });
    await store.delete('keys/a.json');
    expect(await store.getJson('keys/a.json')).toBeUndefined();
    expect(await store.list('keys/')).toEqual(['keys/b.json']);
    await expect(store.delete('keys/a.json')).resolves.toBeUndefined();
  });
});
