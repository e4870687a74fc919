import { type FSWatcher, watch } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { basename, dirname, join } from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import type { DeploymentKind } from '../contract/deployment.ts';
import { type StaticExportValues, versionDigest } from '../contract/site-values.ts';
import { BundleCache, type VerifiedBundle } from './bundle-cache.ts';
import { type SiteFront, startSiteWorkers } from './cluster.ts';
import { DEFAULT_FETCH_OPTIONS, type FetchOptions, fetchBundle, linkForLogs } from './fetch-bundle.ts';
import { close, listen, siteServer } from './http-servers.ts';
import { ServeMetrics } from './metrics.ts';
import { LocalSites, type Sites } from './served-sites.ts';
import { SiteHandler } from './site-handler.ts';
import { BundleRefused, type UnpackLimits } from './unpack-bundle.ts';
import { parseValues } from './values.ts';
import { type ValuesObjectRef, watchValuesObject } from './values-object.ts';

export interface BundleServerOptions {
  /** Where the values come from: a Helm values file (watched), or a link given once. */
  source:
    | {
        /** A mounted values file, watched. */
        valuesFile?: string;
        /** The object behind it, watched through the Kubernetes API: a change arrives seconds sooner. */
        valuesObject?: { ref: ValuesObjectRef; kubeConfig: KubeConfig };
      }
    | { values: StaticExportValues };
  listen: { host: string; port: number };
  /** /healthz, /readyz and /metrics; false for none. */
  adminListen: { host: string; port: number } | false;
  cacheDir: string;
  deployment: DeploymentKind;
  frameAncestors: string;
  log: Logger;
  fetch?: Partial<FetchOptions>;
  unpackLimits?: UnpackLimits;
  /** How often the values file is read again besides file-change events (kubelet's swaps can be missed). */
  valuesPollMs?: number;
  /** First wait before a version that could not be had is tried again (doubling to 5 min). */
  retryFirstMs?: number;
  /** How often a version still sending responses after a swap is checked again before it is removed. */
  drainMs?: number;
  /** Processes answering requests (cluster.ts); 1 serves from this process. */
  workers?: number;
}

export interface RunningBundleServer {
  url: string;
  adminUrl?: string;
  /** The version being served, if any. */
  version(): string | undefined;
  /** Settles when the values last read have been applied (downloaded, verified, swapped in). */
  settled(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * `docsnap serve`: the deployment side of a static export. Reads `staticExport.*` from the Helm
 * values, fetches the bundle from its link, verifies and unpacks it into the cache, and serves
 * it; a new version is fetched in the background and swapped in atomically (requests in flight
 * finish on the old one), a refreshed link of the same version downloads nothing, and a version
 * cached from an earlier run is served even when its link has expired.
 */
export async function startBundleServer(options: BundleServerOptions): Promise<RunningBundleServer> {
  await mkdir(options.cacheDir, { recursive: true });
  const workers = options.workers ?? 1;
  const metrics = new ServeMetrics({ countResponses: workers <= 1 });
  const front =
    workers > 1 ? await startSiteWorkers(workers, options.log) : await startSiteHere(options, metrics);
  const state = new ServeState(options, front.sites, metrics);
  const admin = options.adminListen ? createServer(adminHandler(state, metrics, front)) : undefined;
  const adminUrl = admin && options.adminListen ? await listen(admin, options.adminListen) : undefined;
  options.log.info({ url: front.url, adminUrl, workers }, 'serving');
  await state.start();
  return {
    url: front.url,
    adminUrl,
    version: () => state.activeVersion(),
    settled: () => state.settled(),
    stop: async () => {
      state.stop();
      await Promise.all([front.stop(), admin ? close(admin) : undefined]);
    },
  };
}

/** The site served by this process itself. */
async function startSiteHere(options: BundleServerOptions, metrics: ServeMetrics): Promise<SiteFront> {
  const handler = new SiteHandler(options, (status) => metrics.responses?.response(status));
  const server = siteServer(handler);
  return {
    url: await listen(server, options.listen),
    sites: new LocalSites(handler),
    serving: () => server.listening,
    moreMetrics: async () => '',
    stop: () => close(server),
  };
}

/** Retries of a version whose bundle could not be fetched or verified. */
const RETRY_FIRST_MS = 15_000;
const RETRY_MAX_MS = 5 * 60_000;

/** What is being served and what should be: values in, downloads and swaps out, one change at a time. */
class ServeState {
  ready = false;
  reason = 'no bundle has been verified yet';
  private readonly options: BundleServerOptions;
  private readonly sites: Sites;
  private readonly metrics: ServeMetrics;
  private readonly cache: BundleCache;
  private active: VerifiedBundle | undefined;
  private applied: Promise<void> = Promise.resolve();
  private lastValuesText: string | undefined;
  /** Whether the values object watched through the API (--values-secret) has been read. */
  private watchedObjectSeen = false;
  private reading: Promise<void> = Promise.resolve();
  private watcher: FSWatcher | undefined;
  private unwatchObject: (() => void) | undefined;
  private poll: NodeJS.Timeout | undefined;
  private readonly stopping = new AbortController();
  /** A later try of values whose bundle could not be had; newer values cancel it. */
  private retry: NodeJS.Timeout | undefined;
  private failuresInARow = 0;
  /** The version served before the active one: kept in the cache for a quick way back. */
  private previous: VerifiedBundle | undefined;
  private drain: NodeJS.Timeout | undefined;

  constructor(options: BundleServerOptions, sites: Sites, metrics: ServeMetrics) {
    this.options = options;
    this.sites = sites;
    this.metrics = metrics;
    this.cache = new BundleCache(options.cacheDir);
    metrics.bundleAge(() =>
      this.active ? (Date.now() - Date.parse(this.active.verifiedAt)) / 1000 : undefined,
    );
  }

  async start(): Promise<void> {
    await this.cache.clearIncomplete();
    const { source } = this.options;
    if ('values' in source) {
      this.enqueue(source.values);
      return;
    }
    if (source.valuesObject) {
      const { ref, kubeConfig } = source.valuesObject;
      this.unwatchObject = await watchValuesObject(ref, kubeConfig, this.options.log, (text, origin) => {
        this.watchedObjectSeen = true;
        this.applyText(text, origin);
      });
    }
    if (!source.valuesFile) return;
    await this.readValues();
    // kubelet updates a mounted Secret or ConfigMap by swapping a symlink in its folder: watch the folder.
    const folder = dirname(source.valuesFile);
    try {
      this.watcher = watch(folder, () => void this.readValues());
    } catch (error) {
      this.options.log.warn(
        { folder, err: (error as Error).message },
        'cannot watch the values folder; polling only',
      );
    }
    this.poll = setInterval(() => void this.readValues(), this.options.valuesPollMs ?? 5_000).unref();
  }

  settled(): Promise<void> {
    return this.applied;
  }

  activeVersion(): string | undefined {
    return this.active?.version;
  }

  stop(): void {
    this.ready = false;
    this.reason = 'shutting down';
    this.watcher?.close();
    this.unwatchObject?.();
    clearInterval(this.poll);
    clearTimeout(this.retry);
    clearTimeout(this.drain);
    this.stopping.abort();
  }

  /**
   * Reads the values file again and applies it when its text changed. Reads run one after
   * another: a slow read of the old file finishing after a read of the new one must not bring
   * the old values back.
   */
  private readValues(): Promise<void> {
    this.reading = this.reading.then(() => this.readValuesNow());
    return this.reading;
  }

  private async readValuesNow(): Promise<void> {
    const { source } = this.options;
    if (!('valuesFile' in source) || !source.valuesFile) return;
    const text = await readFile(source.valuesFile, 'utf8').catch(() => undefined);
    // kubelet updates the mounted file a minute or more after the API has the change: once the
    // watched object has been read, the file can only be older, and applying it would swap the
    // previous version back in until kubelet catches up.
    if (text !== undefined && !this.watchedObjectSeen) this.applyText(text, basename(source.valuesFile));
  }

  /** Values text from the file or the watched object: applied when it differs from the last seen. */
  private applyText(text: string, origin: string): void {
    if (text === this.lastValuesText) return;
    this.lastValuesText = text;
    try {
      this.enqueue(parseValues(text, origin));
    } catch (error) {
      // A bad edit keeps the current version serving; the message names the field, never the link.
      this.options.log.error({ from: origin, err: (error as Error).message }, 'values not applied');
      if (!this.active) this.reason = (error as Error).message;
    }
  }

  private enqueue(values: StaticExportValues): void {
    clearTimeout(this.retry);
    this.applied = this.applied
      .then(() => this.apply(values))
      .catch((error: unknown) => {
        this.options.log.error({ err: (error as Error).message }, 'bundle not applied');
      });
  }

  private async apply(values: StaticExportValues): Promise<void> {
    const { log } = this.options;
    if (!values.enabled || !values.bundleUrl) {
      // The version served until now stays in the cache: published again, it needs no download.
      this.previous = this.active ?? this.previous;
      this.active = undefined;
      this.sites.unavailable('not published: staticExport.enabled is false');
      this.setReady(false, 'not published (staticExport.enabled is false)');
      log.info('staticExport.enabled is false: serving "not published"');
      return;
    }
    const version = values.version || linkForLogs(values.bundleUrl);
    const digest = versionDigest(values.version);
    if (this.active && this.active.version === version) {
      log.debug({ version }, 'same version: the new link is kept for the next download, nothing fetched');
      return;
    }
    const cached = await this.cache.find(digest ? { sha256: digest } : { version });
    if (cached) {
      log.info({ version }, 'serving a verified bundle from the cache: nothing to download');
      this.activate(cached, 'cache');
      return;
    }
    try {
      this.activate(await this.download(values.bundleUrl, version, digest), 'download');
    } catch (error) {
      const message = (error as Error).message;
      if (error instanceof BundleRefused) this.metrics.verifyFailures.inc();
      else this.metrics.fetchFailures.inc();
      log.error(
        { version, link: linkForLogs(values.bundleUrl), err: message },
        'bundle refused or unavailable',
      );
      if (this.active) {
        this.metrics.stale.set(1);
        log.warn({ serving: this.active.version }, 'still serving the last good version');
      } else this.setReady(false, `no verified bundle: ${message}`);
      // The store may come back, or the link be refreshed in place: try again, less and less often.
      const first = this.options.retryFirstMs ?? RETRY_FIRST_MS;
      const delay = Math.min(Math.max(RETRY_MAX_MS, first), first * 2 ** this.failuresInARow++);
      if (!this.stopping.signal.aborted) this.retry = setTimeout(() => this.enqueue(values), delay).unref();
      return;
    }
    this.failuresInARow = 0;
  }

  private async download(link: string, version: string, digest: string | undefined): Promise<VerifiedBundle> {
    const { log } = this.options;
    const archive = join(this.options.cacheDir, `download-${process.pid}-${Date.now()}.tar.gz`);
    try {
      const started = Date.now();
      const { sha256, sizeBytes } = await fetchBundle(link, archive, {
        ...DEFAULT_FETCH_OPTIONS,
        ...this.options.fetch,
        signal: this.stopping.signal,
        onRetry: (attempt, error, delayMs) =>
          log.warn({ attempt, delayMs, err: error.message }, 'download failed; retrying'),
      });
      if (digest && sha256 !== digest)
        throw new BundleRefused(`the archive's sha256 is ${sha256}, not the version's ${digest}`);
      const bundle = await this.cache.install(archive, sha256, version, this.options.unpackLimits);
      log.info(
        { version, sizeBytes, files: Object.keys(bundle.files).length, ms: Date.now() - started },
        'bundle verified',
      );
      return bundle;
    } finally {
      await rm(archive, { force: true });
    }
  }

  private activate(bundle: VerifiedBundle, from: 'cache' | 'download'): void {
    const previous = this.active;
    this.active = bundle;
    this.sites.show(bundle);
    this.metrics.activeVersion(bundle.version, from);
    this.metrics.stale.set(0);
    if (previous && previous.sha256 !== bundle.sha256) this.metrics.swaps.inc();
    this.setReady(true, `serving ${bundle.version}`);
    this.options.log.info({ version: bundle.version, from }, 'version active');
    this.previous = previous && previous.sha256 !== bundle.sha256 ? previous : this.previous;
    this.prune();
  }

  /**
   * Cached bundles beyond the active one and the one before it are removed, but never while a
   * response is still being sent from them; those go at a later prune. Pruning runs in the same
   * queue as applying values, so it never removes a bundle being activated.
   */
  private prune(): void {
    this.applied = this.applied.then(async () => {
      const wanted = [this.active?.sha256, this.previous?.sha256].filter((sha) => sha !== undefined);
      const busy = await this.sites.busy();
      const keep = new Set([...wanted, ...busy]);
      this.sites.keepOnly(keep);
      await this.cache.prune(keep);
      if (busy.size > 0 && [...busy].some((sha256) => !wanted.includes(sha256)))
        this.drain = setTimeout(() => this.prune(), this.options.drainMs ?? 30_000).unref();
    });
  }

  private setReady(ready: boolean, reason: string): void {
    this.ready = ready;
    this.reason = reason;
  }
}

function adminHandler(state: ServeState, metrics: ServeMetrics, front: SiteFront) {
  return async (request: IncomingMessage, response: ServerResponse) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path === '/healthz')
      return void response.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok\n');
    if (path === '/readyz') {
      const ready = state.ready && front.serving();
      response.writeHead(ready ? 200 : 503, { 'Content-Type': 'text/plain; charset=utf-8' });
      return void response.end(`${front.serving() ? state.reason : 'no process is serving requests'}\n`);
    }
    if (path === '/metrics') {
      const [own, more] = await Promise.all([metrics.registry.metrics(), front.moreMetrics()]);
      response.writeHead(200, { 'Content-Type': metrics.registry.contentType });
      return void response.end(more ? `${own}\n${more}` : own);
    }
    response.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\n');
  };
}
