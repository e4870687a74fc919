import { z } from 'zod';
import { DeploymentKind } from './deployment.ts';

/** The manifest's name inside every export archive and site directory. */
export const MANIFEST_FILE = 'docsnap-manifest.json';

/**
 * The manifest an export writes beside its files (export/pipeline.ts) and a bundle server checks
 * an archive against (serve/unpack-bundle.ts).
 */
export const BundleManifest = z.object({
  generator: z.string(),
  version: z.string().nullable(),
  deployment: DeploymentKind,
  pageCount: z.number().int().nonnegative(),
  files: z
    .record(z.string(), z.string().regex(/^[0-9a-f]{64}$/))
    .describe('Every file of the site but the manifest itself, with its sha256.'),
});
export type BundleManifest = z.infer<typeof BundleManifest>;
