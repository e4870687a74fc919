import type { Element, Root } from 'hast';
import { toHtml } from 'hast-util-to-html';
import { LRUCache } from 'lru-cache';
import type { Raw } from 'mdast-util-to-hast';
import { enforceAirGap } from '../pages/air-gap.ts';
import { enforceUrlPolicy } from '../url-policy.ts';

/** What a layout part is held to before it is serialized: the same passes as a whole page. */
export interface PrerenderPolicy {
  airGapped: boolean;
  warn: (message: string) => void;
}

/**
 * A layout part that many pages share (header, footer, sidebar items), serialized to HTML once
 * and reused as a raw node. The page's own air-gap and URL passes do not look inside raw HTML,
 * so the part goes through both here first: reusing it skips work, never a check.
 */
export function prerender(element: Element, policy: PrerenderPolicy): Raw {
  const root: Root = { type: 'root', children: [element] };
  if (policy.airGapped) enforceAirGap(root, policy.warn);
  enforceUrlPolicy(root, policy.warn);
  return { type: 'raw', value: toHtml(root, { allowDangerousHtml: true }) };
}

/**
 * Prerendered parts of one site's layout, grouped in scopes: a scope names everything its parts
 * depend on (a section and a folder, say), a part is found in its scope by identity (a navigation
 * item). Bounded in characters of HTML, least recently used scope first out: pages are rendered
 * roughly in navigation order, so the scopes of the folders being rendered stay while memory does
 * not grow with the site. A page looks up its scope once and then each part in a plain map: a
 * sidebar has hundreds of parts.
 */
export class PrerenderedParts {
  private readonly scopes = new LRUCache<string, Scope>({
    maxSize: PARTS_CACHE_CHARS,
    sizeCalculation: (scope, name) => scope.chars + name.length,
  });

  scope(name: string): (key: unknown, build: () => Raw) => Raw {
    let scope = this.scopes.get(name);
    if (!scope) {
      scope = { parts: new Map(), chars: 0 };
      this.scopes.set(name, scope);
    }
    const parts = scope;
    return (key, build) => {
      let part = parts.parts.get(key);
      if (!part) {
        part = build();
        parts.parts.set(key, part);
        parts.chars += part.value.length;
        this.scopes.set(name, parts); // accounts for its new size (a scope past the bound is dropped)
      }
      return part;
    };
  }
}

interface Scope {
  parts: Map<unknown, Raw>;
  chars: number;
}

/** 8 M characters (16 MB at most) per render thread. */
const PARTS_CACHE_CHARS = 8 * 1024 * 1024;
