import { createHash } from 'node:crypto';
import type { Element } from 'hast';
import { h } from 'hastscript';
import type { DeploymentKind } from '../render-context.ts';

/** What a page needs beyond its own origin, for its Content-Security-Policy. */
export interface PolicyInput {
  deployment: DeploymentKind;
  /** Text of the page's inline <script> elements, allowed by hash. */
  inlineScripts?: string[];
  /** Text of the page's inline <style> elements, allowed by hash. */
  inlineStyles?: string[];
  /**
   * Style elements written at run time are allowed (Mermaid puts one in every diagram it draws):
   * pages with diagrams only. Styles run no script; scripts stay held to their hashes.
   */
  runtimeStyles?: boolean;
  /** Origins of analytics scripts and of the measurements they send (never in air-gapped exports). */
  scriptOrigins?: string[];
  connectOrigins?: string[];
}

/** Hashes of inline scripts and styles, by text: every page of a site has the same few. */
const hashes = new Map<string, string>();
function hashOf(text: string): string {
  let hash = hashes.get(text);
  if (hash === undefined) {
    hash = `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
    if (hashes.size < 1000) hashes.set(text, hash);
  }
  return hash;
}

/**
 * The Content-Security-Policy of an exported page: defence in depth behind the URL and HTML
 * policies. Scripts run only from the site itself (and the analytics hosts docs.json configured),
 * inline scripts only by hash, so an injected script or javascript: URL does not run. Style
 * attributes stay allowed: authors and components write them, and CSS runs no script.
 *
 * - air-gapped: the site's own files only ('self'), data: images (which load nothing);
 * - cloud and client-hosted: passive content (images, media, fonts, stylesheets) and frames
 *   from any http(s) origin, as authors embed them.
 *
 * Delivered as a <meta> tag, since a static export cannot choose the headers of its host; that
 * form ignores frame-ancestors and reporting, so neither is set.
 */
export function contentSecurityPolicy(input: PolicyInput): string {
  const scripts = ["'self'", ...(input.inlineScripts ?? []).map(hashOf), ...(input.scriptOrigins ?? [])];
  // A hash in the list would make browsers ignore 'unsafe-inline'.
  const styles = input.runtimeStyles
    ? ["'self'", "'unsafe-inline'"]
    : ["'self'", ...(input.inlineStyles ?? []).map(hashOf)];
  const connect = ["'self'", ...(input.connectOrigins ?? [])];
  const open = input.deployment !== 'air-gapped';
  const web = open ? ['https:', 'http:'] : [];
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': scripts,
    'style-src': [...styles, ...web],
    'style-src-attr': ["'unsafe-inline'"],
    'img-src': ["'self'", 'data:', ...web],
    'font-src': ["'self'", ...web],
    'media-src': ["'self'", ...web],
    'frame-src': ["'self'", ...web],
    'connect-src': connect,
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
    'form-action': ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${[...new Set(sources)].join(' ')}`)
    .join('; ');
}

/** The policy as the <meta> element that must come first in <head>, before any script or style. */
export function policyMeta(input: PolicyInput): Element {
  return h('meta', { httpEquiv: 'Content-Security-Policy', content: contentSecurityPolicy(input) });
}
