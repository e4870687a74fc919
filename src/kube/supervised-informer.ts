import {
  type KubeConfig,
  type KubernetesListObject,
  type KubernetesObject,
  ListWatch,
  Watch,
} from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { exponentialBackoff } from './backoff.ts';

export interface SupervisedInformerOptions<T extends KubernetesObject> {
  kubeConfig: KubeConfig;
  /** The watch path, e.g. /apis/docsnap.dev/v1alpha1/namespaces/NS/staticexports. */
  path: string;
  list: () => Promise<KubernetesListObject<T>>;
  /** Applied to the watch; the list function must apply the same ones. */
  fieldSelector?: string;
  labelSelector?: string;
  onChange: (object: T, type: 'add' | 'update' | 'delete') => void;
  log: Logger;
  /** First restart delay after a watch error; doubles up to maxBackoffMs. */
  baseBackoffMs?: number;
  maxBackoffMs?: number;
}

/**
 * A list + watch cache that keeps itself alive. @kubernetes/client-node's informer relists on 410
 * and reconnects after its 30 s inactivity timeout (a quiet or dead connection), but stops for
 * good on any other error (a dropped connection, a 5xx, a refused connect): here every error
 * restarts it, with exponential backoff, from the last resource version it saw.
 */
export class SupervisedInformer<T extends KubernetesObject> {
  private readonly informer: ListWatch<T>;
  private readonly options: Required<
    Omit<SupervisedInformerOptions<T>, 'list' | 'onChange' | 'fieldSelector' | 'labelSelector'>
  >;
  private restartTimer: NodeJS.Timeout | undefined;
  private errorsInRow = 0;
  private stopped = false;
  /** Watch restarts after errors, for tests and metrics. */
  restarts = 0;

  constructor(options: SupervisedInformerOptions<T>) {
    this.options = { baseBackoffMs: 500, maxBackoffMs: 30_000, ...options };
    this.informer = new ListWatch<T>(
      options.path,
      new Watch(options.kubeConfig),
      options.list,
      false,
      options.labelSelector,
      options.fieldSelector,
    );
    this.informer.on('add', (object) => {
      this.errorsInRow = 0;
      stripManagedFields(object);
      options.onChange(object, 'add');
    });
    this.informer.on('update', (object) => {
      this.errorsInRow = 0;
      stripManagedFields(object);
      options.onChange(object, 'update');
    });
    this.informer.on('delete', (object) => options.onChange(object, 'delete'));
    this.informer.on('error', (error) => this.restartLater(error));
  }

  /** Starts listing and watching; resolves once the first list is in the cache. */
  async start(): Promise<void> {
    this.stopped = false;
    await this.informer.start();
    while (!this.stopped && !this.informer.latestResourceVersion()) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.restartTimer);
    void this.informer.stop();
  }

  /** Whether the watch keeps failing (three errors in a row without an event in between). */
  get failing(): boolean {
    return this.errorsInRow >= 3;
  }

  list(): T[] {
    return [...this.informer.list()];
  }

  get(name: string, namespace: string): T | undefined {
    return this.informer.get(name, namespace);
  }

  private restartLater(error: unknown): void {
    if (this.stopped) return;
    this.errorsInRow++;
    const delay = exponentialBackoff(this.errorsInRow, this.options.baseBackoffMs, this.options.maxBackoffMs);
    this.options.log.warn(
      { path: this.options.path, err: describeError(error), retryInMs: delay },
      'watch failed; restarting it',
    );
    clearTimeout(this.restartTimer);
    this.restartTimer = setTimeout(() => {
      if (this.stopped) return;
      this.restarts++;
      this.informer.start().catch((startError: unknown) => this.restartLater(startError));
    }, delay);
    this.restartTimer.unref();
  }
}

/**
 * Drops metadata.managedFields from an object as it enters the cache (the informer stores and
 * hands out the same object), as controller-runtime's TransformStripManagedFields does: the
 * operator never reads them, and they are a good part of every cached object. Writes of a cached
 * object leave them out, which the apiserver takes as "unchanged".
 */
export function stripManagedFields(object: KubernetesObject): void {
  if (object.metadata?.managedFields) object.metadata.managedFields = undefined; // not delete: keeps the object's shape
}

function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
