import { createReadStream } from 'node:fs';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { MAX_S3_LINK_LIFETIME_MS } from '../contract/api-config.ts';
import { checkKey, type ObjectStore } from './object-store.ts';

export interface S3StoreOptions {
  bucket: string;
  region: string;
  endpoint?: string;
  forcePathStyle: boolean;
  prefix: string;
  /** Default: the AWS SDK's chain (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, profiles, roles). */
  credentials?: S3ClientConfig['credentials'];
}

/**
 * S3 or an S3-compatible server. Archives are uploaded as streaming multipart uploads
 * (@aws-sdk/lib-storage), so their size is not bounded by memory; links are SigV4 presigned GETs.
 */
export class S3ObjectStore implements ObjectStore {
  readonly location: string;
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;

  constructor(options: S3StoreOptions) {
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle,
      credentials: options.credentials,
      maxAttempts: 4,
    });
    this.bucket = options.bucket;
    this.prefix = options.prefix ? `${options.prefix.replace(/\/+$/, '')}/` : '';
    this.location = `s3://${options.bucket}/${this.prefix}`;
  }

  async putFile(key: string, path: string, contentType: string): Promise<void> {
    const upload = new Upload({
      client: this.client,
      params: {
        Bucket: this.bucket,
        Key: this.key(key),
        Body: createReadStream(path),
        ContentType: contentType,
      },
      queueSize: 4,
      partSize: 8 * 1024 * 1024,
    });
    await upload.done();
  }

  async putJson(key: string, value: unknown): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: this.key(key),
        Body: `${JSON.stringify(value, null, 2)}\n`,
        ContentType: 'application/json',
      }),
    );
  }

  async getJson(key: string): Promise<unknown> {
    try {
      const object = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: this.key(key) }),
      );
      return JSON.parse((await object.Body?.transformToString('utf8')) ?? 'null');
    } catch (error) {
      if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.key(key) }));
  }

  async list(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.key(prefix), ContinuationToken: token }),
      );
      for (const object of page.Contents ?? [])
        if (object.Key) keys.push(object.Key.slice(this.prefix.length));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return keys;
  }

  async presignGet(key: string, lifetimeMs: number): Promise<{ url: string; expiresAt: Date }> {
    const seconds = Math.max(1, Math.min(Math.floor(lifetimeMs / 1000), MAX_S3_LINK_LIFETIME_MS / 1000));
    const signedAt = Math.floor(Date.now() / 1000) * 1000;
    const url = await getSignedUrl(
      this.client,
      new GetObjectCommand({ Bucket: this.bucket, Key: this.key(key) }),
      { expiresIn: seconds, signingDate: new Date(signedAt) },
    );
    return { url, expiresAt: new Date(signedAt + seconds * 1000) };
  }

  private key(key: string): string {
    return `${this.prefix}${key === '' || key.endsWith('/') ? key : checkKey(key)}`;
  }
}
