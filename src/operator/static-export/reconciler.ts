import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { CoreV1Api, CustomObjectsApi, V1Secret } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import type { ExportBundle, ExportJob } from '../../contract/admin-api.ts';
import { parseDuration } from '../../contract/duration.ts';
import {
  EXPORT_REQUESTED_ANNOTATION,
  STATIC_EXPORT,
  type StaticExport,
  type StaticExportStatus,
  type TargetStatus,
} from '../../contract/static-export.ts';
import type { ExportProcessLimits, ExportProcessPool } from '../../service/export-process/pool.ts';
import { Slots } from '../../service/slots.ts';
import { ApiExporter } from '../exporters/api-exporter.ts';
import { type Exporter, ExportJobLost } from '../exporters/exporter.ts';
import { instrumented } from '../exporters/instrumented.ts';
import type { EventRecorder } from '../runtime/events.ts';
import { kubeMessage } from '../runtime/kube-errors.ts';
import type { OperatorMetrics } from '../runtime/metrics.ts';
import { findSecret } from '../runtime/secrets.ts';
import type { ReconcileResult } from '../runtime/work-queue.ts';
import { writeTarget } from '../targets/object-targets.ts';
import { bundleDigest } from './bundle-digest.ts';
import { type ConditionType, conditionOf, setCondition } from './conditions.ts';

export interface ReconcilerSettings {
  /** How often a running export is polled unless the resource says otherwise. */
  pollIntervalMs: number;
  /** First retry after a failed export; doubles per failure in a row up to maxFailureBackoffMs. */
  failureBackoffMs: number;
  maxFailureBackoffMs: number;
  /** Spread of refresh times, so resources created together do not all refresh at once. */
  renewJitterMs: number;
  /** Embedded exports running at once in this process (each takes a CPU core while it runs). */
  embeddedExports: number;
  /** Limits of one embedded export's process (default: the pool's). */
  exportLimits?: Partial<ExportProcessLimits>;
}

/** Bundles from this size on have their Bundling phase written to status while they are hashed. */
const VISIBLE_BUNDLING_BYTES = 8 * 2 ** 20;

/** The longest wait between polls of a job still queued on the exporter. */
const MAX_QUEUED_POLL_MS = 30_000;

export const DEFAULT_RECONCILER_SETTINGS: ReconcilerSettings = {
  pollIntervalMs: 5_000,
  failureBackoffMs: 10_000,
  maxFailureBackoffMs: 10 * 60_000,
  renewJitterMs: 30_000,
  embeddedExports: 2,
};

export interface ReconcilerDeps {
  custom: CustomObjectsApi;
  core: CoreV1Api;
  events: EventRecorder;
  log: Logger;
  /** A Secret from the operator's cache (undefined: ask the API). */
  cachedSecret: (namespace: string, name: string) => V1Secret | undefined;
  settings: ReconcilerSettings;
  /** How an exporter is made for a resource; the API exporter unless a test or mode says otherwise. */
  exporterFor?: (resource: StaticExport, adminKey: string) => Exporter;
  metrics?: OperatorMetrics;
}

/** A problem with the resource's surroundings that no retry fixes until someone acts. */
class Misconfigured extends Error {
  readonly reason: string;
  constructor(reason: string, message: string) {
    super(message);
    this.reason = reason;
  }
}

/**
 * One StaticExport brought one step closer to what its spec asks: start an export, follow it,
 * deliver its bundle link to the targets, refresh the link before it expires, export again on
 * new content. Level-triggered: every decision is taken from the resource's status and the
 * clock, so it may run any number of times, and after a restart at any moment.
 */
export class StaticExportReconciler {
  private readonly deps: ReconcilerDeps;
  /**
   * Status this process wrote, by uid, until the cache catches up: acting on a cache one write
   * behind could start a second export for a job already recorded.
   */
  private readonly written = new Map<string, { basedOn: string; object: StaticExport }>();
  /** API exporters by URL and key, shared by the resources that use them. */
  private readonly apiExporters = new Map<string, Exporter>();
  /** Embedded exporters by resource uid, with the settings they were made from. */
  private readonly embeddedExporters = new Map<string, { id: string; exporter: Exporter }>();
  private readonly slots: Slots;
  /** The processes embedded exports run in, made on first use and shared by every resource. */
  private exportPool: ExportProcessPool | undefined;

  constructor(deps: ReconcilerDeps) {
    this.deps = deps;
    this.slots = new Slots(deps.settings.embeddedExports);
  }

  /** Called when a resource is gone from the cache. */
  forget(uid: string): void {
    this.written.delete(uid);
    const embedded = this.embeddedExporters.get(uid);
    this.embeddedExporters.delete(uid);
    void embedded?.exporter.close?.();
  }

  /** Stops the embedded exports of this process (they resume wherever the operator runs next). */
  async close(): Promise<void> {
    const exporters = [...this.embeddedExporters.values()];
    this.embeddedExporters.clear();
    await Promise.all(exporters.map(({ exporter }) => exporter.close?.()));
    await this.exportPool?.close();
  }

  async reconcile(cached: StaticExport): Promise<ReconcileResult> {
    const resource = this.latest(cached);
    const { namespace, name, generation } = resource.metadata;
    const log = this.deps.log.child({ resource: `${namespace}/${name}` });
    const now = new Date();
    const status: StaticExportStatus = { ...resource.status, observedGeneration: generation };
    const step = new Step(this, this.deps, resource, status, log, now);

    if (resource.spec.suspend) {
      step.condition('Ready', 'False', 'Suspended', 'spec.suspend is true: nothing is exported or refreshed');
      await step.save();
      return undefined;
    }

    let exporter: Exporter;
    try {
      exporter = await this.exporterFor(resource);
    } catch (error) {
      if (!(error instanceof Misconfigured)) throw error;
      const previous = conditionOf(resource.status?.conditions, 'Ready');
      step.status.phase ??= 'Pending';
      step.condition('Ready', 'False', error.reason, error.message);
      if (previous?.reason !== error.reason) step.event('Warning', error.reason, error.message);
      await step.save();
      // The Secret informer brings the resource back as soon as the Secret appears.
      return { requeueAfterMs: this.deps.settings.maxFailureBackoffMs };
    }
    step.exporter = exporter;

    await step.readSourceRevision();
    await step.refreshIfDue();
    const started = await step.startIfWanted();
    if (!started) await step.followExport();
    await step.save();
    return { requeueAfterMs: step.nextWakeMs() };
  }

  /** The cached resource, or what this process last wrote over that very version. */
  private latest(cached: StaticExport): StaticExport {
    const written = this.written.get(cached.metadata.uid);
    if (written && written.basedOn === cached.metadata.resourceVersion) return written.object;
    if (written) this.written.delete(cached.metadata.uid);
    return cached;
  }

  /** Writes status through /status, with the resource version as the optimistic lock. */
  async writeStatus(resource: StaticExport, status: StaticExportStatus): Promise<StaticExport> {
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
    this.written.set(resource.metadata.uid, { basedOn: resource.metadata.resourceVersion, object: updated });
    return updated;
  }

  async writeTargets(resource: StaticExport, bundleUrl: string, version: string): Promise<TargetStatus[]> {
    const clients = { core: this.deps.core, custom: this.deps.custom, cachedSecret: this.deps.cachedSecret };
    return Promise.all(
      resource.spec.targets.map((target) =>
        writeTarget(clients, resource, target, { enabled: true, bundleUrl, version }),
      ),
    );
  }

  private async exporterFor(resource: StaticExport): Promise<Exporter> {
    const { api, embedded } = resource.spec.exporter;
    if (api) return this.apiExporter(resource, api);
    if (embedded) return this.embeddedExporter(resource, embedded);
    throw new Misconfigured('NoExporter', 'spec.exporter names no exporter this operator runs');
  }

  private async apiExporter(
    resource: StaticExport,
    api: NonNullable<StaticExport['spec']['exporter']['api']>,
  ): Promise<Exporter> {
    const ref = api.adminKeySecretRef;
    const { [ref.key]: adminKey = '' } = await this.secretValues(resource, ref.name, [ref.key], {
      field: 'spec.exporter.api.adminKeySecretRef',
      notFound: 'AdminKeySecretNotFound',
      missing: 'AdminKeyMissing',
    });
    // One client per URL and key: a rotated key makes a new one.
    const id = createHash('sha256').update(`${api.url}\n${adminKey}`).digest('hex');
    let exporter = this.apiExporters.get(id);
    if (!exporter) {
      exporter = instrumented(
        this.deps.exporterFor?.(resource, adminKey) ?? new ApiExporter(api.url, adminKey),
        'api',
        this.deps.metrics,
      );
      this.apiExporters.set(id, exporter);
    }
    return exporter;
  }

  private async embeddedExporter(
    resource: StaticExport,
    embedded: NonNullable<StaticExport['spec']['exporter']['embedded']>,
  ): Promise<Exporter> {
    const { s3 } = embedded.storage;
    const storage = await this.secretValues(
      resource,
      s3.credentialsSecretRef.name,
      ['accessKeyId', 'secretAccessKey'],
      {
        field: 'spec.exporter.embedded.storage.s3.credentialsSecretRef',
        notFound: 'CredentialsSecretNotFound',
        missing: 'CredentialsMissing',
      },
    );
    const gitRef = embedded.source.git?.credentialsSecretRef;
    const git = gitRef
      ? await this.secretValues(resource, gitRef.name, ['username', 'password'], {
          field: 'spec.exporter.embedded.source.git.credentialsSecretRef',
          notFound: 'CredentialsSecretNotFound',
          missing: 'CredentialsMissing',
        })
      : undefined;
    const { uid, namespace, name } = resource.metadata;
    // A new exporter when anything it was made from changes; the old one's jobs resume in it.
    const id = createHash('sha256')
      .update(JSON.stringify([resource.spec.domain, embedded, storage, git]))
      .digest('hex');
    const current = this.embeddedExporters.get(uid);
    if (current?.id === id) return current.exporter;
    await current?.exporter.close?.();
    // Loaded on first use: the export pipeline and the S3 client weigh tens of MiB that an
    // operator exporting only through an Admin API does not need.
    const { EmbeddedExporter } = await import('../exporters/embedded-exporter.ts');
    const { ExportProcessPool } = await import('../../service/export-process/pool.ts');
    this.exportPool ??= new ExportProcessPool({
      log: this.deps.log.child({ component: 'export-processes' }),
      maxIdle: this.deps.settings.embeddedExports,
      limits: this.deps.settings.exportLimits,
    });
    const exporter = instrumented(
      new EmbeddedExporter({
        spec: embedded,
        domain: resource.spec.domain,
        namespace,
        name,
        storageCredentials: {
          accessKeyId: storage.accessKeyId ?? '',
          secretAccessKey: storage.secretAccessKey ?? '',
        },
        gitCredentials: git ? { username: git.username ?? '', password: git.password ?? '' } : undefined,
        core: this.deps.core,
        slots: this.slots,
        runner: this.exportPool.run,
        log: this.deps.log.child({ resource: `${namespace}/${name}` }),
      }),
      'embedded',
      this.deps.metrics,
    );
    this.embeddedExporters.set(uid, { id, exporter });
    return exporter;
  }

  /** The named keys of a Secret the resource refers to, or a Misconfigured naming what is missing. */
  private async secretValues(
    resource: StaticExport,
    secretName: string,
    keys: string[],
    names: { field: string; notFound: string; missing: string },
  ): Promise<Record<string, string>> {
    const { namespace } = resource.metadata;
    let secret: V1Secret | undefined;
    try {
      secret = await findSecret(this.deps.core, namespace, secretName, this.deps.cachedSecret);
    } catch (error) {
      throw new Error(`reading Secret ${secretName}: ${kubeMessage(error)}`);
    }
    if (!secret)
      throw new Misconfigured(
        names.notFound,
        `Secret ${secretName} (${names.field}) does not exist in namespace ${namespace}`,
      );
    const values: Record<string, string> = {};
    for (const key of keys) {
      const encoded = secret.data?.[key];
      const value = encoded === undefined ? '' : Buffer.from(encoded, 'base64').toString('utf8').trim();
      if (!value)
        throw new Misconfigured(
          names.missing,
          keys.length === 1
            ? `Secret ${secretName} has no key ${key} (${names.field}.key), or it is empty`
            : `Secret ${secretName} (${names.field}) has no key ${key}, or it is empty; it needs ${keys.join(' and ')}`,
        );
      values[key] = value;
    }
    return values;
  }
}

/** The work of one reconcile: the status it builds, events it owes, when it wants to run again. */
class Step {
  readonly status: StaticExportStatus;
  exporter!: Exporter;
  /** The source's current revision, for exporters that read the source themselves. */
  private revision: string | undefined;
  private resource: StaticExport;
  private readonly reconciler: StaticExportReconciler;
  private readonly deps: ReconcilerDeps;
  private readonly log: Logger;
  private readonly now: Date;
  private readonly events: Array<{ type: 'Normal' | 'Warning'; reason: string; message: string }> = [];
  private wakeMs: number[] = [];

  constructor(
    reconciler: StaticExportReconciler,
    deps: ReconcilerDeps,
    resource: StaticExport,
    status: StaticExportStatus,
    log: Logger,
    now: Date,
  ) {
    this.reconciler = reconciler;
    this.deps = deps;
    this.resource = resource;
    this.status = status;
    this.log = log;
    this.now = now;
  }

  private get settings(): ReconcilerSettings {
    return this.deps.settings;
  }

  condition(
    type: ConditionType,
    status: 'True' | 'False' | 'Unknown',
    reason: string,
    message: string,
  ): void {
    this.status.conditions = setCondition(
      this.status.conditions,
      { type, status, reason, message },
      this.resource.metadata.generation,
      this.now,
    );
  }

  event(type: 'Normal' | 'Warning', reason: string, message: string): void {
    this.events.push({ type, reason, message });
    const line = { reason, message };
    if (type === 'Warning') this.log.warn(line, 'event');
    else this.log.info(line, 'event');
  }

  /** Writes the status (when it changed), then the events it explains (in the background). */
  async save(): Promise<void> {
    this.resource = await this.reconciler.writeStatus(this.resource, this.status);
    for (const { type, reason, message } of this.events.splice(0))
      this.deps.events.record(this.resource, type, reason, message);
  }

  nextWakeMs(): number | undefined {
    return this.wakeMs.length > 0 ? Math.max(0, Math.min(...this.wakeMs)) : undefined;
  }

  private wakeAt(time: number): void {
    this.wakeMs.push(time - this.now.getTime());
  }

  /**
   * Where the source is now (embedded exporter). When the source cannot be read, exports go on
   * unpinned: a running bundle stays, and a new export fails with the source's own error.
   */
  async readSourceRevision(): Promise<void> {
    if (!this.exporter.sourceRevision) return;
    try {
      this.revision = await this.exporter.sourceRevision();
    } catch (error) {
      const message = `reading the docs source failed: ${kubeMessage(error)}`;
      if (this.status.error !== message) this.event('Warning', 'SourceUnavailable', message);
      this.status.error = message;
      this.wakeAt(this.now.getTime() + this.failureBackoff());
      return;
    }
    if (this.exporter.sourcePollMs) this.wakeAt(this.now.getTime() + this.exporter.sourcePollMs);
  }

  /** A fresh link for the bundle in the targets, at its renewal time (or to retry failed targets). */
  async refreshIfDue(): Promise<void> {
    const bundle = this.status.bundle;
    if (!bundle) return;
    const failedTargets = this.status.targets?.some((t) => t.error) ?? false;
    const renewal = Date.parse(bundle.renewalTime);
    if (this.now.getTime() < renewal && !failedTargets) {
      this.wakeAt(renewal);
      return;
    }
    let link: ExportBundle;
    try {
      link = await this.exporter.bundle(bundle.jobId);
    } catch (error) {
      const message = `refreshing the bundle link of job ${bundle.jobId} failed: ${messageOf(error)}`;
      this.status.error = message;
      const expired = this.now.getTime() >= Date.parse(bundle.expiresAt);
      if (expired) this.condition('Ready', 'False', 'LinkExpired', message);
      this.condition('TargetsSynced', 'False', 'RefreshFailed', message);
      this.event('Warning', 'RefreshFailed', message);
      this.deps.metrics?.refreshFailures.inc();
      this.wakeAt(this.now.getTime() + this.failureBackoff());
      return;
    }
    const targets = await this.reconciler.writeTargets(this.resource, link.bundleUrl, bundle.version);
    this.status.bundle = { ...bundle, ...this.linkTimes(link) };
    this.recordTargets(targets);
    if (!targets.some((t) => t.error)) {
      this.status.error = undefined;
      this.condition('Ready', 'True', 'BundleReady', this.readyMessage());
      this.event('Normal', 'LinkRefreshed', `fresh bundle link, valid until ${link.expiresAt}`);
    }
    this.wakeAt(Date.parse(this.status.bundle.renewalTime));
  }

  /** Starts an export when the spec, the annotation or the schedule asks for one. Returns whether it did. */
  async startIfWanted(): Promise<boolean> {
    const reason = this.exportWanted();
    if (!reason) return false;
    const { spec, metadata } = this.resource;
    const requestedAt = metadata.annotations?.[EXPORT_REQUESTED_ANNOTATION] || undefined;
    let job: ExportJob;
    try {
      job = await this.exporter.start(
        { domain: spec.domain, version: spec.version, paths: spec.paths },
        { revision: this.revision },
      );
    } catch (error) {
      this.status.jobGeneration = metadata.generation;
      this.status.jobRequestedAt = requestedAt;
      this.status.jobRevision = this.revision;
      this.fail(`starting the export failed: ${messageOf(error)}`);
      return true;
    }
    Object.assign(this.status, {
      phase: 'Exporting',
      jobId: job.jobId,
      jobGeneration: metadata.generation,
      jobRequestedAt: requestedAt,
      jobRevision: this.revision,
      progress: job.progress,
      pageCount: job.pageCount,
      startedAt: this.now.toISOString(),
      completedAt: undefined,
      error: undefined,
    } satisfies StaticExportStatus);
    this.condition('Exporting', 'True', 'ExportStarted', `export job ${job.jobId} started: ${reason}`);
    if (!this.status.bundle) this.condition('Ready', 'False', 'Exporting', 'the first export is running');
    this.event('Normal', 'ExportStarted', `export job ${job.jobId} started: ${reason}`);
    // The job id is recorded before anything else happens, so no restart starts it twice.
    await this.save();
    this.wakeAt(this.now.getTime() + this.pollInterval());
    return true;
  }

  private exportWanted(): string | undefined {
    const { status } = this;
    const { metadata, spec } = this.resource;
    const requestedAt = metadata.annotations?.[EXPORT_REQUESTED_ANNOTATION] ?? '';
    const newRevision = this.revision !== undefined && status.jobRevision !== this.revision;
    const attemptIsCurrent =
      status.jobGeneration === metadata.generation &&
      (status.jobRequestedAt ?? '') === requestedAt &&
      !newRevision;
    if (status.phase === 'Failed' && attemptIsCurrent) {
      const retryAt = Date.parse(status.lastFailureAt ?? '') + this.failureBackoff();
      if (this.now.getTime() < retryAt) {
        this.wakeAt(retryAt);
        return undefined;
      }
      return `retry after ${status.failures ?? 1} failure(s)`;
    }
    if (!status.jobId) return 'first export';
    if (status.jobGeneration !== metadata.generation)
      return `spec changed (generation ${metadata.generation})`;
    if ((status.jobRequestedAt ?? '') !== requestedAt) return `requested at ${requestedAt}`;
    // A new revision while an export runs waits for it: the next export starts from what it left.
    if (newRevision && (status.phase === 'Ready' || status.phase === 'Failed'))
      return `new source revision ${this.revision?.slice(0, 12)}`;
    const interval = spec.reexport?.interval ? parseDuration(spec.reexport.interval) : undefined;
    if (interval && status.phase === 'Ready' && status.completedAt) {
      const due = Date.parse(status.completedAt) + interval;
      if (this.now.getTime() >= due) return `re-export interval ${spec.reexport?.interval} elapsed`;
      this.wakeAt(due);
    }
    return undefined;
  }

  /** Polls the running export; delivers its bundle when it completes. */
  async followExport(): Promise<void> {
    const { status } = this;
    if (!status.jobId || status.phase === 'Failed' || status.bundle?.jobId === status.jobId) return;
    let job: ExportJob;
    try {
      job = await this.exporter.status(status.jobId);
    } catch (error) {
      if (error instanceof ExportJobLost) return this.fail(error.message);
      throw error;
    }
    if (job.status === 'failed') return this.fail(job.error ?? `export job ${job.jobId} failed`);
    status.progress = job.progress;
    status.pageCount = job.pageCount;
    if (job.status !== 'completed') {
      status.phase = 'Exporting';
      this.wakeAt(this.now.getTime() + this.pollDelay(job));
      return;
    }
    status.phase = 'Bundling';
    await this.deliver(job);
  }

  /** A completed job's bundle: link, digest, targets, then Ready. */
  private async deliver(job: ExportJob): Promise<void> {
    let link: ExportBundle;
    let digest: string;
    try {
      link = await this.exporter.bundle(job.jobId);
      // The digest means downloading the archive: only a big one takes long enough for the
      // Bundling phase to be seen, and worth a status write of its own.
      if (link.sizeBytes >= VISIBLE_BUNDLING_BYTES) await this.save();
      digest = await bundleDigest(link.bundleUrl);
    } catch (error) {
      if (error instanceof ExportJobLost) return this.fail(error.message);
      const message = `fetching the bundle of job ${job.jobId} failed: ${messageOf(error)}`;
      this.status.error = message;
      this.event('Warning', 'BundleFailed', message);
      this.wakeAt(this.now.getTime() + this.failureBackoff());
      return;
    }
    const version = this.resource.spec.version ?? digest;
    const targets = await this.reconciler.writeTargets(this.resource, link.bundleUrl, version);
    Object.assign(this.status, {
      phase: 'Ready',
      progress: 100,
      pageCount: job.pageCount,
      completedAt: this.now.toISOString(),
      error: undefined,
      failures: undefined,
      lastFailureAt: undefined,
      bundle: { jobId: job.jobId, sizeBytes: link.sizeBytes, digest, version, ...this.linkTimes(link) },
    } satisfies StaticExportStatus);
    this.recordTargets(targets);
    this.condition('Exporting', 'False', 'ExportCompleted', `export job ${job.jobId} completed`);
    this.condition('Ready', 'True', 'BundleReady', this.readyMessage());
    this.event(
      'Normal',
      'BundleReady',
      `export job ${job.jobId}: ${job.pageCount} pages, ${link.sizeBytes} bytes, link valid until ${link.expiresAt}`,
    );
    this.wakeAt(Date.parse(this.status.bundle?.renewalTime ?? ''));
  }

  private fail(message: string): void {
    const failures = (this.status.failures ?? 0) + 1;
    Object.assign(this.status, {
      phase: 'Failed',
      error: message,
      failures,
      lastFailureAt: this.now.toISOString(),
    } satisfies StaticExportStatus);
    this.condition('Exporting', 'False', 'ExportFailed', message);
    if (!this.status.bundle) this.condition('Ready', 'False', 'ExportFailed', message);
    this.event('Warning', 'ExportFailed', `${message} (failure ${failures} in a row)`);
    this.wakeAt(this.now.getTime() + this.failureBackoff());
  }

  private recordTargets(targets: TargetStatus[]): void {
    this.status.targets = targets;
    const failed = targets.filter((t) => t.error);
    if (failed.length === 0) {
      this.condition('TargetsSynced', 'True', 'Synced', `the bundle link is in ${targets.length} target(s)`);
      return;
    }
    const message = failed.map((t) => t.error).join('; ');
    this.condition('TargetsSynced', 'False', 'TargetWriteFailed', message);
    this.event('Warning', 'TargetWriteFailed', message);
    this.wakeAt(this.now.getTime() + this.failureBackoff());
  }

  private readyMessage(): string {
    return `bundle of job ${this.status.bundle?.jobId} is in the targets until ${this.status.bundle?.expiresAt}`;
  }

  /**
   * expiresAt, and renewalTime = expiresAt − renewBefore (default a third of the link's lifetime,
   * as cert-manager renews), in whole seconds, less a per-resource jitter.
   */
  private linkTimes(link: ExportBundle): { expiresAt: string; renewalTime: string } {
    const expires = Date.parse(link.expiresAt);
    const lifetime = Math.max(0, expires - this.now.getTime());
    const asked = this.resource.spec.bundle?.renewBefore
      ? parseDuration(this.resource.spec.bundle.renewBefore)
      : undefined;
    const renewBefore = asked !== undefined && asked < lifetime ? asked : lifetime / 3;
    const jitterRange = Math.min(this.settings.renewJitterMs, renewBefore / 10);
    const jitter = jitterRange > 0 ? hashFraction(this.resource.metadata.uid) * jitterRange : 0;
    const renewal = Math.floor((expires - renewBefore - jitter) / 1000) * 1000;
    return { expiresAt: link.expiresAt, renewalTime: new Date(renewal).toISOString() };
  }

  private pollInterval(): number {
    const asked = this.resource.spec.pollInterval
      ? parseDuration(this.resource.spec.pollInterval)
      : undefined;
    return Math.max(asked ?? this.settings.pollIntervalMs, 200);
  }

  /**
   * The poll interval while the job runs; while it waits in the exporter's queue, a quarter of
   * the time it has waited (up to 30 s), so a thousand queued jobs do not keep the operator and
   * the exporter busy answering "still queued".
   */
  private pollDelay(job: ExportJob): number {
    const interval = this.pollInterval();
    if (job.status !== 'queued') return interval;
    const waited = this.now.getTime() - Date.parse(this.status.startedAt ?? this.now.toISOString());
    return Math.max(interval, Math.min(waited / 4, MAX_QUEUED_POLL_MS));
  }

  private failureBackoff(): number {
    const failures = Math.max(1, this.status.failures ?? 1);
    return Math.min(this.settings.failureBackoffMs * 2 ** (failures - 1), this.settings.maxFailureBackoffMs);
  }
}

/** A stable number in [0, 1) for a resource, so its jitter survives restarts. */
function hashFraction(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0) / 2 ** 32;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function stripUndefined(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value));
}
