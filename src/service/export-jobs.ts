import {
  type ExportBundle,
  type ExportJob,
  isExportJobId,
  type StartExportRequest,
} from '../contract/admin-api.ts';
import type { ApiConfig, SiteConfig } from '../contract/api-config.ts';
import type { ExportJobRecord } from '../contract/records.ts';
import { unknownPaths, unknownPathsMessage } from '../export/source/page-selection.ts';
import type { ObjectStore } from '../storage/object-store.ts';
import { ServiceRefusal } from './errors.ts';
import { ExportEngine, type ExportEngineOptions, jobView, type ServiceLogger } from './export-engine.ts';
import type { RetentionPolicy } from './retention.ts';
import { resolveGitRevision } from './site-source.ts';

export type ExportJobsConfig = Pick<ApiConfig, 'organizations' | 'sites' | 'links' | 'exports'>;

export type ExportJobsOptions = Omit<ExportEngineOptions, 'siteOf'>;

/**
 * Static export jobs of the Admin API's tenants (spec sections 1, 3 and 4): who may start what
 * (an Enterprise plan, the organization's own sites) and whose jobs a caller may see, over the
 * export engine that queues, runs and keeps them. Each organization is an owner of the engine, so
 * the queue is fair between organizations.
 */
export class ExportJobs {
  private readonly config: ExportJobsConfig;
  private readonly engine: ExportEngine;
  private readonly log: ServiceLogger;

  constructor(
    store: ObjectStore,
    config: ExportJobsConfig,
    log: ServiceLogger,
    options: ExportJobsOptions = {},
  ) {
    this.config = config;
    this.log = log;
    const { perOrganization, ...exports } = config.exports;
    this.engine = new ExportEngine(
      store,
      { links: config.links, exports: { ...exports, perOwner: perOrganization } },
      log,
      { ...options, siteOf: (domain) => config.sites.find((s) => s.domain === domain) },
    );
  }

  async start(organization: string, request: StartExportRequest): Promise<ExportJob> {
    this.requireEnterprise(organization);
    const site = this.siteFor(organization, request.domain);
    const sourceRef = request.paths?.length ? await this.checkPaths(site, request.paths) : undefined;
    return jobView(await this.engine.submit(organization, site, request, { sourceRef }));
  }

  async get(organization: string, jobId: string): Promise<ExportJob> {
    return jobView(await this.find(organization, jobId));
  }

  /** A fresh link to the archive of a completed job; the job and its archive stay (spec section 8). */
  async bundle(organization: string, jobId: string): Promise<ExportBundle> {
    return this.engine.bundle(await this.find(organization, jobId));
  }

  /** Queues again the jobs a stopped process left queued or running; returns their ids. */
  recover(): Promise<string[]> {
    return this.engine.recover();
  }

  /** Deletes the finished jobs the policy no longer keeps; returns their ids. */
  sweep(policy: RetentionPolicy, now = Date.now()): Promise<string[]> {
    return this.engine.sweep(policy, now);
  }

  /** Sweeps now and every `intervalMs`; returns the stop. */
  keepRetention(policy: RetentionPolicy, intervalMs: number): () => void {
    return this.engine.keepRetention(policy, intervalMs);
  }

  /** Stops taking work: running exports are cancelled and stay queued for the next process. */
  close(): Promise<void> {
    return this.engine.close();
  }

  private async find(organization: string, jobId: string): Promise<ExportJobRecord> {
    const record = isExportJobId(jobId) ? await this.engine.find(jobId) : undefined;
    // Another organization's job is as good as absent: its existence is not theirs to learn. An
    // organization without Enterprise has no jobs (it could not start one).
    if (!record || record.organization !== organization)
      throw new ServiceRefusal('not-found', `no export job ${jobId}${this.enterpriseNote(organization)}`);
    return record;
  }

  /**
   * Refuses paths that name no page of the site (invalid: 400, listing them all), checked on the
   * site as it is now; the job then exports that same revision. When the site cannot be loaded
   * now (its git server is down, its docs.json broken), the job is queued and reports that itself.
   */
  private async checkPaths(site: SiteConfig, paths: string[]): Promise<string | undefined> {
    let sourceRef: string | undefined;
    let pages: { routes: string[]; home: string };
    try {
      if ('git' in site.source)
        sourceRef = await resolveGitRevision(site.source.git.url, site.source.git.ref);
      pages = await this.engine.pageRoutes(site, sourceRef);
    } catch (error) {
      this.log.info(
        { domain: site.domain, err: (error as Error).message },
        'paths not checked at start: the site did not load',
      );
      return sourceRef;
    }
    const unknown = unknownPaths(paths, pages.routes, pages.home);
    if (unknown.length > 0) throw new ServiceRefusal('invalid', unknownPathsMessage(unknown));
    return sourceRef;
  }

  private enterpriseNote(organization: string): string {
    const org = this.config.organizations.find((o) => o.id === organization);
    return org?.plan === 'enterprise' ? '' : ' (static export requires an Enterprise plan)';
  }

  private requireEnterprise(organization: string): void {
    const org = this.config.organizations.find((o) => o.id === organization);
    if (org?.plan !== 'enterprise')
      throw new ServiceRefusal('forbidden', 'static export requires an Enterprise plan');
  }

  /** An unknown domain and another organization's get the same answer: which domains exist is not a tenant's to learn. */
  private siteFor(organization: string, domain: string): SiteConfig {
    const site = this.config.sites.find((s) => s.domain === domain);
    if (!site || site.organization !== organization)
      throw new ServiceRefusal('forbidden', `${domain} is not a documentation site of your organization`);
    return site;
  }
}
