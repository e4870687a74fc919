import { CreateBucketCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { beforeAll, describe, expect, inject, it } from 'vitest';

const s3 = inject('s3');
const client = new S3Client({
  endpoint: s3.endpoint,
  region: s3.region,
  forcePathStyle: true,
  credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
});
const Bucket = 'smoke';

describe('test S3 server (real versitygw, SigV4 enforced)', () => {
  beforeAll(async () => {
    await client.send(new CreateBucketCommand({ Bucket }));
  });

  it('stores and returns an object', async () => {
    await client.send(
      new PutObjectCommand({ Bucket, Key: 'a/hello.txt', Body: 'hello, bundle', ContentType: 'text/plain' }),
    );
    const object = await client.send(new GetObjectCommand({ Bucket, Key: 'a/hello.txt' }));
    expect(await object.Body?.transformToString()).toBe('hello, bundle');
    expect(object.ContentType).toBe('text/plain');
  });

  it('refuses an unsigned request and a wrong secret', async () => {
    expect((await fetch(`${s3.endpoint}/${Bucket}/a/hello.txt`)).status).toBe(403);
    const wrong = new S3Client({
      endpoint: s3.endpoint,
      region: s3.region,
      forcePathStyle: true,
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: `${s3.secretAccessKey}x` },
    });
    await expect(wrong.send(new GetObjectCommand({ Bucket, Key: 'a/hello.txt' }))).rejects.toMatchObject({
      $metadata: { httpStatusCode: 403 },
    });
  });

  it('serves a presigned GET link to plain fetch until it expires, and never a tampered one', async () => {
    await client.send(new PutObjectCommand({ Bucket, Key: 'bundle.tar.gz', Body: 'archive bytes' }));
    const url = await getSignedUrl(client, new GetObjectCommand({ Bucket, Key: 'bundle.tar.gz' }), {
      expiresIn: 2,
    });

    const fresh = await fetch(url);
    expect(fresh.status).toBe(200);
    expect(await fresh.text()).toBe('archive bytes');

    const tampered = new URL(url);
    const signature = tampered.searchParams.get('X-Amz-Signature') ?? '';
    tampered.searchParams.set(
      'X-Amz-Signature',
      `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`,
    );
    expect((await fetch(tampered)).status).toBe(403);

    const otherKey = new URL(url);
    otherKey.pathname = `/${Bucket}/a/hello.txt`;
    expect((await fetch(otherKey)).status).toBe(403);

    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect((await fetch(url)).status).toBe(403);
  });
});
