import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { type KubeConnection, KubeControlPlane } from '../../tools/local/control-plane.ts';
import { locateTestServers } from '../../tools/local/processes.ts';
import { type S3Connection, S3Server } from './s3.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    kube: KubeConnection;
    s3: S3Connection;
  }
}

/** Starts the real servers once for the integration project and stops them when it ends. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
  const { envtestDir, s3Dir } = locateTestServers(repoRoot, { quiet: true });
  const started = Date.now();
  const [kubeStart, s3Start] = await Promise.allSettled([
    KubeControlPlane.start(envtestDir),
    S3Server.start(s3Dir),
  ]);
  if (kubeStart.status === 'rejected' || s3Start.status === 'rejected') {
    // Stop whichever did start before reporting the failure.
    await Promise.all(
      [kubeStart, s3Start].map((r) => (r.status === 'fulfilled' ? r.value.stop() : undefined)),
    );
    throw kubeStart.status === 'rejected' ? kubeStart.reason : (s3Start as PromiseRejectedResult).reason;
  }
  const [kube, s3] = [kubeStart.value, s3Start.value];
  console.log(
    `[integration] kube-apiserver ${kube.connection.server}, S3 ${s3.connection.endpoint} (${Date.now() - started} ms)`,
  );
  project.provide('kube', kube.connection);
  project.provide('s3', s3.connection);
  return async () => {
    await Promise.all([kube.stop(), s3.stop()]);
  };
}
