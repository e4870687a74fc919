import {
  CoreV1Api,
  CustomObjectsApi,
  type KubeConfig,
  type KubernetesListObject,
  type KubernetesObject,
  type V1Secret,
} from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { SECRET_ACCESS_LABEL, STATIC_EXPORT, type StaticExport } from '../contract/static-export.ts';
import { SupervisedInformer } from '../kube/supervised-informer.ts';
import { SecretReferenceIndex } from './access/secret-index.ts';
import { DEFAULT_CONCURRENCY } from './defaults.ts';
import type { Exporter } from './exporters/exporter.ts';
import { Exporters, type ExportersOptions } from './exporters/exporters.ts';
import { EventRecorder } from './runtime/events.ts';
import { kubeMessage } from './runtime/kube-errors.ts';
import type { OperatorMetrics } from './runtime/metrics.ts';
import { WorkQueue } from './runtime/work-queue.ts';
import { StaticExportReconciler } from './static-export/reconciler.ts';
import { DEFAULT_TIMING, type Timing } from './static-export/timing.ts';

/** What the operator's timing and embedded exports are made of; every field has a default. */
export type OperatorSettings = Timing &
  Pick<ExportersOptions, 'embeddedExports' | 'exportLimits' | 'allowedSourceRoots'>;

export const DEFAULT_OPERATOR_SETTINGS: OperatorSettings = { ...DEFAULT_TIMING, embeddedExports: 2 };

export interface ControllerOptions {
  kubeConfig: KubeConfig;
  log: Logger;
  /** Namespaces to watch; all of them when empty. */
  namespaces?: string[];
  /** Reconciles at once. Default DEFAULT_CONCURRENCY. */
  concurrency?: number;
  /** Every resource is reconciled again this often, whatever the watches said. Default 10 min. */
  resyncIntervalMs?: number;
  settings?: Partial<OperatorSettings>;
  /** How an Admin API exporter is made; the HTTP client unless a test says otherwise. */
  apiExporter?: (resource: StaticExport, adminKey: string) => Exporter;
  /** Where reconciles, exporter calls and refresh failures are counted. */
  metrics?: OperatorMetrics;
}

export interface RunningController {
  /** Stops watching and waits for the reconciles in progress. */
  stop(): Promise<void>;
  /** The watches, for health reporting and tests. */
  informers: Array<SupervisedInformer<StaticExport> | SupervisedInformer<V1Secret>>;
  /** The StaticExports in the cache, for metrics. */
  resources(): StaticExport[];
  /** Whether every watch is up (for /readyz). */
  watching(): boolean;
}

/**
 * The StaticExport controller: informers on StaticExports and on the Secrets that opt in for them
 * (SECRET_ACCESS_LABEL: credentials and target Secrets) feed a de-duplicating, rate-limited work
 * queue; each key is reconciled by StaticExportReconciler from the cached resource. Stopping aborts
 * the reconciles in flight before they write targets or status.
 */
export async function startController(options: ControllerOptions): Promise<RunningController> {
  const { kubeConfig, log } = options;
  const custom = kubeConfig.makeApiClient(CustomObjectsApi);
  const core = kubeConfig.makeApiClient(CoreV1Api);
  const watched = options.namespaces?.length ? options.namespaces : undefined;
  const namespaces = watched ?? [undefined];
  const { group, version, plural } = STATIC_EXPORT;

  const secretIndex = new SecretReferenceIndex();
  const exportInformers = namespaces.map(
    (namespace) =>
      new SupervisedInformer<StaticExport>({
        kubeConfig,
        log,
        path: namespace
          ? `/apis/${group}/${version}/namespaces/${namespace}/${plural}`
          : `/apis/${group}/${version}/${plural}`,
        list: async () =>
          (namespace
            ? await custom.listNamespacedCustomObject({ group, version, plural, namespace })
            : await custom.listClusterCustomObject({
                group,
                version,
                plural,
              })) as KubernetesListObject<StaticExport>,
        onChange: (resource, type) => {
          const key = keyOf(resource);
          if (type === 'delete') {
            queue.forget(key);
            secretIndex.delete(key);
            reconciler.forget(resource.metadata.uid);
            exporters.forget(resource.metadata.uid);
          } else {
            secretIndex.set(key, resource);
            reconciler.observed(resource);
            queue.add(key);
          }
        },
      }),
  );
  const secretInformers = namespaces.map(
    (namespace) =>
      new SupervisedInformer<V1Secret>({
        kubeConfig,
        log,
        path: namespace ? `/api/v1/namespaces/${namespace}/secrets` : '/api/v1/secrets',
        labelSelector: SECRET_ACCESS_LABEL,
        list: () =>
          namespace
            ? core.listNamespacedSecret({ namespace, labelSelector: SECRET_ACCESS_LABEL })
            : core.listSecretForAllNamespaces({ labelSelector: SECRET_ACCESS_LABEL }),
        onChange: (secret) => {
          for (const key of secretIndex.namersOf(
            secret.metadata?.namespace ?? '',
            secret.metadata?.name ?? '',
          ))
            queue.add(key);
        },
      }),
  );

  const findIn = <T extends KubernetesObject>(informers: SupervisedInformer<T>[], ns: string, name: string) =>
    informers.map((informer) => informer.get(name, ns)).find((found) => found !== undefined);

  const events = new EventRecorder(core, log);
  const settings = { ...DEFAULT_OPERATOR_SETTINGS, ...options.settings };
  const cachedSecret = (namespace: string, name: string) => findIn(secretInformers, namespace, name);
  const exporters = new Exporters({
    core,
    log,
    cachedSecret,
    embeddedExports: settings.embeddedExports,
    exportLimits: settings.exportLimits,
    allowedSourceRoots: settings.allowedSourceRoots,
    apiExporter: options.apiExporter,
    metrics: options.metrics,
  });
  const reconciler = new StaticExportReconciler({
    custom,
    core,
    log,
    events,
    cachedSecret,
    exporterFor: (resource) => exporters.forResource(resource),
    timing: settings,
    metrics: options.metrics,
  });
  // Aborted by stop(): reconciles in flight write no target and no status after it.
  const leading = new AbortController();
  const { metrics } = options;
  const queue = new WorkQueue(
    { concurrency: options.concurrency ?? DEFAULT_CONCURRENCY, baseBackoffMs: 500, maxBackoffMs: 5 * 60_000 },
    async (key) => {
      const [namespace = '', name = ''] = key.split('/');
      const resource = findIn(exportInformers, namespace, name);
      if (!resource) return undefined;
      const endTimer = metrics?.reconcileDuration.startTimer();
      try {
        const result = await reconciler.reconcile(resource, leading.signal);
        metrics?.reconciles.inc({
          result: result?.requeueAfterMs === undefined ? 'success' : 'requeue_after',
        });
        return result;
      } finally {
        endTimer?.();
      }
    },
    (key, error) => {
      metrics?.reconciles.inc({ result: 'error' });
      metrics?.reconcileErrors.inc();
      log.error({ resource: key, err: kubeMessage(error) }, 'reconcile failed; retrying with backoff');
    },
  );

  // Secrets first: a reconcile should find the admin key in the cache.
  await Promise.all(secretInformers.map((informer) => informer.start()));
  await Promise.all(exportInformers.map((informer) => informer.start()));
  const resync = setInterval(
    () => {
      for (const informer of exportInformers)
        for (const resource of informer.list()) queue.add(keyOf(resource));
    },
    options.resyncIntervalMs ?? 10 * 60_000,
  );
  resync.unref();
  log.info({ namespaces: watched ?? 'all', resources: resourcesCount() }, 'operator started');

  function resourcesCount() {
    return exportInformers.reduce((total, informer) => total + informer.list().length, 0);
  }
  const informers = [...exportInformers, ...secretInformers];

  return {
    informers,
    resources: () => exportInformers.flatMap((informer) => informer.list()),
    watching: () => informers.every((informer) => !informer.failing),
    async stop() {
      clearInterval(resync);
      leading.abort(new Error('the operator is stopping (leadership lost or shutdown)'));
      for (const informer of informers) informer.stop();
      await queue.stop();
      await exporters.close();
      await events.flush();
      log.info('operator stopped');
    },
  };
}

function keyOf(resource: StaticExport): string {
  return `${resource.metadata.namespace}/${resource.metadata.name}`;
}
