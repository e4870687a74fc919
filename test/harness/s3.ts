import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import {
  freePort,
  type ManagedProcess,
  makeWorkDir,
  startProcess,
  waitFor,
} from '../../tools/local/processes.ts';

/** What tests need to reach the S3 server; plain data so it can cross from global setup to workers. */
export interface S3Connection {
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/**
 * versitygw, a real S3-compatible gateway, over a temporary directory (posix backend) on a
 * loopback port. It enforces SigV4 on every request, presigned links included.
 */
export class S3Server {
  readonly connection: S3Connection;
  private readonly process: ManagedProcess;
  private readonly workDir: string;

  private constructor(connection: S3Connection, process: ManagedProcess, workDir: string) {
    this.connection = connection;
    this.process = process;
    this.workDir = workDir;
  }

  /** `host`: the address it listens on (default 127.0.0.1; the e2e cluster's bridge address for pods). */
  static async start(binDir: string, host = '127.0.0.1'): Promise<S3Server> {
    const workDir = makeWorkDir('s3');
    const dataDir = join(workDir, 'data');
    const metaDir = join(workDir, 'meta');
    mkdirSync(dataDir);
    mkdirSync(metaDir);
    const port = await freePort();
    const connection: S3Connection = {
      endpoint: `http://${host}:${port}`,
      region: 'us-east-1',
      accessKeyId: `DOCSNAP${randomBytes(6).toString('hex').toUpperCase()}`,
      secretAccessKey: randomBytes(24).toString('base64url'),
    };
    const process = startProcess(
      'versitygw',
      join(binDir, 'versitygw'),
      [
        `--access=${connection.accessKeyId}`,
        `--secret=${connection.secretAccessKey}`,
        `--region=${connection.region}`,
        `--port=${host}:${port}`,
        'posix',
        // Metadata in a sidecar directory rather than xattrs, which tmpfs lacks.
        `--sidecar=${metaDir}`,
        dataDir,
      ],
      join(workDir, 'versitygw.log'),
    );
    const server = new S3Server(connection, process, workDir);
    try {
      // Any HTTP answer (an unsigned request gets 403) means the gateway is listening.
      await waitFor('versitygw', async () => (await fetch(connection.endpoint)).status > 0, {
        timeoutMs: 30_000,
        alive: () => process.child.exitCode === null,
        describe: () => process.tail(),
      });
      return server;
    } catch (error) {
      await server.stop();
      throw error;
    }
  }

  async stop(): Promise<void> {
    await this.process.stop();
    rmSync(this.workDir, { recursive: true, force: true });
  }
}

/** An S3 client of the test server, as the test's admin. */
export function s3Client(s3: S3Connection): S3Client {
  return new S3Client({
    endpoint: s3.endpoint,
    region: s3.region,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  });
}

/** Creates a bucket on the test server. */
export async function createBucket(s3: S3Connection, bucket: string): Promise<void> {
  const client = s3Client(s3);
  try {
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
  } finally {
    client.destroy();
  }
}
