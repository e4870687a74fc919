import type { Element, ElementContent, Properties, Root, Text } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { toHtml } from 'hast-util-to-html';
import type { Raw } from 'mdast-util-to-hast';
import postcss from 'postcss';

/**
 * The policy for the repository's SVG files. An SVG opened on its own (a link to it, a new tab)
 * is a document of the site's origin that can run script, so every SVG is rewritten before it
 * is published, from an allow-list of what icons and diagrams need:
 *
 * - kept: shapes, paths, text, groups, symbols and `<use>`, gradients, patterns, clip paths,
 *   masks, markers, filters, `<style>`, SMIL animation of presentation attributes, and
 *   presentation attributes;
 * - removed: `<script>`, `<foreignObject>` and every other element not on the list (with its
 *   content), event handler attributes and every other attribute not on the list, references
 *   (`href`, `xlink:href`) to anything but a `#fragment` of the same file (links on `<a>` may
 *   also go to http(s) and mailto; `<image>` may also embed a raster `data:` image), and CSS
 *   that could load anything (`url()` to elsewhere, `@import`, image functions, escapes).
 *
 * The file is parsed the forgiving way (the HTML parser's SVG rules: entities declared in a
 * DOCTYPE are never expanded, CDATA is text) and written back as well-formed XML from the
 * cleaned tree, so what a browser parses is exactly what was checked. A file that holds no
 * `<svg>` element, or nests elements absurdly deep, is refused.
 */

export type SvgOutcome = { svg: string; removed: string[] } | { refused: string };

/** Larger SVG files are refused rather than parsed (a parse costs many times the file in memory). */
export const MAX_SVG_BYTES = 10 * 1024 * 1024;
/** Icons and diagrams nest a few levels; a parse of thousands would overflow the stack. */
const MAX_DEPTH = 256;

const SVG_NS = 'http://www.w3.org/2000/svg';
const XLINK_NS = 'http://www.w3.org/1999/xlink';

/** Element names as hast spells them (SVG's camelCase). */
const ELEMENTS = new Set(
  [
    'svg g defs symbol use switch view title desc style a image',
    'path rect circle ellipse line polyline polygon text tspan textPath',
    'linearGradient radialGradient stop pattern clipPath mask marker',
    'filter feBlend feColorMatrix feComponentTransfer feComposite feConvolveMatrix feDiffuseLighting',
    'feDisplacementMap feDistantLight feDropShadow feFlood feFuncA feFuncB feFuncG feFuncR',
    'feGaussianBlur feImage feMerge feMergeNode feMorphology feOffset fePointLight',
    'feSpecularLighting feSpotLight feTile feTurbulence',
    'animate animateMotion animateTransform set mpath',
  ]
    .join(' ')
    .split(' '),
);

/** Elements whose content is text only (any element inside is removed). */
const TEXT_ONLY = new Set(['title', 'desc', 'style']);

/** SMIL elements: allowed to animate only the attributes in ANIMATABLE (never href or events). */
const ANIMATIONS = new Set(['animate', 'animateTransform', 'set']);

/** Attributes as hast names them (property names: `strokeWidth` for stroke-width). */
const ATTRIBUTES = new Set(
  [
    // core and geometry
    'id className style lang xmlLang xmlSpace role ariaLabel ariaHidden ariaLabelledBy ariaDescribedBy',
    'tabIndex focusable transform width height x y x1 y1 x2 y2 cx cy r rx ry d points pathLength',
    'viewBox preserveAspectRatio version href xLinkHref requiredExtensions systemLanguage',
    // painting
    'fill fillOpacity fillRule stroke strokeWidth strokeOpacity strokeLineCap strokeLineJoin',
    'strokeMiterLimit strokeDashArray strokeDashOffset opacity color display visibility overflow',
    'clipPath clipRule clipPathUnits mask maskUnits maskContentUnits filter filterUnits primitiveUnits',
    'markerStart markerMid markerEnd markerWidth markerHeight markerUnits refX refY orient',
    'shapeRendering colorInterpolation colorInterpolationFilters imageRendering vectorEffect',
    'paintOrder mix-blend-mode isolation enableBackground',
    // gradients and patterns
    'gradientUnits gradientTransform spreadMethod fx fy fr offset stopColor stopOpacity',
    'patternUnits patternContentUnits patternTransform',
    // text
    'fontFamily fontSize fontWeight fontStyle fontVariant fontStretch textAnchor dominantBaseline',
    'alignmentBaseline baselineShift letterSpacing wordSpacing textDecoration textRendering',
    'writingMode direction unicodeBidi dx dy rotate textLength lengthAdjust startOffset method',
    'spacing side',
    // filters
    'in in2 result stdDeviation edgeMode mode operator k1 k2 k3 k4 type values tableValues slope',
    'intercept amplitude exponent floodColor floodOpacity lightingColor surfaceScale diffuseConstant',
    'specularConstant specularExponent kernelMatrix kernelUnitLength order divisor bias targetX',
    'targetY preserveAlpha radius scale xChannelSelector yChannelSelector baseFrequency numOctaves',
    'seed stitchTiles azimuth elevation z pointsAtX pointsAtY pointsAtZ limitingConeAngle',
    // animation
    'attributeName attributeType begin dur end repeatCount repeatDur restart calcMode keyTimes',
    'keySplines keyPoints from to by additive accumulate path min max',
  ]
    .join(' ')
    .split(' '),
);

/** What SMIL may animate (attribute names as written in `attributeName`). */
const ANIMATABLE = new Set(
  [
    'opacity fill fill-opacity stroke stroke-width stroke-opacity stroke-dasharray stroke-dashoffset',
    'transform gradientTransform patternTransform x y x1 y1 x2 y2 cx cy r rx ry width height d points',
    'offset stop-color stop-opacity visibility display color font-size letter-spacing viewBox',
    'stdDeviation dx dy rotate startOffset pathLength flood-color flood-opacity',
  ]
    .join(' ')
    .split(' '),
);

/** Sanitizes an SVG file's bytes (UTF-8); the result is a well-formed SVG document or a refusal. */
export function sanitizeSvg(bytes: Uint8Array): SvgOutcome {
  let tree: Root;
  try {
    tree = fromHtml(new TextDecoder().decode(bytes), { fragment: true });
  } catch (error) {
    // Thousands of nested elements overflow the parser's recursion: a refusal, not a crash.
    if (error instanceof RangeError) return { refused: 'elements nested too deeply to be parsed' };
    return { refused: `the file could not be parsed as SVG (${(error as Error).message})` };
  }
  const root = tree.children.find((node): node is Element => node.type === 'element');
  if (root?.tagName !== 'svg')
    return {
      refused: `not an SVG document (${root ? `its first element is <${root.tagName}>` : 'no <svg> element'})`,
    };

  const state: CleanState = { removed: new Set(), xlink: false };
  let clean: Element;
  try {
    clean = cleanElement(root, 0, state) as Element; // <svg> is on the list
  } catch (error) {
    if (error instanceof TooDeep) return { refused: `elements nested more than ${MAX_DEPTH} deep` };
    throw error;
  }
  clean.properties.xmlns = SVG_NS;
  if (state.xlink) clean.properties.xmlnsXLink = XLINK_NS;
  // Raw nodes are only the escaped text of xmlText: the parser makes none.
  const svg = toHtml(
    { type: 'root', children: [clean] },
    { space: 'svg', closeEmptyElements: true, allowDangerousHtml: true },
  );
  return { svg: `${svg}\n`, removed: [...state.removed] };
}

interface CleanState {
  /** What was removed, for the author: `<script>`, `onload attribute on <svg>`… */
  removed: Set<string>;
  /** Whether an xlink:href is kept (the root then declares the xlink namespace). */
  xlink: boolean;
}

class TooDeep extends Error {}

/** The element with only what the policy keeps, or undefined when it goes altogether. */
function cleanElement(node: Element, depth: number, state: CleanState): Element | undefined {
  const tag = node.tagName;
  if (!ELEMENTS.has(tag)) {
    if (!editorMetadata(tag)) state.removed.add(`<${tag}>`);
    return undefined;
  }
  if (depth > MAX_DEPTH) throw new TooDeep();
  if (ANIMATIONS.has(tag) && !ANIMATABLE.has(String(node.properties.attributeName ?? ''))) {
    state.removed.add(
      `<${tag}> of the ${JSON.stringify(String(node.properties.attributeName ?? ''))} attribute`,
    );
    return undefined;
  }
  if (tag === 'style' && !cssLoadsNothing(textOf(node))) {
    // A font @import beside local rules is common in logos: the rules stay, the import goes.
    const rest = withoutImports(textOf(node));
    if (rest === undefined) {
      state.removed.add('<style> that loads from elsewhere');
      return undefined;
    }
    state.removed.add('@import in <style>');
    return {
      ...node,
      properties: cleanProperties(node, state),
      children: [xmlText({ type: 'text', value: rest })],
    };
  }
  const children: ElementContent[] = [];
  for (const child of node.children) {
    if (child.type === 'text') children.push(xmlText(child));
    else if (child.type !== 'element')
      continue; // comments
    else if (TEXT_ONLY.has(tag)) state.removed.add(`<${child.tagName}> inside <${tag}>`);
    else {
      const kept = cleanElement(child, depth + 1, state);
      if (kept) children.push(kept);
    }
  }
  return { type: 'element', tagName: tag, properties: cleanProperties(node, state), children };
}

function cleanProperties(node: Element, state: CleanState): Properties {
  const kept: Properties = {};
  for (const [name, value] of Object.entries(node.properties)) {
    if (value === null || value === undefined || value === false) continue;
    if (!ATTRIBUTES.has(name)) {
      // Off the list: only event handlers are worth a warning; the rest are tools' metadata
      // (`inkscape:label`, `data-name`, PlantUML's `codeLine`).
      if (/^on/i.test(name)) state.removed.add(`${attributeLabel(name)} attribute on <${node.tagName}>`);
      continue;
    }
    const text = Array.isArray(value) ? value.join(' ') : String(value);
    const problem = attributeProblem(node.tagName, name, text);
    if (problem) {
      state.removed.add(`${problem} on <${node.tagName}>`);
      continue;
    }
    kept[name] = value;
    if (name === 'xLinkHref') state.xlink = true;
  }
  return kept;
}

/** Why an attribute of the list goes all the same, or undefined when it stays. */
function attributeProblem(tag: string, name: string, value: string): string | undefined {
  if (name === 'href' || name === 'xLinkHref')
    return referenceAllowed(tag, value) ? undefined : `reference ${JSON.stringify(value.slice(0, 60))}`;
  // Characters XML forbids would make the file unreadable, not dangerous; it stays readable.
  if (NOT_IN_XML_ATTRIBUTE.test(value))
    return `${attributeLabel(name)} attribute with "<" or a control character`;
  // Presentation attributes are CSS values: fill="url(https://…)" loads like a stylesheet does.
  if (!cssLoadsNothing(value)) return `${attributeLabel(name)} that loads from elsewhere`;
  return undefined;
}

/** A `#fragment` of the same file; links may also leave the site; images may be raster data. */
function referenceAllowed(tag: string, url: string): boolean {
  if (url.startsWith('#')) return true;
  if (tag === 'a') return /^(?:https?|mailto):/i.test(url);
  if (tag === 'image') return /^data:image\/(?:png|jpeg|jpg|gif|webp|avif)[;,]/i.test(url);
  return false;
}

/**
 * CSS (a `<style>` element, a `style` attribute or a presentation attribute) that cannot load
 * anything nor run anything: `url()` only to `#fragments`, no `@import`, no image functions that
 * take a URL string, no escapes (`\75 rl(` is `url(`), no legacy script hooks.
 */
export function cssLoadsNothing(css: string): boolean {
  if (css.includes('\\')) return false;
  const lower = css.toLowerCase();
  if (/@import|javascript:|expression\(|-moz-binding|behavior\s*:/.test(lower)) return false;
  if (/(?:image-set|image|cross-fade|element|src)\(/.test(lower)) return false;
  for (const match of lower.matchAll(/url\(\s*['"]?\s*/g)) {
    if (lower[match.index + match[0].length] !== '#') return false;
  }
  return true;
}

/** Control characters but tab, line feed and carriage return, and the two non-characters XML forbids. */
const NOT_IN_XML_TEXT = /[^\P{Cc}\t\n\r]|[\uFFFE\uFFFF]/gu;
const NOT_IN_XML_ATTRIBUTE = /<|[^\P{Cc}\t\n\r]|[\uFFFE\uFFFF]/u;

/**
 * Text escaped for XML, as a raw node written as is. hast-util-to-html follows HTML's rules for
 * text: `<style>` content unescaped, `>` never escaped; in an XML document `</style><script>` in
 * CSS would become elements and `]]>` would make the file unreadable. Control characters XML
 * does not allow are dropped.
 */
function xmlText(node: Text): Raw {
  const value = node.value
    .replace(NOT_IN_XML_TEXT, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
  return { type: 'raw', value };
}

/**
 * What drawing programs leave in files (Inkscape's `<sodipodi:namedview>`, `<metadata>`):
 * removed like anything else off the list, without a warning about it.
 */
function editorMetadata(tag: string): boolean {
  return tag.includes(':') || tag === 'metadata';
}

/** A stylesheet without its @import rules, or undefined when the rest still loads from elsewhere or cannot be read. */
function withoutImports(css: string): string | undefined {
  try {
    const root = postcss.parse(css);
    root.walkAtRules(/^import$/i, (rule) => {
      rule.remove();
    });
    const rest = root.toString();
    return cssLoadsNothing(rest) ? rest : undefined;
  } catch {
    return undefined; // CssSyntaxError: not read, not kept
  }
}

function textOf(node: Element): string {
  return node.children.map((child) => (child.type === 'text' ? child.value : '')).join('');
}

/** An attribute's name as authors write it, for messages (`onLoad` → `onload`). */
function attributeLabel(property: string): string {
  if (/^on[A-Z]/.test(property)) return property.toLowerCase();
  const prefixed = /^(xLink|xml|xmlns)([A-Z].*)$/.exec(property);
  if (prefixed) return `${prefixed[1]?.toLowerCase()}:${prefixed[2]?.toLowerCase()}`;
  return property;
}
