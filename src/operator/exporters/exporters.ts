import { createHash } from 'node:crypto';
import { realpath } from 'node:fs/promises';
import type { CoreV1Api, V1Secret } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import type { StaticExport } from '../../contract/static-export.ts';
import { isInside } from '../../export/source/repository.ts';
import type { ExportProcessLimits, ExportProcessPool } from '../../service/export-process/pool.ts';
import { Slots } from '../../service/slots.ts';
import { optInHint, optsIn, type SecretReference, secretReferences } from '../access/secret-references.ts';
import { kubeMessage } from '../runtime/kube-errors.ts';
import type { OperatorMetrics } from '../runtime/metrics.ts';
import { findSecret } from '../runtime/secrets.ts';
import { ApiExporter } from './api-exporter.ts';
import type { Exporter } from './exporter.ts';
import { instrumented } from './instrumented.ts';

/** A problem with the resource's surroundings that no retry fixes until someone acts. */
export class Misconfigured extends Error {
  readonly reason: string;
  constructor(reason: string, message: string) {
    super(message);
    this.reason = reason;
  }
}

export interface ExportersOptions {
  core: CoreV1Api;
  log: Logger;
  /** A Secret from the operator's cache (undefined: ask the API). */
  cachedSecret?: (namespace: string, name: string) => V1Secret | undefined;
  /** Embedded exports running at once in this process (each takes a CPU core while it runs). */
  embeddedExports: number;
  /** Limits of one embedded export's process (default: the pool's). */
  exportLimits?: Partial<ExportProcessLimits>;
  /**
   * Directories an embedded exporter's `source.path` may lie in (after symlinks); none: path
   * sources are refused, since they would export any directory of the operator's pod for any tenant.
   */
  allowedSourceRoots?: string[];
  /** How an API exporter is made; the HTTP client unless a test says otherwise. */
  apiExporter?: (resource: StaticExport, adminKey: string) => Exporter;
  metrics?: OperatorMetrics;
}

/**
 * The exporter of each StaticExport, with the Secrets it needs resolved: Admin API clients shared
 * by URL and key, an embedded exporter per resource, made again when what it was made from changes.
 * Only Secrets that opt in for the StaticExport are read.
 */
export class Exporters {
  private readonly options: ExportersOptions;
  private readonly api = new Map<string, Exporter>();
  private readonly embedded = new Map<string, { id: string; exporter: Exporter }>();
  private readonly slots: Slots;
  /** The processes embedded exports run in, made on first use and shared by every resource. */
  private pool: ExportProcessPool | undefined;

  constructor(options: ExportersOptions) {
    this.options = options;
    this.slots = new Slots(options.embeddedExports);
  }

  /** The resource's exporter; a Misconfigured names what is missing or refused. */
  async forResource(resource: StaticExport): Promise<Exporter> {
    const { api, embedded } = resource.spec.exporter;
    if (api)
      return this.apiExporter(resource, api.url, await this.credentials(resource, 'spec.exporter.api'));
    if (embedded) return this.embeddedExporter(resource);
    throw new Misconfigured('NoExporter', 'spec.exporter names no exporter this operator runs');
  }

  /** Called when a resource is gone. */
  forget(uid: string): void {
    const current = this.embedded.get(uid);
    this.embedded.delete(uid);
    void current?.exporter.close?.();
  }

  /** Stops the embedded exports of this process (they resume wherever the operator runs next). */
  async close(): Promise<void> {
    const exporters = [...this.embedded.values()];
    this.embedded.clear();
    await Promise.all(exporters.map(({ exporter }) => exporter.close?.()));
    await this.pool?.close();
  }

  private apiExporter(
    resource: StaticExport,
    url: string,
    secrets: Map<string, Record<string, string>>,
  ): Exporter {
    const ref = resource.spec.exporter.api?.adminKeySecretRef;
    const adminKey = secrets.get(ref?.name ?? '')?.[ref?.key ?? ''] ?? '';
    // One client per URL and key: a rotated key makes a new one.
    const id = createHash('sha256').update(`${url}\n${adminKey}`).digest('hex');
    let exporter = this.api.get(id);
    if (!exporter) {
      exporter = instrumented(
        this.options.apiExporter?.(resource, adminKey) ?? new ApiExporter(url, adminKey),
        'api',
        this.options.metrics,
      );
      this.api.set(id, exporter);
    }
    return exporter;
  }

  private async embeddedExporter(resource: StaticExport): Promise<Exporter> {
    const spec = resource.spec.exporter.embedded as NonNullable<StaticExport['spec']['exporter']['embedded']>;
    if (spec.source.path) await this.checkSourcePath(spec.source.path);
    const secrets = await this.credentials(resource, 'spec.exporter.embedded');
    const storage = secrets.get(spec.storage.s3.credentialsSecretRef.name) ?? {};
    const gitRef = spec.source.git?.credentialsSecretRef;
    const git = gitRef ? secrets.get(gitRef.name) : undefined;
    const { uid, namespace, name } = resource.metadata;
    // A new exporter when anything it was made from changes; the old one's jobs resume in it.
    const id = createHash('sha256')
      .update(JSON.stringify([resource.spec.domain, spec, storage, git]))
      .digest('hex');
    const current = this.embedded.get(uid);
    if (current?.id === id) return current.exporter;
    await current?.exporter.close?.();
    // Loaded on first use: the export pipeline and the S3 client weigh tens of MiB that an
    // operator exporting only through an Admin API does not need.
    const { EmbeddedExporter } = await import('./embedded-exporter.ts');
    const { ExportProcessPool } = await import('../../service/export-process/pool.ts');
    this.pool ??= new ExportProcessPool({
      log: this.options.log.child({ component: 'export-processes' }),
      maxIdle: this.options.embeddedExports,
      limits: this.options.exportLimits,
    });
    const exporter = instrumented(
      new EmbeddedExporter({
        spec,
        domain: resource.spec.domain,
        namespace,
        name,
        storageCredentials: {
          accessKeyId: storage.accessKeyId ?? '',
          secretAccessKey: storage.secretAccessKey ?? '',
        },
        gitCredentials: git ? { username: git.username ?? '', password: git.password ?? '' } : undefined,
        core: this.options.core,
        slots: this.slots,
        runner: this.pool.run,
        log: this.options.log.child({ resource: `${namespace}/${name}` }),
      }),
      'embedded',
      this.options.metrics,
    );
    this.embedded.set(uid, { id, exporter });
    return exporter;
  }

  /** A path source must resolve inside one of the roots the operator was started with. */
  private async checkSourcePath(path: string): Promise<void> {
    const roots = this.options.allowedSourceRoots ?? [];
    const field = 'spec.exporter.embedded.source.path';
    if (roots.length === 0)
      throw new Misconfigured(
        'SourcePathNotAllowed',
        `${field} is refused: this operator was started without --allow-source-path, so no directory of its pod may be exported`,
      );
    const real = await realpath(path).catch(() => undefined);
    const realRoots = await Promise.all(roots.map((root) => realpath(root).catch(() => root)));
    if (!real || !realRoots.some((root) => isInside(root, real)))
      throw new Misconfigured(
        'SourcePathNotAllowed',
        `${field} is not inside a directory this operator may export (--allow-source-path), or does not exist`,
      );
  }

  /** The credential Secrets under `prefix` of the spec, their required keys read; each must opt in. */
  private async credentials(
    resource: StaticExport,
    prefix: string,
  ): Promise<Map<string, Record<string, string>>> {
    const values = new Map<string, Record<string, string>>();
    for (const reference of secretReferences(resource))
      if (!reference.target && reference.field.startsWith(prefix))
        values.set(reference.name, await this.secretValues(resource, reference));
    return values;
  }

  /** The required keys of a Secret the resource refers to, or a Misconfigured naming what is wrong. */
  private async secretValues(
    resource: StaticExport,
    reference: SecretReference,
  ): Promise<Record<string, string>> {
    const { namespace, name } = resource.metadata;
    let secret: V1Secret | undefined;
    try {
      secret = await findSecret(this.options.core, namespace, reference.name, this.options.cachedSecret);
    } catch (error) {
      throw new Error(`reading Secret ${reference.name}: ${kubeMessage(error)}`);
    }
    // The operator watches only opted-in Secrets: one it cannot see may exist without the label.
    if (!secret)
      throw new Misconfigured(
        reference.notFound,
        `Secret ${reference.name} (${reference.field}) does not exist in namespace ${namespace}, or is not labelled for this StaticExport: ${optInHint(name)}`,
      );
    if (!optsIn(secret.metadata, name))
      throw new Misconfigured(
        'SecretNotAllowed',
        `Secret ${reference.name} (${reference.field}) does not allow this StaticExport to use it: ${optInHint(name)}`,
      );
    const values: Record<string, string> = {};
    for (const key of reference.keys) {
      const encoded = secret.data?.[key];
      const value = encoded === undefined ? '' : Buffer.from(encoded, 'base64').toString('utf8').trim();
      if (!value)
        throw new Misconfigured(
          reference.missing,
          reference.keys.length === 1
            ? `Secret ${reference.name} has no key ${key} (${reference.field}.key), or it is empty`
            : `Secret ${reference.name} (${reference.field}) has no key ${key}, or it is empty; it needs ${reference.keys.join(' and ')}`,
        );
      values[key] = value;
    }
    return values;
  }
}
