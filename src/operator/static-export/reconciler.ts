import { isDeepStrictEqual } from 'node:util';
import type { CoreV1Api, CustomObjectsApi, V1Secret } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import {
  STATIC_EXPORT,
  type StaticExport,
  type StaticExportStatus,
  type TargetStatus,
} from '../../contract/static-export.ts';
import { stripManagedFields } from '../../kube/supervised-informer.ts';
import type { Exporter } from '../exporters/exporter.ts';
import { Misconfigured } from '../exporters/exporters.ts';
import type { EventRecorder } from '../runtime/events.ts';
import { kubeMessage } from '../runtime/kube-errors.ts';
import type { OperatorMetrics } from '../runtime/metrics.ts';
import type { ReconcileResult } from '../runtime/work-queue.ts';
import { writeTarget } from '../targets/object-targets.ts';
import {
  type ActionContext,
  type Change,
  followExport,
  type RecordedEvent,
  refreshLink,
  startExport,
} from './actions.ts';
import { conditionOf } from './conditions.ts';
import { decide, EXPORT_POLICIES, followJob, type Observed, REFRESH_POLICIES } from './policies.ts';
import { type ReconcileOutcome, readiness } from './readiness.ts';
import type { Timing } from './timing.ts';

export interface ReconcilerDeps {
  custom: CustomObjectsApi;
  core: CoreV1Api;
  events: EventRecorder;
  log: Logger;
  /** The exporter of a resource; throws Misconfigured when its surroundings do not allow one. */
  exporterFor: (resource: StaticExport) => Promise<Exporter>;
  /** A Secret from the operator's cache, for target writes. */
  cachedSecret?: (namespace: string, name: string) => V1Secret | undefined;
  timing: Timing;
  /** The time; a test passes its own clock. */
  clock?: () => Date;
  metrics?: OperatorMetrics;
}

/**
 * One StaticExport brought one step closer to what its spec asks, in three parts: observe (the
 * resource, its exporter, the source's revision, the clock), decide (policies.ts: pure), act
 * (actions.ts: start, follow, deliver, refresh), then report: phase and conditions computed once
 * from the outcome (readiness.ts) and status written once, when it changed. Level-triggered:
 * every decision is taken from status and the clock, so it may run any number of times, and
 * after a restart at any moment. A reconcile whose signal aborts (leadership lost) writes nothing.
 */
export class StaticExportReconciler {
  private readonly deps: ReconcilerDeps;
  /**
   * Status this process wrote, by uid, until the cache catches up: acting on a cache one write
   * behind could start a second export for a job already recorded.
   */
  private readonly written = new Map<string, { basedOn: string; object: StaticExport }>();

  constructor(deps: ReconcilerDeps) {
    this.deps = deps;
  }

  /** Called when a resource is gone from the cache. */
  forget(uid: string): void {
    this.written.delete(uid);
  }

  async reconcile(
    cached: StaticExport,
    signal: AbortSignal = new AbortController().signal,
  ): Promise<ReconcileResult> {
    const resource = this.latest(cached);
    const now = this.deps.clock?.() ?? new Date();
    const log = this.deps.log.child({ resource: `${resource.metadata.namespace}/${resource.metadata.name}` });
    let status: StaticExportStatus = withJobStatus({
      ...resource.status,
      observedGeneration: resource.metadata.generation,
    });
    const outcome: ReconcileOutcome = {};
    const events: RecordedEvent[] = [];
    const wakes: number[] = [];
    const apply = (changed: Change) => {
      status = { ...status, ...changed.status };
      events.push(...changed.events);
      wakes.push(...changed.wakeAt);
    };

    if (resource.spec.suspend) outcome.suspended = true;
    else {
      const exporter = await this.exporter(resource, outcome, events);
      if (exporter) {
        const ctx = (): ActionContext => ({
          resource,
          status,
          exporter,
          now,
          timing: this.deps.timing,
          signal,
          writeTargets: (bundleUrl, version) => this.writeTargets(resource, bundleUrl, version),
        });
        const revision = await this.observeRevision(exporter, status, now, apply);
        const observed = (): Observed => ({
          resource,
          status,
          revision,
          now: now.getTime(),
          timing: this.deps.timing,
        });

        const refresh = decide(REFRESH_POLICIES, observed());
        if (refresh && 'act' in refresh) apply(await refreshLink(ctx()));
        else if (refresh) wakes.push(refresh.holdUntil);

        const exportVerdict = decide(EXPORT_POLICIES, observed());
        if (exportVerdict && 'act' in exportVerdict) {
          const started = await startExport(ctx(), exportVerdict.message, revision);
          apply(started);
          if (started.status.jobId)
            outcome.started = { jobId: started.status.jobId, message: exportVerdict.message };
        } else {
          if (exportVerdict) wakes.push(exportVerdict.holdUntil);
          const follow = followJob(observed());
          if (follow && 'act' in follow) apply(await followExport(ctx()));
          else if (follow) wakes.push(follow.holdUntil);
        }
      } else wakes.push(now.getTime() + this.deps.timing.maxFailureBackoffMs);
    }

    const { phase, conditions } = readiness(status, outcome, resource.metadata.generation, now);
    status = { ...status, phase, conditions };
    signal.throwIfAborted();
    const saved = await this.writeStatus(resource, status);
    for (const { type, reason, message } of events) {
      (type === 'Warning' ? log.warn : log.info).call(log, { reason, message }, 'event');
      this.deps.events.record(saved, type, reason, message);
    }
    const next = wakes.filter(Number.isFinite);
    return next.length > 0 ? { requeueAfterMs: Math.max(0, Math.min(...next) - now.getTime()) } : undefined;
  }

  /** The resource's exporter, or the reason there is none (in the outcome, with an event when it is new). */
  private async exporter(resource: StaticExport, outcome: ReconcileOutcome, events: RecordedEvent[]) {
    try {
      return await this.deps.exporterFor(resource);
    } catch (error) {
      if (!(error instanceof Misconfigured)) throw error;
      outcome.misconfigured = { reason: error.reason, message: error.message };
      // The Secret informer brings the resource back as soon as the Secret changes.
      if (conditionOf(resource.status?.conditions, 'Ready')?.reason !== error.reason)
        events.push({ type: 'Warning', reason: error.reason, message: error.message });
      return undefined;
    }
  }

  /**
   * Where the source is now (embedded exporter). When the source cannot be read, exports go on
   * unpinned: a running bundle stays, and a new export fails with the source's own error.
   */
  private async observeRevision(
    exporter: Exporter,
    status: StaticExportStatus,
    now: Date,
    apply: (change: Change) => void,
  ): Promise<string | undefined> {
    if (!exporter.sourceRevision) return undefined;
    try {
      const revision = await exporter.sourceRevision();
      if (exporter.sourcePollMs)
        apply({ status: {}, events: [], wakeAt: [now.getTime() + exporter.sourcePollMs] });
      return revision;
    } catch (error) {
      const message = `reading the docs source failed: ${kubeMessage(error)}`;
      apply({
        status: { error: message },
        events: status.error === message ? [] : [{ type: 'Warning', reason: 'SourceUnavailable', message }],
        wakeAt: [now.getTime() + this.deps.timing.failureBackoffMs],
      });
      return undefined;
    }
  }

  /** Called with each version the cache receives: once it has caught up, the written copy goes. */
  observed(cached: StaticExport): void {
    this.latest(cached);
  }

  /** The cached resource, or what this process last wrote over that very version. */
  private latest(cached: StaticExport): StaticExport {
    const written = this.written.get(cached.metadata.uid);
    if (written && written.basedOn === cached.metadata.resourceVersion) return written.object;
    if (written) this.written.delete(cached.metadata.uid);
    return cached;
  }

  /** Writes status through /status when it changed, with the resource version as the optimistic lock. */
  private async writeStatus(resource: StaticExport, status: StaticExportStatus): Promise<StaticExport> {
    if (isDeepStrictEqual(stripUndefined(resource.status ?? {}), stripUndefined(status))) return resource;
    const { namespace, name } = resource.metadata;
    const updated = (await this.deps.custom.replaceNamespacedCustomObjectStatus({
      group: STATIC_EXPORT.group,
      version: STATIC_EXPORT.version,
      plural: STATIC_EXPORT.plural,
      namespace,
      name,
      body: { ...resource, status },
    })) as StaticExport;
    stripManagedFields(updated); // as the cache does: kept only until the cache catches up
    this.written.set(resource.metadata.uid, { basedOn: resource.metadata.resourceVersion, object: updated });
    return updated;
  }

  private async writeTargets(
    resource: StaticExport,
    bundleUrl: string,
    version: string,
  ): Promise<TargetStatus[]> {
    const clients = { core: this.deps.core, custom: this.deps.custom, cachedSecret: this.deps.cachedSecret };
    return Promise.all(
      resource.spec.targets.map((target) =>
        writeTarget(clients, resource, target, { enabled: true, bundleUrl, version }),
      ),
    );
  }
}

/** Status written before jobStatus existed says it through the phase. */
function withJobStatus(status: StaticExportStatus): StaticExportStatus {
  if (status.jobStatus || !status.jobId) return status;
  const fromPhase = {
    Exporting: 'running',
    Bundling: 'completed',
    Ready: 'completed',
    Failed: 'failed',
  } as const;
  const jobStatus = fromPhase[status.phase as keyof typeof fromPhase];
  return jobStatus ? { ...status, jobStatus } : status;
}

function stripUndefined(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value));
}
