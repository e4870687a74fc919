import type { Element, ElementContent, Root } from 'hast';
import { h } from 'hastscript';
import { visit } from 'unist-util-visit';
import { isExternal } from './links.ts';

/** Attributes through which an element loads a resource (as opposed to linking to it). */
const LOADING_ATTRIBUTES: Record<string, string[]> = {
  img: ['src', 'srcSet'],
  source: ['src', 'srcSet'],
  video: ['src', 'poster'],
  audio: ['src'],
  track: ['src'],
  iframe: ['src'],
  embed: ['src'],
  object: ['data'],
  script: ['src'],
  link: ['href'],
  input: ['src'],
  image: ['href', 'xLinkHref'],
  use: ['href', 'xLinkHref'],
};

function loadsExternally(node: Element): string | undefined {
  for (const attribute of LOADING_ATTRIBUTES[node.tagName] ?? []) {
    const value = node.properties[attribute];
    const urls =
      typeof value === 'string' ? value.split(',').map((part) => part.trim().split(/\s+/)[0] ?? '') : [];
    const external = urls.find((url) => isExternal(url) && !url.startsWith('data:'));
    if (external) return external;
  }
  return undefined;
}

/**
 * Makes a page load nothing from another origin (air-gapped deployments, spec section 1): an
 * external image, frame or media element becomes a plain link to it (links are fine: they load
 * nothing until followed), and inline styles that pull in external URLs lose that declaration.
 * Applied to the whole rendered page, whatever produced the element.
 */
export function enforceAirGap(tree: Root, warn: (message: string) => void): void {
  visit(tree, 'element', (node: Element, index, parent) => {
    const style = node.properties.style;
    if (typeof style === 'string' && /url\(\s*['"]?(?:[a-z]+:|\/\/)/i.test(style)) {
      node.properties.style = style
        .split(';')
        .filter(
          (declaration) =>
            !/url\(\s*['"]?(?:[a-z]+:|\/\/)/i.test(declaration) || /url\(\s*['"]?data:/i.test(declaration),
        )
        .join(';');
    }
    const url = loadsExternally(node);
    if (!url || !parent || index === undefined) return;
    const label = String(node.properties.alt ?? node.properties.title ?? url);
    warn(`<${node.tagName}> loads ${url} from another origin; an air-gapped export shows a link instead`);
    const replacement: ElementContent = h(
      'a',
      { href: url, className: ['ds-external-resource'], rel: ['noopener'] },
      label,
    );
    parent.children.splice(index, 1, replacement);
    return index + 1;
  });
}
