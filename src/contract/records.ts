import { z } from 'zod';
import { AgentJob, Domain, ExportJob } from './admin-api.ts';

/*
 * Records the service keeps in object storage (service/). They are documents other systems may
 * write too (agent jobs), so their shapes are part of the contract.
 */

/** An export job as stored: the wire fields plus what the service needs to run and bundle it. */
export const ExportJobRecord = ExportJob.extend({
  organization: z.string(),
  domain: Domain,
  version: z.string().optional(),
  paths: z.array(z.string()).optional(),
  /** The archive in the store, once the job completed. */
  archive: z.object({ key: z.string(), sizeBytes: z.number().int(), sha256: z.string() }).optional(),
  /** The source revision (a git commit) the job exports; the site's configured ref when absent. */
  sourceRef: z.string().optional(),
  /** When the last link handed out for the archive expires: retention never deletes it before. */
  linkExpiresAt: z.iso.datetime({ offset: true }).optional(),
  /** Times the job was started; a job resumed after a restart counts again. */
  attempts: z.number().int().min(0).default(0),
});
export type ExportJobRecord = z.infer<typeof ExportJobRecord>;

/**
 * An agent job as an agent system writes it to the store, at `agent-jobs/<projectId>/<id>.json`
 * (or through `docsnap agent-jobs import`): the AgentJob of the spec plus its project.
 */
export const AgentJobRecord = AgentJob.extend({
  projectId: z
    .string()
    .min(1)
    .max(128)
    .regex(/^[\w.-]+$/, 'may hold letters, digits, ".", "_" and "-" only'),
  id: z
    .string()
    .min(1)
    .max(128)
    .regex(/^[\w.-]+$/, 'may hold letters, digits, ".", "_" and "-" only'),
});
export type AgentJobRecord = z.infer<typeof AgentJobRecord>;

/** An admin key as stored: only its hash, never the key. */
export const ApiKeyRecord = z.object({
  organization: z.string(),
  /** sha256 of the whole key, hex. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  createdAt: z.iso.datetime({ offset: true }),
});
export type ApiKeyRecord = z.infer<typeof ApiKeyRecord>;
