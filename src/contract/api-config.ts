import { z } from 'zod';
import { Domain } from './admin-api.ts';
import { DeploymentKind } from './deployment.ts';
import { durationSchema } from './duration.ts';

/** The `docsnap api` configuration file (YAML), validated field by field. */

const Identifier = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[\w.-]+$/, 'may hold letters, digits, ".", "_" and "-" only');

export const Organization = z
  .object({
    id: Identifier,
    plan: z.enum(['free', 'pro', 'growth', 'enterprise']).describe('Static export needs enterprise.'),
    projects: z.array(Identifier).default([]),
  })
  .strict();

const SiteSource = z.union([
  z.object({ path: z.string().min(1).describe('A docs repository on this machine.') }).strict(),
  z
    .object({
      git: z
        .object({
          url: z.string().min(1).describe('A git repository URL (https, ssh or file).'),
          ref: z.string().min(1).default('HEAD').describe('Branch, tag or commit.'),
        })
        .strict(),
    })
    .strict(),
]);

/** An origin the API playground may send to: scheme, host and port only. */
export const PlaygroundOrigin = z
  .string()
  .regex(/^https?:\/\/[A-Za-z0-9.-]+(?::\d{1,5})?$/, 'an origin such as https://api.example.com (no path)');

export const Site = z
  .object({
    domain: Domain,
    organization: Identifier,
    source: SiteSource,
    deployment: DeploymentKind.default('cloud'),
    siteUrl: z.url().optional().describe('Public URL, for sitemap.xml and canonical links.'),
    strict: z
      .boolean()
      .optional()
      .describe(
        'Fail the export on what the platform builds past with a warning: navigation entries naming missing pages, invalid frontmatter, missing OpenAPI files of pages.',
      ),
    features: z
      .object({
        search: z.boolean().optional(),
        analytics: z.boolean().optional(),
        siteScripts: z
          .boolean()
          .optional()
          .describe("Include the repository's own .js files on every page (off by default)."),
        playground: z
          .boolean()
          .optional()
          .describe(
            'The API playground on API pages (on by default; air-gapped sites need playgroundOrigins).',
          ),
      })
      .strict()
      .default({}),
    playgroundOrigins: z
      .array(PlaygroundOrigin)
      .max(32)
      .optional()
      .describe(
        'Origins the API playground may send requests to; an air-gapped site has no playground without them.',
      ),
    openapiOverrides: z.record(z.string(), z.string()).optional(),
    remoteSpecs: z
      .object({
        privateHosts: z
          .array(z.string().min(1).max(253))
          .max(32)
          .default([])
          .describe('Host names whose documents may come from a private, loopback or link-local address.'),
      })
      .strict()
      .optional()
      .describe(
        'Fetch OpenAPI documents docs.json names by http(s) URL at export time (not for air-gapped sites).',
      ),
  })
  .strict()
  .refine((site) => !(site.deployment === 'air-gapped' && site.remoteSpecs), {
    message: 'an air-gapped site fetches no remote OpenAPI documents (remoteSpecs); use openapiOverrides',
    path: ['remoteSpecs'],
  });
export type SiteConfig = z.infer<typeof Site>;

const LocalStorage = z
  .object({
    local: z
      .object({
        dir: z.string().min(1).describe('Directory for job records, keys and bundles.'),
        /** Base URL the links point at (this server as clients reach it); default: the listen address. */
        publicUrl: z.url().optional(),
      })
      .strict(),
  })
  .strict();

const S3Storage = z
  .object({
    s3: z
      .object({
        bucket: z.string().min(3).max(63),
        region: z.string().min(1).default('us-east-1'),
        endpoint: z.url().optional().describe('For S3-compatible servers; AWS when absent.'),
        forcePathStyle: z.boolean().default(false),
        prefix: z.string().default('').describe('Key prefix for everything docsnap stores.'),
      })
      .strict(),
  })
  .strict();

/** SigV4 presigned links last at most 7 days. */
export const MAX_S3_LINK_LIFETIME_MS = 7 * 24 * 3600 * 1000;

const RateLimit = z.object({ max: z.number().int().positive(), window: durationSchema }).strict();

export const ApiConfig = z
  .object({
    server: z
      .object({
        host: z.string().default('127.0.0.1'),
        port: z.number().int().min(0).max(65_535).default(8080),
        bodyLimitBytes: z
          .number()
          .int()
          .positive()
          .default(1024 * 1024),
        trustProxy: z.boolean().default(false),
        corsOrigins: z
          .array(z.union([PlaygroundOrigin, z.literal('null')]))
          .max(64)
          .default([])
          .describe(
            'Web origins whose pages may call the API from a browser (a docs site\'s API playground). "null" is the origin of pages opened from files. None by default.',
          ),
        connections: z
          .object({
            /** Open connections at once; past it new ones are closed at once (keep it below the file descriptor limit). */
            max: z.number().int().positive().default(4096),
            /** A connection with nothing received or sent for this long is closed (Node's server.timeout). */
            idleTimeout: durationSchema.default(30_000),
            /** An idle keep-alive connection is closed after this long. */
            keepAliveTimeout: durationSchema.default(5_000),
            /** The request's headers must arrive within this long of the connection or the last request. */
            headersTimeout: durationSchema.default(10_000),
            /** The whole request, body included, must arrive within this long. */
            requestTimeout: durationSchema.default(30_000),
            /** Bytes of all request headers together (431 past it). */
            maxHeaderBytes: z
              .number()
              .int()
              .min(1024)
              .max(1024 * 1024)
              .default(16 * 1024),
          })
          .strict()
          .prefault({}),
      })
      .strict()
      // prefault: an absent block, or one that names some fields only, gets every other default.
      .prefault({}),
    auth: z
      .object({
        keyPrefix: z
          .string()
          .regex(/^[a-z][a-z0-9]{1,30}$/, 'lowercase letters and digits')
          .default('docsnap'),
        /** How often the server reads the keys again: a revoked or deleted key stops working within it. */
        keyRefresh: durationSchema.default(10_000),
      })
      .strict()
      .prefault({}),
    organizations: z.array(Organization).min(1),
    sites: z.array(Site).default([]),
    storage: z.union([LocalStorage, S3Storage]),
    links: z
      .object({ lifetime: durationSchema.default(3_600_000) })
      .strict()
      .default({ lifetime: 3_600_000 }),
    retention: z
      .object({
        maxAge: durationSchema
          .default(30 * 24 * 3_600_000)
          .describe('Finished jobs older than this are deleted, archives included.'),
        keepPerSite: z
          .number()
          .int()
          .min(1)
          .default(20)
          .describe('The newest finished jobs of each site, kept whatever their age.'),
        sweepEvery: durationSchema.default(3_600_000),
      })
      .strict()
      .prefault({}),
    exports: z
      .object({
        concurrency: z.number().int().min(1).max(64).default(1),
        perOrganization: z
          .object({
            queued: z
              .number()
              .int()
              .min(1)
              .default(50)
              .describe('Jobs one organization may have waiting; 429 past it.'),
            running: z
              .number()
              .int()
              .min(1)
              .optional()
              .describe(
                'Jobs of one organization running at once. Default: half of concurrency (at least 1) while other organizations have jobs waiting, every slot otherwise.',
              ),
          })
          .strict()
          .prefault({}),
        workDir: z
          .string()
          .optional()
          .describe('Scratch space for git checkouts and archives; default: the system temp dir.'),
        memoryLimitMiB: z
          .number()
          .int()
          .min(128)
          .optional()
          .describe(
            'Memory one export may use (its process, render threads included) before it is stopped; default 2048.',
          ),
        timeLimit: durationSchema
          .optional()
          .describe('Wall-clock time one export may take before it is stopped; default 30m.'),
      })
      .strict()
      .prefault({}),
    rateLimits: z
      .object({
        agentJobs: RateLimit.default({ max: 100, window: 3_600_000 }),
        staticExport: RateLimit.default({ max: 600, window: 60_000 }),
      })
      .strict()
      .default({ agentJobs: { max: 100, window: 3_600_000 }, staticExport: { max: 600, window: 60_000 } }),
  })
  .strict()
  .superRefine((config, ctx) => {
    const orgs = new Set(config.organizations.map((o) => o.id));
    config.sites.forEach((site, i) => {
      if (!orgs.has(site.organization))
        ctx.addIssue({
          code: 'custom',
          path: ['sites', i, 'organization'],
          message: `no organization "${site.organization}"`,
        });
    });
    const domains = new Set<string>();
    config.sites.forEach((site, i) => {
      if (domains.has(site.domain))
        ctx.addIssue({
          code: 'custom',
          path: ['sites', i, 'domain'],
          message: `${site.domain} is configured twice`,
        });
      domains.add(site.domain);
    });
    if ('s3' in config.storage && config.links.lifetime > MAX_S3_LINK_LIFETIME_MS)
      ctx.addIssue({
        code: 'custom',
        path: ['links', 'lifetime'],
        message: 'S3 presigned links last at most 7 days (SigV4)',
      });
  });
export type ApiConfig = z.infer<typeof ApiConfig>;
