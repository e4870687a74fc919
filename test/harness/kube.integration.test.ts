import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import {
  ApiextensionsV1Api,
  CoreV1Api,
  CustomObjectsApi,
  type KubernetesObject,
  type V1CustomResourceDefinition,
  Watch,
} from '@kubernetes/client-node';
import { describe, expect, inject, it } from 'vitest';
import {
  ensureNamespace,
  httpsGet,
  kubeConfigFor,
  mintServiceAccount,
} from '../../tools/local/control-plane.ts';

const run = promisify(execFile);
const connection = inject('kube');
const kc = kubeConfigFor(connection);
const core = kc.makeApiClient(CoreV1Api);

const widgetCrd: V1CustomResourceDefinition = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.smoke.docsnap.dev' },
  spec: {
    group: 'smoke.docsnap.dev',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {} },
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: { type: 'object', properties: { size: { type: 'integer' } } },
              status: { type: 'object', properties: { phase: { type: 'string' } } },
            },
          },
        },
      },
    ],
  },
};

describe('test control plane (real etcd + kube-apiserver)', () => {
  it('reports the Kubernetes version it was built as, to kubectl', async () => {
    const { stdout } = await run(connection.kubectl, [
      '--kubeconfig',
      connection.kubeconfigPath,
      'version',
      '-o',
      'json',
    ]);
    const versions = JSON.parse(stdout) as { serverVersion: { gitVersion: string; minor: string } };
    expect(versions.serverVersion.gitVersion).toMatch(/^v1\.\d+\.\d+$/);
    expect(Number(versions.serverVersion.minor)).toBeGreaterThanOrEqual(34);
  });

  it('refuses an unknown bearer token', async () => {
    const response = await httpsGet(
      `${connection.server}/api/v1/namespaces`,
      connection.caData,
      'not-a-token',
    );
    expect(response.status).toBe(401);
  });

  it('stores a namespace and a ConfigMap', async () => {
    await ensureNamespace(core, 'smoke');
    await core.createNamespacedConfigMap({
      namespace: 'smoke',
      body: { metadata: { name: 'hello' }, data: { greeting: 'hi' } },
    });
    const read = await core.readNamespacedConfigMap({ namespace: 'smoke', name: 'hello' });
    expect(read.data).toEqual({ greeting: 'hi' });
    expect(read.metadata?.resourceVersion).toMatch(/^\d+$/);
  });

  it('serves a CRD with a status subresource, and a watch sees status updates', async () => {
    const extensions = kc.makeApiClient(ApiextensionsV1Api);
    await extensions.createCustomResourceDefinition({ body: widgetCrd });
    await expect
      .poll(
        async () => {
          const crd = await extensions.readCustomResourceDefinition({ name: 'widgets.smoke.docsnap.dev' });
          return crd.status?.conditions?.find((c) => c.type === 'Established')?.status;
        },
        { timeout: 20_000, interval: 200 },
      )
      .toBe('True');

    const custom = kc.makeApiClient(CustomObjectsApi);
    const ref = { group: 'smoke.docsnap.dev', version: 'v1', namespace: 'smoke', plural: 'widgets' };
    // Discovery of a just-established CRD can lag a moment behind the condition.
    await expect
      .poll(
        async () => {
          try {
            await custom.createNamespacedCustomObject({
              ...ref,
              body: {
                apiVersion: 'smoke.docsnap.dev/v1',
                kind: 'Widget',
                metadata: { name: 'w1' },
                spec: { size: 3 },
              },
            });
            return 'created';
          } catch (error) {
            return String(error);
          }
        },
        { timeout: 20_000, interval: 200 },
      )
      .toBe('created');

    const seen: Array<{ type: string; phase?: string }> = [];
    let sawReady!: () => void;
    const gotReady = new Promise<void>((resolve) => {
      sawReady = resolve;
    });
    const watch = await new Watch(kc).watch(
      '/apis/smoke.docsnap.dev/v1/namespaces/smoke/widgets',
      {},
      (type: string, object: KubernetesObject & { status?: { phase?: string } }) => {
        seen.push({ type, phase: object.status?.phase });
        if (object.status?.phase === 'Ready') sawReady();
      },
      () => {},
    );

    // A write to the main resource cannot change status; only /status can.
    await custom.patchNamespacedCustomObject({
      ...ref,
      name: 'w1',
      body: [{ op: 'add', path: '/status', value: { phase: 'Ignored' } }],
    });
    const afterMainPatch = (await custom.getNamespacedCustomObject({ ...ref, name: 'w1' })) as {
      status?: unknown;
    };
    expect(afterMainPatch.status).toBeUndefined();

    await custom.patchNamespacedCustomObjectStatus({
      ...ref,
      name: 'w1',
      body: [{ op: 'add', path: '/status', value: { phase: 'Ready' } }],
    });
    await gotReady;
    watch.abort();
    expect(seen[0]).toEqual({ type: 'ADDED', phase: undefined });
    expect(seen.at(-1)).toEqual({ type: 'MODIFIED', phase: 'Ready' });
  });

  it('mints a ServiceAccount identity that holds exactly the rules it was given', async () => {
    const identity = await mintServiceAccount(connection, {
      namespace: 'smoke-rbac',
      name: 'reader',
      scope: 'namespace',
      rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }],
    });
    const asReader = identity.kubeConfig.makeApiClient(CoreV1Api);
    const list = await asReader.listNamespacedConfigMap({ namespace: 'smoke-rbac' });
    expect(Array.isArray(list.items)).toBe(true);
    await expect(asReader.listNamespacedSecret({ namespace: 'smoke-rbac' })).rejects.toMatchObject({
      code: 403,
    });
    await expect(asReader.listNamespacedConfigMap({ namespace: 'smoke' })).rejects.toMatchObject({
      code: 403,
    });
    await expect(
      asReader.createNamespacedConfigMap({ namespace: 'smoke-rbac', body: { metadata: { name: 'x' } } }),
    ).rejects.toMatchObject({ code: 403 });

    const { stdout } = await run(connection.kubectl, [
      '--kubeconfig',
      identity.kubeconfigPath,
      'auth',
      'whoami',
      '-o',
      'json',
    ]);
    expect(JSON.parse(stdout).status.userInfo.username).toBe(identity.username);
  });
});
