import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, normalize, sep } from 'node:path';
import type { CoreV1Api, V1ConfigMap } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import type { ExportBundle, ExportJob, StartExportRequest } from '../../contract/admin-api.ts';
import type { SiteConfig } from '../../contract/api-config.ts';
import { parseDuration } from '../../contract/duration.ts';
import type { EmbeddedExporter as EmbeddedExporterSpec } from '../../contract/static-export.ts';
import { SourceUnavailable } from '../../service/errors.ts';
import { ExportEngine, jobView } from '../../service/export-engine.ts';
import type { ExportRunner } from '../../service/export-process/pool.ts';
import { checkoutSite, type GitCredentials, resolveGitRevision } from '../../service/site-source.ts';
import type { Slots } from '../../service/slots.ts';
import { S3ObjectStore } from '../../storage/s3-store.ts';
import { kubeMessage } from '../runtime/kube-errors.ts';
import { type Exporter, ExportJobLost } from './exporter.ts';

/** The owner earlier versions recorded on every job, whatever its StaticExport: those jobs are still followed. */
const LEGACY_OWNER = 'docsnap-operator';
const DEFAULT_LINK_LIFETIME_MS = 24 * 3_600_000;
// A commit reaches the site within ~25 s at the median (test/e2e): the poll is most of it. One
// `git ls-remote` (a single small request) per StaticExport every 15 s is cheap for a git server.
const DEFAULT_SOURCE_POLL_MS = 15_000;

export interface EmbeddedExporterOptions {
  spec: EmbeddedExporterSpec;
  domain: string;
  /** The StaticExport's namespace and name: ConfigMap sources live there; the default key prefix. */
  namespace: string;
  name: string;
  storageCredentials: { accessKeyId: string; secretAccessKey: string };
  gitCredentials?: GitCredentials;
  core: CoreV1Api;
  /** Export slots shared by every embedded exporter of the operator. */
  slots: Slots;
  /** The export processes shared by every embedded exporter of the operator. */
  runner: ExportRunner;
  log: Logger;
}

/**
 * The export pipeline inside the operator, for clusters with no way out: the service's export
 * engine (the same code `docsnap api` runs, without its tenancy) over the StaticExport's bucket, with the docs read from git,
 * a ConfigMap or a mounted path. Job records live in the bucket beside the bundles, so a new
 * leader follows the jobs of the last one and resumes the ones it left running.
 */
export class EmbeddedExporter implements Exporter {
  readonly sourcePollMs: number | undefined;
  private readonly options: EmbeddedExporterOptions;
  private readonly engine: ExportEngine;
  private readonly site: SiteConfig;
  /** The engine's owner of every job here: the StaticExport. */
  private readonly owner: string;
  private readonly recovered: Promise<unknown>;
  private lastRevision: { value: string | undefined; at: number } | undefined;

  constructor(options: EmbeddedExporterOptions) {
    this.options = options;
    const { spec, namespace, name, log } = options;
    const s3 = spec.storage.s3;
    const store = new S3ObjectStore({
      bucket: s3.bucket,
      region: s3.region,
      endpoint: s3.endpoint,
      forcePathStyle: s3.forcePathStyle,
      prefix: s3.prefix ?? `${namespace}/${name}`,
      credentials: options.storageCredentials,
    });
    const source = spec.source;
    this.sourcePollMs = source.path
      ? undefined
      : (parseDuration(source.git?.pollInterval ?? source.configMap?.pollInterval ?? '') ??
        DEFAULT_SOURCE_POLL_MS);
    this.owner = `${namespace}/${name}`;
    const site: SiteConfig = {
      domain: options.domain,
      organization: this.owner,
      source: source.git
        ? { git: { url: source.git.url, ref: source.git.ref } }
        : { path: source.path ?? `configmap:${source.configMap?.name}` },
      deployment: 'air-gapped',
      siteUrl: spec.siteUrl,
      features: spec.siteScripts ? { siteScripts: true } : {},
      ...(spec.strict ? { strict: true } : {}),
      ...(spec.playgroundOrigins ? { playgroundOrigins: spec.playgroundOrigins } : {}),
    };
    this.site = site;
    this.engine = new ExportEngine(
      store,
      {
        links: { lifetime: parseDuration(spec.linkLifetime ?? '') ?? DEFAULT_LINK_LIFETIME_MS },
        exports: { concurrency: 1, perOwner: { queued: 50 } },
      },
      log.child({ exporter: 'embedded' }),
      {
        siteOf: (domain) => (domain === site.domain ? site : undefined),
        slots: options.slots,
        runner: options.runner,
        checkout: (s, workDir, signal, ref) => this.checkout(s, workDir, signal, ref),
      },
    );
    // Jobs a previous leader left queued or running go on here.
    this.recovered = this.engine.recover().catch((error: unknown) => {
      log.warn({ err: (error as Error).message }, 'could not resume export jobs left running');
    });
  }

  async start(request: StartExportRequest, options: { revision?: string } = {}): Promise<ExportJob> {
    await this.recovered;
    const record = await this.engine.submit(this.owner, this.site, request, { sourceRef: options.revision });
    return jobView(record);
  }

  async status(jobId: string): Promise<ExportJob> {
    await this.recovered;
    return jobView(await this.job(jobId));
  }

  async bundle(jobId: string): Promise<ExportBundle> {
    return this.engine.bundle(await this.job(jobId));
  }

  /** The git commit the ref points at, or the ConfigMap's resourceVersion; asked at most every sourcePollMs. */
  async sourceRevision(): Promise<string | undefined> {
    const { source } = this.options.spec;
    if (source.path || this.sourcePollMs === undefined) return undefined;
    if (this.lastRevision && Date.now() - this.lastRevision.at < this.sourcePollMs)
      return this.lastRevision.value;
    let value: string | undefined;
    if (source.git) {
      value = await resolveGitRevision(source.git.url, source.git.ref, {
        credentials: this.options.gitCredentials,
      });
    } else if (source.configMap) {
      const configMap = await this.options.core.readNamespacedConfigMap({
        namespace: this.options.namespace,
        name: source.configMap.name,
      });
      value = `configmap/${configMap.metadata?.resourceVersion}`;
    }
    this.lastRevision = { value, at: Date.now() };
    return value;
  }

  async close(): Promise<void> {
    await this.engine.close();
  }

  private async checkout(site: SiteConfig, workDir: string, signal: AbortSignal, revision?: string) {
    const { source } = this.options.spec;
    if (source.configMap) return this.writeConfigMap(source.configMap.name, join(workDir, 'source'));
    return checkoutSite(site, workDir, signal, { credentials: this.options.gitCredentials, revision });
  }

  /** A ConfigMap's keys as files; "__" in a key stands for "/". */
  private async writeConfigMap(name: string, dir: string): Promise<string> {
    const { core, namespace } = this.options;
    let configMap: V1ConfigMap;
    try {
      configMap = await core.readNamespacedConfigMap({ namespace, name });
    } catch (error) {
      throw new SourceUnavailable(
        `reading ConfigMap ${name} (spec.exporter.embedded.source.configMap): ${kubeMessage(error)}`,
      );
    }
    const files: Array<[string, Buffer]> = [
      ...Object.entries(configMap.data ?? {}).map(([key, text]): [string, Buffer] => [
        key,
        Buffer.from(text),
      ]),
      ...Object.entries(configMap.binaryData ?? {}).map(([key, b64]): [string, Buffer] => [
        key,
        Buffer.from(b64, 'base64'),
      ]),
    ];
    for (const [key, content] of files) {
      const relative = normalize(key.replaceAll('__', '/'));
      if (relative.startsWith('..') || relative.startsWith(sep))
        throw new SourceUnavailable(`ConfigMap ${name} key ${key} points outside the repository`);
      const path = join(dir, relative);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, content);
    }
    return dir;
  }

  /** A job of this exporter; one the bucket no longer has is lost (the operator starts another). */
  private async job(jobId: string) {
    const record = await this.engine.find(jobId);
    const owned = record?.organization === this.owner || record?.organization === LEGACY_OWNER;
    if (!record || !owned) throw new ExportJobLost(jobId);
    return record;
  }
}
