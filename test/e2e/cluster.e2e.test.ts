import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CoreV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeControlPlane, kubeConfigFor } from '../../tools/local/control-plane.ts';
import { NODE_NAME, nodePreflight, RealNode } from '../harness/real-node.ts';

/**
 * The image on a real node: kube-apiserver + etcd + a kubelet with containerd and runc, the
 * project's image built by tools/image/build.sh and imported without a registry. The first step
 * of the end-to-end suite: a pod of the image runs under the restricted Pod Security profile, and
 * the node's teardown leaves nothing behind.
 */

const run = promisify(execFile);
const repo = new URL('../..', import.meta.url).pathname;
const unable = nodePreflight();
if (unable) console.warn(`[e2e] the real-node tests are skipped: ${unable}`);

let controlPlane: KubeControlPlane | undefined;
let node: RealNode | undefined;
const work = mkdtempSync(join(tmpdir(), 'docsnap-e2e-'));

/** An image into an oci-archive file, named localhost/… for containerd (pods say imagePullPolicy: Never). */
async function archive(image: string, name: string): Promise<string> {
  const file = join(work, `${name}.tar`);
  const local = image.startsWith('localhost/') ? image : `localhost/${image}`;
  await run('buildah', ['push', '--quiet', image, `oci-archive:${file}:${local}`]);
  return file;
}

beforeAll(async () => {
  if (unable) return;
  const build = await run('bash', [join(repo, 'tools/envtest/build.sh'), '--node', '--kubernetes-only'], {
    maxBuffer: 64 * 1024 * 1024,
  });
  const binDir = /^ENVTEST_DIR=(.*)$/m.exec(build.stdout)?.[1] as string;
  const image = /^IMAGE=(.*)$/m.exec(
    (await run('bash', [join(repo, 'tools/image/build.sh')])).stdout,
  )?.[1] as string;
  // The sandbox ("pause") image: no registry to pull one from, so the image's base sleeping.
  const pause = 'localhost/docsnap-pause:1';
  const { stdout: container } = await run('buildah', [
    'from',
    '--pull-never',
    'docker.io/library/node:24-bookworm-slim',
  ]);
  await run('buildah', [
    'config',
    '--entrypoint',
    '["/usr/bin/sleep","infinity"]',
    '--cmd',
    '[]',
    container.trim(),
  ]);
  await run('buildah', ['commit', '--quiet', container.trim(), pause]);
  await run('buildah', ['rm', container.trim()]);
  mkdirSync(join(work, 'control-plane'));
  controlPlane = await KubeControlPlane.start(binDir, { logDir: join(work, 'control-plane') });
  node = await RealNode.start(controlPlane.connection, binDir, join(work, 'node'), {
    archives: [await archive(image, 'docsnap'), await archive(pause, 'pause')],
    pause,
  });
}, 900_000);

afterAll(async () => {
  await node?.stop();
  await controlPlane?.stop();
  rmSync(work, { recursive: true, force: true });
}, 120_000);

describe.skipIf(unable !== undefined)(`a real node${unable ? ` (skipped: ${unable})` : ''}`, () => {
  it('runs the image as a restricted pod: docsnap --version exits 0', async () => {
    const connection = (controlPlane as KubeControlPlane).connection;
    const core = kubeConfigFor(connection).makeApiClient(CoreV1Api);
    await core.createNamespace({
      body: { metadata: { name: 'e2e', labels: { 'pod-security.kubernetes.io/enforce': 'restricted' } } },
    });
    await core.createNamespacedServiceAccount({ namespace: 'e2e', body: { metadata: { name: 'default' } } });
    await core.createNamespacedPod({
      namespace: 'e2e',
      body: {
        metadata: { name: 'docsnap-version' },
        spec: {
          nodeName: NODE_NAME,
          restartPolicy: 'Never',
          automountServiceAccountToken: false,
          securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
          containers: [
            {
              name: 'docsnap',
              image: 'localhost/docsnap:0.1.0',
              imagePullPolicy: 'Never',
              args: ['--version'],
              securityContext: {
                readOnlyRootFilesystem: true,
                allowPrivilegeEscalation: false,
                capabilities: { drop: ['ALL'] },
              },
            },
          ],
        },
      },
    });
    const since = Date.now();
    let phase: string | undefined;
    let state = '';
    while (Date.now() - since < 120_000) {
      const pod = await core.readNamespacedPod({ namespace: 'e2e', name: 'docsnap-version' });
      phase = pod.status?.phase;
      state = JSON.stringify(pod.status?.containerStatuses?.[0]?.state ?? pod.status?.conditions ?? {});
      if (phase === 'Succeeded' || phase === 'Failed') {
        expect(pod.status?.containerStatuses?.[0]?.state?.terminated?.exitCode).toBe(0);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(phase, state).toBe('Succeeded');
  });

  it('stops without leaving containers, mounts, the bridge or processes behind', async () => {
    const running = node as RealNode;
    node = undefined;
    await running.stop();
    expect(await running.leftovers()).toEqual([]);
  });
});
