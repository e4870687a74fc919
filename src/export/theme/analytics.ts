import type { Element } from 'hast';
import { h } from 'hastscript';
import type { ExportOptions } from '../options.ts';
import type { SiteConfig } from '../source/site-config.ts';

/** The analytics tags of every page, and what the page's Content-Security-Policy must let them do. */
export interface Analytics {
  tags: Element[];
  /** Text of the inline scripts among the tags (the policy allows them by hash). */
  inlineScripts: string[];
  /** Origins the tags load scripts from, and send measurements to. */
  scriptOrigins: string[];
  connectOrigins: string[];
}

const NONE: Analytics = { tags: [], inlineScripts: [], scriptOrigins: [], connectOrigins: [] };

/**
 * Web analytics: included only when docs.json configures it (`integrations.plausible.domain`,
 * `integrations.ga4.measurementId`), the export's options keep it (the default; `--no-analytics`
 * or `features.analytics: false` leave it out) and the deployment is not air-gapped. Scripts load
 * only from the hosts each integration documents: plausible.io (a self-hosted `server` is refused
 * when the site is loaded, see screen-site.ts) and Google's tag manager.
 */
export function analytics(config: SiteConfig, options: ExportOptions): Analytics {
  if (!options.features.analytics || options.deployment === 'air-gapped') return NONE;
  const integrations = config.integrations as {
    plausible?: { domain?: unknown };
    ga4?: { measurementId?: unknown };
  };
  const parts = [plausible(integrations.plausible?.domain), googleAnalytics(integrations.ga4?.measurementId)];
  return {
    tags: parts.flatMap((p) => p.tags),
    inlineScripts: parts.flatMap((p) => p.inlineScripts),
    scriptOrigins: parts.flatMap((p) => p.scriptOrigins),
    connectOrigins: parts.flatMap((p) => p.connectOrigins),
  };
}

function plausible(domain: unknown): Analytics {
  if (typeof domain !== 'string' || !domain) return NONE;
  return {
    tags: [h('script', { defer: true, dataDomain: domain, src: 'https://plausible.io/js/script.js' })],
    inlineScripts: [],
    scriptOrigins: ['https://plausible.io'],
    connectOrigins: ['https://plausible.io'],
  };
}

/** GA4 through gtag.js; the origins are those Google documents for a Content-Security-Policy. */
function googleAnalytics(measurementId: unknown): Analytics {
  if (typeof measurementId !== 'string' || !/^G-[A-Z0-9]+$/.test(measurementId)) return NONE;
  const setup = `window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}gtag('js',new Date());gtag('config',${JSON.stringify(measurementId)});`;
  return {
    tags: [
      h('script', { async: true, src: `https://www.googletagmanager.com/gtag/js?id=${measurementId}` }),
      h('script', setup),
    ],
    inlineScripts: [setup],
    scriptOrigins: ['https://*.googletagmanager.com'],
    connectOrigins: [
      'https://*.google-analytics.com',
      'https://*.analytics.google.com',
      'https://*.googletagmanager.com',
    ],
  };
}
