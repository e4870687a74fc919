import type { CoreV1Api } from '@kubernetes/client-node';
import type { Logger } from 'pino';

export interface EventSubject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace: string; uid: string; resourceVersion?: string };
}

/**
 * Kubernetes Events on a resource (core/v1, as `kubectl describe` shows them). An event that
 * cannot be written is logged, never fatal: events are for people, not for correctness.
 */
export class EventRecorder {
  private readonly core: CoreV1Api;
  private readonly log: Logger;
  private readonly component: string;

  constructor(core: CoreV1Api, log: Logger, component = 'docsnap-operator') {
    this.core = core;
    this.log = log;
    this.component = component;
  }

  async record(
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
