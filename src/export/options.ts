import type { DeploymentKind } from './render-context.ts';

/** What an export produces beyond the docs repository itself. */
export interface ExportOptions {
  /** Spec section 1: air-gapped sites load nothing from another origin. Default: cloud. */
  deployment: DeploymentKind;
  /** Public URL of the site, for sitemap.xml and canonical links; without it no sitemap is written. */
  siteUrl?: string;
  /** Version label recorded in the manifest (the spec's staticExport.version). */
  version?: string;
  /** Only these page routes ("/quickstart", "api/users") — the spec's optional `paths`. */
  paths?: string[];
  /** Remote OpenAPI sources mapped to local files, for sites whose docs.json names a URL. */
  openapiOverrides?: Record<string, string>;
  features: FeatureFlags;
}

/**
 * Optional features (spec section 1's table). Search is offline and on everywhere by default;
 * analytics is included only when docs.json configures it, and never in air-gapped exports; the AI
 * assistant needs the platform's cloud, so a static export never includes it.
 */
export interface FeatureFlags {
  search: boolean;
  analytics: boolean;
}

export function resolveOptions(partial: Partial<ExportOptions> = {}): ExportOptions {
  const deployment = partial.deployment ?? 'cloud';
  return {
    ...partial,
    deployment,
    features: {
      search: partial.features?.search ?? true,
      analytics: deployment !== 'air-gapped' && (partial.features?.analytics ?? true),
    },
  };
}
