import { type ApiOperation, type ApiPageOptions, DEFAULT_SAMPLE_LANGUAGES } from '../openapi/index.ts';
import type { ExportOptions } from '../options.ts';
import type { SiteModel } from '../source/load-site.ts';

/**
 * How this export shows API pages: docs.json's `api` settings (samples, playground display) and
 * the export's playground rule (off in air-gapped exports unless given origins to send to).
 */
export function apiPageOptions(site: SiteModel, options: ExportOptions): ApiPageOptions {
  const api = site.config.api;
  const playground = options.features.playground && api.playground !== 'none';
  return {
    samples: {
      languages: api.autogenerate ? (api.languages ?? DEFAULT_SAMPLE_LANGUAGES) : [],
      requiredOnly: api.requiredOnly,
    },
    prefill: api.prefill,
    ...(playground
      ? {
          playground: {
            display: api.playground === 'simple' ? 'simple' : 'interactive',
            ...(options.playgroundOrigins ? { origins: options.playgroundOrigins } : {}),
          },
        }
      : {}),
  };
}

/** The operation with the site's base URLs (mint.json `api.baseUrl`) as its servers when its document names none. */
export function withSiteServers(op: ApiOperation, site: SiteModel): ApiOperation {
  const baseUrls = site.config.api.baseUrls;
  if (op.servers.length > 0 || !baseUrls) return op;
  return { ...op, servers: baseUrls.map((url) => ({ url })) };
}
