/**
 * The peer of `npm run bench:operator`: the least a StaticExport controller can do, written
 * directly on @kubernetes/client-node. An informer on StaticExports and, for each one, a single
 * status write that says Ready with a link lifetime (no export, no targets, no events); at the
 * renewal time one more status write with a new expiry. What it costs is the floor the apiserver
 * allows for the same objects: one watch, one write per object and round.
 *
 *   node bench/bare-controller.ts --kubeconfig FILE [--namespace NS] [--concurrency 4] [--lifetime-ms 150000] [--renew-before-ms 60000]
 */

import { parseArgs } from 'node:util';
import {
  CustomObjectsApi,
  KubeConfig,
  type KubernetesListObject,
  ListWatch,
  Watch,
} from '@kubernetes/client-node';

interface Resource {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace: string; uid: string; generation: number; resourceVersion: string };
  status?: {
    phase?: string;
    observedGeneration?: number;
    bundle?: { expiresAt: string; renewalTime: string };
  };
}

const { values } = parseArgs({
  options: {
    kubeconfig: { type: 'string' },
    namespace: { type: 'string' },
    concurrency: { type: 'string', default: '4' },
    'lifetime-ms': { type: 'string', default: '150000' },
    'renew-before-ms': { type: 'string', default: '60000' },
  },
});
const [group, version, plural] = ['docsnap.dev', 'v1alpha1', 'staticexports'];
const kubeConfig = new KubeConfig();
if (values.kubeconfig) kubeConfig.loadFromFile(values.kubeconfig);
else kubeConfig.loadFromDefault();
const custom = kubeConfig.makeApiClient(CustomObjectsApi);
const concurrency = Number(values.concurrency);
const lifetimeMs = Number(values['lifetime-ms']);
const renewBeforeMs = Number(values['renew-before-ms']);

const namespace = values.namespace;
const informer = new ListWatch<Resource>(
  namespace
    ? `/apis/${group}/${version}/namespaces/${namespace}/${plural}`
    : `/apis/${group}/${version}/${plural}`,
  new Watch(kubeConfig),
  async () =>
    (namespace
      ? await custom.listNamespacedCustomObject({ group, version, plural, namespace })
      : await custom.listClusterCustomObject({ group, version, plural })) as KubernetesListObject<Resource>,
  false,
);

// A queue as small as it gets: de-duplicated keys, `concurrency` at once, none twice at once.
const ready: string[] = [];
const queued = new Set<string>();
const busy = new Set<string>();
const again = new Set<string>();
const timers = new Map<string, NodeJS.Timeout>();
/** Status this process wrote, by uid, over the version it read: the cache may be one write behind. */
const written = new Map<string, { basedOn: string; object: Resource }>();

function add(key: string): void {
  if (busy.has(key)) again.add(key);
  else if (!queued.has(key)) {
    queued.add(key);
    ready.push(key);
    pump();
  }
}

function pump(): void {
  while (busy.size < concurrency && ready.length > 0) {
    const key = ready.shift() as string;
    queued.delete(key);
    busy.add(key);
    reconcile(key)
      .catch((error: unknown) => {
        process.stderr.write(`${key}: ${(error as { code?: number }).code ?? ''} ${String(error)}\n`);
        setTimeout(() => add(key), 500).unref();
      })
      .finally(() => {
        busy.delete(key);
        if (again.delete(key)) add(key);
        pump();
      });
  }
}

async function reconcile(key: string): Promise<void> {
  const [objectNamespace = '', name = ''] = key.split('/');
  const cached = informer.get(name, objectNamespace);
  if (!cached) return;
  const mine = written.get(cached.metadata.uid);
  const resource = mine?.basedOn === cached.metadata.resourceVersion ? mine.object : cached;
  const now = Date.now();
  const bundle = resource.status?.bundle;
  const current =
    resource.status?.phase === 'Ready' && resource.status.observedGeneration === resource.metadata.generation;
  if (current && bundle && now < Date.parse(bundle.renewalTime))
    return wakeAt(key, Date.parse(bundle.renewalTime));
  const expires = now + lifetimeMs;
  const renewal = expires - renewBeforeMs;
  const status = {
    observedGeneration: resource.metadata.generation,
    phase: 'Ready',
    bundle: {
      jobId: 'bare',
      expiresAt: new Date(expires).toISOString(),
      renewalTime: new Date(renewal).toISOString(),
      sizeBytes: 0,
      digest: 'sha256:0',
      version: 'bare',
    },
  };
  const updated = (await custom.replaceNamespacedCustomObjectStatus({
    group,
    version,
    plural,
    namespace: objectNamespace,
    name,
    body: { ...resource, status },
  })) as Resource;
  written.set(resource.metadata.uid, { basedOn: resource.metadata.resourceVersion, object: updated });
  wakeAt(key, renewal);
}

function wakeAt(key: string, at: number): void {
  clearTimeout(timers.get(key));
  timers.set(
    key,
    setTimeout(() => add(key), Math.max(0, at - Date.now())),
  );
}

const keyOf = (r: Resource) => `${r.metadata.namespace}/${r.metadata.name}`;
informer.on('add', (r) => add(keyOf(r)));
informer.on('update', (r) => add(keyOf(r)));
informer.on('delete', (r) => {
  clearTimeout(timers.get(keyOf(r)));
  timers.delete(keyOf(r));
  written.delete(r.metadata.uid);
});
informer.on('error', (error) => {
  process.stderr.write(`watch failed: ${String(error)}; restarting\n`);
  setTimeout(() => void informer.start(), 500);
});
await informer.start();
const stop = () => {
  void informer.stop();
  process.exit(0);
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
