import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { type KubeConnection, KubeControlPlane } from './kube.ts';
import { locateTestServers } from './processes.ts';
import { type S3Connection, S3Server } from './s3.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    kube: KubeConnection;
    s3: S3Connection;
  }
}

/** Starts the real servers once for the integration project and stops them when it ends. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  console.log(`[integration] node ${process.version}`);
  const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
  const { envtestDir, s3Dir } = locateTestServers(repoRoot);
  const started = Date.now();
  const [kube, s3] = await Promise.all([KubeControlPlane.start(envtestDir), S3Server.start(s3Dir)]);
  console.log(
    `[integration] kube-apiserver ${kube.connection.server}, S3 ${s3.connection.endpoint} (${Date.now() - started} ms)`,
  );
  project.provide('kube', kube.connection);
  project.provide('s3', s3.connection);
  return async () => {
    await Promise.all([kube.stop(), s3.stop()]);
  };
}
