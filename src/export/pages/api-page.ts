import { type ApiPageOptions, DEFAULT_SAMPLE_LANGUAGES } from '../openapi/index.ts';
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
