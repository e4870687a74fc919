import { posix } from 'node:path';
import { routeOf } from '../source/routes.ts';
import { urlScheme } from '../url-policy.ts';

/** What a site's links may point at, built once per render worker. */
export interface LinkTargets {
  /** Route → output file of every rendered page. */
  pages: Map<string, string>;
  /** Redirect source route → destination as written. */
  redirects: Map<string, string>;
  /** Static files of the repository (repository-relative paths). */
  assets: Set<string>;
}

/** A link to an anchor: the href as written into the page, the output file it targets and the anchor. */
export interface FragmentLink {
  href: string;
  target: string;
  fragment: string;
}

/** A URL with a scheme (as a browser reads it) or protocol-relative: not a file of the site. */
export function isExternal(href: string): boolean {
  return urlScheme(href) !== undefined || href.startsWith('//');
}

/** Relative URL from one output file to another ("a/b.html" → "c/d.html" gives "../c/d.html"). */
export function relativeUrl(fromOutput: string, toOutput: string): string {
  const rel = encodeURI(posix.relative(posix.dirname(fromOutput), toOutput) || posix.basename(toOutput));
  // A first segment with a colon would read as a scheme ("javascript:x.html"): keep it a path.
  return /^[^/]*:/.test(rel) ? `./${rel}` : rel;
}

/** The path from a page to the site root: "" at the root, "../../" two folders down. */
export function rootPrefix(output: string): string {
  const depth = output.split('/').length - 1;
  return '../'.repeat(depth);
}

/**
 * Resolves links written in a page. Site links become relative links to the output file, so the
 * exported site works under any base path and from file://; links to missing pages are reported.
 */
export class LinkResolver {
  private readonly targets: LinkTargets;
  private readonly output: string;
  private readonly sourceDir: string;
  private readonly onBroken: (href: string) => void;
  /** Links that name an anchor, checked once every page's ids are known. */
  readonly fragmentLinks: FragmentLink[] = [];
  /** The repository's static files this page links or embeds. */
  readonly usedAssets = new Set<string>();

  constructor(
    targets: LinkTargets,
    output: string,
    sourceFile: string | undefined,
    onBroken: (href: string) => void,
  ) {
    this.targets = targets;
    this.output = output;
    this.sourceDir = sourceFile ? posix.dirname(sourceFile) : posix.dirname(output);
    this.onBroken = onBroken;
  }

  /** A site link made relative to this page; a missing target is reported through `onBroken` (default: the page's). */
  resolveHref = (href: string, onBroken = this.onBroken): string => {
    if (href.startsWith('#') && href.length > 1)
      this.fragmentLinks.push({ href, target: this.output, fragment: safeDecode(href.slice(1)) });
    if (!href || href.startsWith('#') || isExternal(href)) return href;
    const [pathPart = '', hash] = splitHash(href);
    const path = this.absolute(pathPart);
    if (this.targets.assets.has(path)) {
      this.usedAssets.add(path);
      return relativeUrl(this.output, path) + (hash ? `#${hash}` : '');
    }
    const page = this.pageOutput(routeOf(path));
    if (page) {
      const resolved = relativeUrl(this.output, page) + (hash ? `#${hash}` : '');
      if (hash) this.fragmentLinks.push({ href: resolved, target: page, fragment: safeDecode(hash) });
      return resolved;
    }
    onBroken(href);
    return href;
  };

  resolveAsset = (src: string, onBroken = this.onBroken): string => {
    if (!src || isExternal(src) || src.startsWith('data:')) return src;
    const [pathPart = ''] = splitHash(src);
    // Beside the page first, then from the root: the platform reads "images/a.png" from the root.
    const path = [this.absolute(pathPart), this.absolute(`/${pathPart}`)].find((candidate) =>
      this.targets.assets.has(candidate),
    );
    if (path) {
      this.usedAssets.add(path);
      return relativeUrl(this.output, path);
    }
    onBroken(src);
    return src;
  };

  /** The output of a route, following redirects (at most a few hops). */
  private pageOutput(route: string): string | undefined {
    let current = route;
    for (let hops = 0; hops < 5; hops++) {
      const page = this.targets.pages.get(current);
      if (page) return page;
      const next = this.targets.redirects.get(current);
      if (next === undefined || isExternal(next)) return undefined;
      current = routeOf(splitHash(next)[0] ?? '');
    }
    return undefined;
  }

  private absolute(path: string): string {
    const decoded = safeDecode(path.split('?')[0] ?? '');
    const joined = decoded.startsWith('/') ? decoded : posix.join(this.sourceDir, decoded);
    return posix
      .normalize(joined)
      .replace(/^(\.\.\/)+/, '')
      .replace(/^\/+/, '')
      .replace(/\/$/, '');
  }
}

function splitHash(href: string): [string, string | undefined] {
  const index = href.indexOf('#');
  return index === -1 ? [href, undefined] : [href.slice(0, index), href.slice(index + 1)];
}

export function safeDecode(value: string): string {
  try {
    return decodeURI(value);
  } catch {
    return value;
  }
}
