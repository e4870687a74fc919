import { z } from 'zod';

/*
 * The Admin API's wire shapes (spec sections 2 and 4). Routes validate with them, the OpenAPI
 * document is generated from them, and the client checks responses against them.
 */

const isoDateTime = z.iso.datetime({ offset: true });

export const ErrorBody = z
  .object({ error: z.string().describe('What went wrong, for people.') })
  .meta({ id: 'Error', description: 'Every error response.' });

export const AgentJobStatus = z.enum(['active', 'completed', 'archived', 'failed']);

export const AgentJob = z
  .object({
    id: z.string().describe('Unique identifier of the agent job.'),
    status: AgentJobStatus.describe('active, then completed or failed; archived when archived.'),
    source: z.object({
      repository: z.string().describe('Full URL of the source repository.'),
      ref: z.string().nullable().describe('The Git branch the agent works on.'),
    }),
    model: z.string().describe('The AI model used for this job.'),
    prLink: z
      .url()
      .nullable()
      .describe('URL of the pull request the agent created; null while active or when nothing changed.'),
    createdAt: isoDateTime.describe('Time the job was created.'),
    archivedAt: isoDateTime.nullable().describe('Time the job was archived.'),
  })
  .meta({
    id: 'AgentJob',
    example: {
      id: 'job-7f3a',
      status: 'completed',
      source: { repository: 'https://github.com/acme/docs', ref: 'main' },
      model: 'claude-sonnet',
      prLink: 'https://github.com/acme/docs/pull/42',
      createdAt: '2026-11-01T10:00:00.000Z',
      archivedAt: null,
    },
  });
export type AgentJob = z.infer<typeof AgentJob>;

/** A DNS hostname: no scheme, port, slash or path. (No lookahead: the CRD's pattern is RE2.) */
const HOSTNAME =
  /^[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;
export const Domain = z
  .string()
  .max(253, 'must be a hostname of at most 253 characters')
  .regex(HOSTNAME, 'must be a hostname like docs.example.com, without scheme, port or path')
  .transform((domain) => domain.toLowerCase())
  .describe('The documentation domain to export (a hostname).');

export const StartExportRequest = z
  .object({
    domain: Domain,
    version: z
      .string()
      .max(256)
      .optional()
      .describe('Version label recorded in the bundle (staticExport.version). Default: none.'),
    // Bounded so that every valid body fits the server's default 1 MiB body limit.
    paths: z
      .array(z.string().min(1).max(200))
      .max(500)
      .optional()
      .describe(
        'Only these pages ("index", "guides/getting-started", "/quickstart") and the assets they use. Omitted or empty: every page.',
      ),
  })
  // Properties the contract may add later are ignored (and logged at debug), as its clients expect.
  .meta({
    id: 'StartExportRequest',
    example: { domain: 'docs.acme.com', version: 'v2.3.0', paths: ['index', 'guides/getting-started'] },
  });
export type StartExportRequest = z.infer<typeof StartExportRequest>;

export const ExportJobId = z
  .string()
  .regex(/^se_[0-9a-f]{16}$/, 'must look like se_ followed by 16 hex digits')
  .describe('Identifier of the export job.');

export const ExportJobStatus = z.enum(['queued', 'running', 'completed', 'failed']);
export type ExportJobStatus = z.infer<typeof ExportJobStatus>;

/**
 * How many warnings an export had, in all and per kind (the export report's kinds). It has no
 * schema id: the CRD's status embeds it, and CRD schemas cannot use $ref.
 */
export const ExportWarnings = z.object({
  count: z.number().int().min(0).describe('Warnings in all.'),
  byKind: z
    .record(z.string(), z.number().int().min(0))
    .describe('Warnings per kind ("missing page", "broken link", "invalid frontmatter"…).'),
});
export type ExportWarnings = z.infer<typeof ExportWarnings>;

export const ExportJob = z
  .object({
    jobId: ExportJobId,
    status: ExportJobStatus,
    progress: z.number().int().min(0).max(100).describe('Percent done, 0–100.'),
    pageCount: z.number().int().min(0).describe('Pages the export renders (0 until the site is loaded).'),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
    error: z.string().optional().describe('Why the job failed; only when status is failed.'),
    warnings: ExportWarnings.optional().describe(
      'What the export built past (missing pages, invalid frontmatter, broken links…); once completed.',
    ),
  })
  .meta({
    id: 'ExportJob',
    example: {
      jobId: 'se_4f2a9c1e7b3d5a60',
      status: 'running',
      progress: 45,
      pageCount: 120,
      createdAt: '2026-11-24T09:12:03.000Z',
      updatedAt: '2026-11-24T09:12:41.000Z',
    },
  });
export type ExportJob = z.infer<typeof ExportJob>;

export const ExportBundle = z
  .object({
    jobId: ExportJobId,
    bundleUrl: z.url().describe('Presigned link to the archive; works until expiresAt.'),
    sizeBytes: z.number().int().min(0),
    expiresAt: isoDateTime.describe('Time after which the link no longer works.'),
  })
  .meta({
    id: 'ExportBundle',
    example: {
      jobId: 'se_4f2a9c1e7b3d5a60',
      bundleUrl:
        'https://bucket.s3.amazonaws.com/bundles/se_4f2a9c1e7b3d5a60.tar.gz?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Expires=86400&X-Amz-Signature=…',
      sizeBytes: 4194304,
      expiresAt: '2026-11-25T09:13:00.000Z',
    },
  });
export type ExportBundle = z.infer<typeof ExportBundle>;

// Path parameters take any string: an id that names no job is 404, malformed or not, as the
// contract documents (it gives no 400 for these operations).
export const AgentJobParams = z.object({
  projectId: z.string().describe('The project identifier.'),
  id: z.string().describe('Unique identifier of the agent job.'),
});

export const ExportJobParams = z.object({
  jobId: z
    .string()
    .describe('Identifier of the export job (se_ followed by 16 hex digits), as start returned it.'),
});

/** Whether a string is shaped like an export job id (anything else names no job). */
export function isExportJobId(id: string): boolean {
  return /^se_[0-9a-f]{16}$/.test(id);
}

/** An error response with what it means for the operation (the OpenAPI response description) and an example. */
export const errorResponse = (description: string, example: string) =>
  ErrorBody.meta({ description, example: { error: example } });

/** Error statuses every authenticated route can answer with. */
export const COMMON_ERRORS = {
  401: errorResponse(
    'The admin key is missing, malformed, unknown or revoked.',
    'missing admin key: send Authorization: Bearer <admin key>',
  ),
  429: errorResponse(
    'Too many requests from this organization, or (start) too many of its export jobs waiting; retry after Retry-After seconds.',
    'Rate limit exceeded, retry in 1 minute',
  ),
  500: errorResponse('The server failed; the message says nothing of its insides.', 'internal server error'),
} as const;
