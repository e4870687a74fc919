import { z } from 'zod';

/**
 * The `staticExport` section of a self-hosted deployment's Helm values (spec section 1): what
 * `docsnap serve` reads, and what the operator writes into Secrets, ConfigMaps, Argo CD
 * Applications and Flux HelmReleases (operator/targets/helm-values.ts).
 */
export const StaticExportValues = z
  .looseObject({
    enabled: z.boolean().default(true).describe('false: the site is not published (503 "not published").'),
    bundleUrl: z
      .url({ protocol: /^https?$/ })
      .optional()
      .describe('Presigned link to the export archive (.tar.gz).'),
    version: z
      .string()
      .max(256)
      .optional()
      .describe('Version of the bundle; a "sha256:<hex>" digest is checked against the archive.'),
  })
  .superRefine((values, ctx) => {
    if (values.enabled && !values.bundleUrl)
      ctx.addIssue({ code: 'custom', path: ['bundleUrl'], message: 'is required when enabled is true' });
  });
export type StaticExportValues = z.infer<typeof StaticExportValues>;

/** A version that names the archive's own sha256 ("sha256:<64 hex>"), or undefined. */
export function versionDigest(version: string | undefined): string | undefined {
  return /^sha256:([0-9a-f]{64})$/.exec(version ?? '')?.[1];
}
