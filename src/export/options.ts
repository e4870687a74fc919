import { type ExportBudgets, resolveBudgets } from './budgets.ts';
import type { RemoteSpecOptions } from './openapi/remote-copy.ts';
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
  /**
   * Opt-in: OpenAPI documents named by http(s) URL are fetched at export time (public addresses
   * only unless a host is allowed; time and size limits; kept by URL and ETag). Never in an
   * air-gapped export, which must not depend on the network.
   */
  remoteSpecs?: RemoteSpecOptions;
  features: FeatureFlags;
  /**
   * Origins the API playground may send requests to (`https://api.internal:8443`). Air-gapped
   * exports have no playground without them; elsewhere they narrow it from any http(s) origin.
   */
  playgroundOrigins?: string[];
  /** Limits on what one repository may make the export do (budgets.ts); the defaults where not given. */
  budgets?: Partial<ExportBudgets>;
  /**
   * Refuse what the platform builds past with a warning: navigation entries naming pages that do
   * not exist, invalid frontmatter, OpenAPI files a page names that do not exist. For teams that
   * gate on a clean site (`--strict`, a site's `strict`, a StaticExport's `exporter.embedded.strict`).
   */
  strict?: boolean;
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
  /**
   * The API playground ("Try it") on API pages: on by default in cloud and client-hosted exports;
   * in air-gapped ones only when `playgroundOrigins` names where it may send.
   */
  playground: boolean;
}

/** Options as a caller gives them: anything left out takes the default of resolveOptions. */
export type ExportOptionsInput = Partial<Omit<ExportOptions, 'features'>> & {
  features?: Partial<FeatureFlags>;
};

/** The one place where the defaults of an export's options are decided. */
export function resolveOptions(partial: ExportOptionsInput = {}): ExportOptions {
  const deployment = partial.deployment ?? 'cloud';
  if (deployment === 'air-gapped' && partial.remoteSpecs)
    throw new Error(
      'an air-gapped export fetches no remote OpenAPI documents: map each URL to a local copy (openapi overrides) instead',
    );
  return {
    ...partial,
    deployment,
    features: {
      search: partial.features?.search ?? true,
      analytics: deployment !== 'air-gapped' && (partial.features?.analytics ?? true),
      siteScripts: partial.features?.siteScripts ?? false,
      playground:
        (partial.features?.playground ?? true) &&
        (deployment !== 'air-gapped' || (partial.playgroundOrigins?.length ?? 0) > 0),
    },
    ...(partial.playgroundOrigins
      ? { playgroundOrigins: partial.playgroundOrigins.map(playgroundOrigin) }
      : {}),
    budgets: resolveBudgets(partial.budgets),
  };
}

/** The budgets of an export: its options' overrides on the defaults. */
export function budgetsOf(options: Pick<ExportOptions, 'budgets'>): ExportBudgets {
  return resolveBudgets(options.budgets);
}

/** An origin the playground may send to, as written (`https://api.example.com`, no path): refused with its reason otherwise. */
export function playgroundOrigin(written: string): string {
  let url: URL;
  try {
    url = new URL(written.trim());
  } catch {
    throw new Error(`playground origin "${written}" is not a URL such as https://api.example.com`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new Error(`playground origin "${written}" must be http or https`);
  if (url.pathname !== '/' || url.search || url.hash || url.username || url.password)
    throw new Error(`playground origin "${written}" must be an origin only (scheme, host and port)`);
  return url.origin;
}
