import type { CoreV1Api } from '@kubernetes/client-node';
import type { Logger } from 'pino';

export interface EventSubject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace: string; uid: string; resourceVersion?: string };
}

/** Events being written at once, at most; beyond that new ones are dropped (and logged). */
const MAX_IN_FLIGHT = 1000;

/**
 * Kubernetes Events on a resource (core/v1, as `kubectl describe` shows them), written in the
 * background as client-go's recorder does: a reconcile does not wait a round trip for them, and
 * an event that cannot be written is logged, never fatal: events are for people, not for
 * correctness. When the apiserver falls far behind, new events are dropped rather than queued
 * without bound (client-go's broadcaster drops too).
 */
export class EventRecorder {
  private readonly core: CoreV1Api;
  private readonly log: Logger;
  private readonly component: string;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(core: CoreV1Api, log: Logger, component = 'docsnap-operator') {
    this.core = core;
    this.log = log;
    this.component = component;
  }

  record(subject: EventSubject, type: 'Normal' | 'Warning', reason: string, message: string): void {
    const { name, namespace } = subject.metadata;
    if (this.inFlight.size >= MAX_IN_FLIGHT) {
      this.log.warn(
        { resource: `${namespace}/${name}`, reason },
        'too many events being written; dropped one',
      );
      return;
    }
    const write: Promise<void> = this.write(subject, type, reason, message).finally(() =>
      this.inFlight.delete(write),
    );
    this.inFlight.add(write);
  }

  /** Waits for the events being written (before the process exits). */
  async flush(): Promise<void> {
    await Promise.all([...this.inFlight]);
  }

  private async write(
    subject: EventSubject,
    type: 'Normal' | 'Warning',
    reason: string,
    message: string,
  ): Promise<void> {
    const now = new Date();
    const { name, namespace, uid, resourceVersion } = subject.metadata;
    try {
      await this.core.createNamespacedEvent({
        namespace,
        body: {
          metadata: { generateName: `${name}.`, namespace },
          involvedObject: {
            apiVersion: subject.apiVersion,
            kind: subject.kind,
            name,
            namespace,
            uid,
            resourceVersion,
          },
          type,
          reason,
          message: message.slice(0, 1024),
          source: { component: this.component },
          reportingComponent: this.component,
          firstTimestamp: now,
          lastTimestamp: now,
          count: 1,
        },
      });
    } catch (error) {
      this.log.warn(
        { resource: `${namespace}/${name}`, reason, err: String(error) },
        'could not record event',
      );
    }
  }
}
