import { type ExportBudgets, resolveBudgets } from './budgets.ts';
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
  /** Limits on what one repository may make the export do (budgets.ts); the defaults where not given. */
  budgets?: Partial<ExportBudgets>;
}

/**
 * Optional features (spec section 1's table). Search is offline and on everywhere by default.
 * Analytics follows one rule, whoever starts the export (CLI, Admin API, operator): included when
 * docs.json configures it and the deployment is not air-gapped, unless the export turns it off
 * (`--no-analytics`, `features.analytics: false`). The AI assistant needs the platform's cloud, so
 * a static export never includes it.
 */
export interface FeatureFlags {
  search: boolean;
  analytics: boolean;
  /**
   * The repository's own `.js` files on every page, as the platform loads them. Off unless asked
   * for (`--site-scripts`, a site's `features.siteScripts`, a StaticExport's
   * `exporter.embedded.siteScripts`): they run on the site's origin.
   */
  siteScripts: boolean;
}

/** Options as a caller gives them: anything left out takes the default of resolveOptions. */
export type ExportOptionsInput = Partial<Omit<ExportOptions, 'features'>> & {
  features?: Partial<FeatureFlags>;
};

/** The one place where the defaults of an export's options are decided. */
export function resolveOptions(partial: ExportOptionsInput = {}): ExportOptions {
  const deployment = partial.deployment ?? 'cloud';
  return {
    ...partial,
    deployment,
    features: {
      search: partial.features?.search ?? true,
      analytics: deployment !== 'air-gapped' && (partial.features?.analytics ?? true),
      siteScripts: partial.features?.siteScripts ?? false,
    },
    budgets: resolveBudgets(partial.budgets),
  };
}

/** The budgets of an export: its options' overrides on the defaults. */
export function budgetsOf(options: Pick<ExportOptions, 'budgets'>): ExportBudgets {
  return resolveBudgets(options.budgets);
}
