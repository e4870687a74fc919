import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Element } from 'hast';
import { s } from 'hastscript';
import type { IconLibrary } from '../render-context.ts';

/**
 * Icons as inline SVG, read from the installed icon packages one icon at a time: a worker renders thousands of
 * pages but uses a few hundred icons, so loading a whole set (about 1 MB of source each) would be wasted memory.
 */

type IconSet = 'lucide' | 'fa-solid' | 'fa-brands';

interface IconShape {
  viewBox: string;
  /** Lucide draws with strokes, Font Awesome with fills. */
  stroke: boolean;
  nodes: Array<{ tag: string; attributes: Record<string, string> }>;
}

const require = createRequire(import.meta.url);
const shapes = new Map<string, IconShape | null>();

const FA_PACKAGES = {
  'fa-solid': '@fortawesome/free-solid-svg-icons',
  'fa-brands': '@fortawesome/free-brands-svg-icons',
} as const;

/** Style words of Font Awesome class lists and of Mintlify's `iconType`. */
const STYLE_WORDS = new Set([
  'fa',
  'fas',
  'far',
  'fab',
  'fal',
  'fat',
  'fad',
  'fass',
  'solid',
  'regular',
  'brands',
  'light',
  'thin',
  'duotone',
  'sharp',
  'sharp-solid',
]);
const ICON_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * An inline `<svg>` for an icon name, or undefined when no installed set has it. Names may be written the Font
 * Awesome way ("fa-rocket", "brands github", "fa-brands fa-github"); the requested library is searched first,
 * then the other.
 */
export function iconElement(
  name: string,
  options: { library: IconLibrary; className?: string },
): Element | undefined {
  const parsed = parseIconName(name);
  if (!parsed) return undefined;
  const order: IconSet[] = parsed.brands
    ? ['fa-brands', 'fa-solid', 'lucide']
    : options.library === 'lucide' && !parsed.fontAwesome
      ? ['lucide', 'fa-solid', 'fa-brands']
      : ['fa-solid', 'fa-brands', 'lucide'];
  for (const set of order) {
    const shape = loadShape(set, parsed.name);
    if (shape) return toElement(shape, set, parsed.name, options.className);
  }
  return undefined;
}

/** Splits "fa-brands fa-github" into the name and what the style words say about the set. */
function parseIconName(raw: string): { name: string; brands: boolean; fontAwesome: boolean } | undefined {
  let brands = false;
  let fontAwesome = false;
  let name: string | undefined;
  for (const token of raw.trim().toLowerCase().split(/\s+/)) {
    const word = token.startsWith('fa-') ? token.slice(3) : token;
    if (STYLE_WORDS.has(token) || STYLE_WORDS.has(word)) {
      if (word === 'brands' || token === 'fab') brands = true;
      // An explicit Font Awesome style ("fa-solid", "fas") asks for Font Awesome whatever the site's library.
      if (token.startsWith('fa')) fontAwesome = true;
    } else {
      name = word;
    }
  }
  return name && ICON_NAME.test(name) ? { name, brands, fontAwesome } : undefined;
}

function loadShape(set: IconSet, name: string): IconShape | undefined {
  const key = `${set}:${name}`;
  let shape = shapes.get(key);
  if (shape === undefined) {
    try {
      shape = set === 'lucide' ? lucideShape(name) : fontAwesomeShape(set, name);
    } catch {
      // A package that is missing or malformed means "no such icon", never a failed page.
      shape = null;
    }
    shapes.set(key, shape);
  }
  return shape ?? undefined;
}

let lucideDir: string | undefined;

function lucideShape(name: string): IconShape | null {
  lucideDir ??= join(dirname(require.resolve('lucide-static/package.json')), 'icons');
  let source: string;
  try {
    source = readFileSync(join(lucideDir, `${name}.svg`), 'utf8');
  } catch {
    return null;
  }
  const nodes: IconShape['nodes'] = [];
  // Lucide's files are generated: one self-closing shape element per line, attributes in double quotes.
  for (const match of source.matchAll(/<(path|circle|rect|line|polyline|polygon|ellipse)\b([^>]*?)\/?>/g)) {
    const attributes: Record<string, string> = {};
    for (const attribute of (match[2] ?? '').matchAll(/([a-zA-Z][a-zA-Z0-9:-]*)="([^"]*)"/g)) {
      attributes[attribute[1] as string] = attribute[2] as string;
    }
    nodes.push({ tag: match[1] as string, attributes });
  }
  return nodes.length > 0 ? { viewBox: '0 0 24 24', stroke: true, nodes } : null;
}

/** File names per Font Awesome package (`faRocket`), keyed by lower case to find names the casing hides. */
const faFiles = new Map<string, Map<string, string>>();

interface FaDefinition {
  iconName: string;
  icon: [number, number, Array<string | number>, string, string | string[]];
}

function fontAwesomeShape(set: 'fa-solid' | 'fa-brands', name: string): IconShape | null {
  const pkg = FA_PACKAGES[set];
  let files = faFiles.get(pkg);
  if (!files) {
    files = new Map();
    for (const file of readdirSync(dirname(require.resolve(`${pkg}/package.json`)))) {
      if (/^fa[A-Z0-9].*\.js$/.test(file)) files.set(file.slice(0, -3).toLowerCase(), file.slice(0, -3));
    }
    faFiles.set(pkg, files);
  }
  // Each icon (and each alias) has its own module named fa + PascalCase name, e.g. arrow-down-1-9 → faArrowDown19.
  const pascal = name
    .split('-')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
  const file = files.get(`fa${pascal}`.toLowerCase());
  if (!file) return null;
  const definition = (require(`${pkg}/${file}`) as { definition?: FaDefinition }).definition;
  if (!definition) return null;
  const [width, height, aliases, , pathData] = definition.icon;
  // Case-folded file names can collide; accept only the icon that really carries this name.
  if (definition.iconName !== name && !aliases.includes(name)) return null;
  const paths = Array.isArray(pathData) ? pathData : [pathData];
  return {
    viewBox: `0 0 ${width} ${height}`,
    stroke: false,
    nodes: paths.filter((d) => d !== '').map((d) => ({ tag: 'path', attributes: { d } })),
  };
}

function toElement(shape: IconShape, set: IconSet, name: string, className: string | undefined): Element {
  const paint = shape.stroke
    ? {
        fill: 'none',
        stroke: 'currentColor',
        strokeWidth: '2',
        strokeLinecap: 'round',
        strokeLinejoin: 'round',
      }
    : { fill: 'currentColor' };
  return s(
    'svg',
    {
      className: ['ds-icon', ...(className ? className.split(/\s+/).filter(Boolean) : [])],
      viewBox: shape.viewBox,
      width: '1em',
      height: '1em',
      ...paint,
      ariaHidden: 'true',
      focusable: 'false',
      dataIcon: `${set}:${name}`,
    },
    shape.nodes.map((node) => s(node.tag, { ...node.attributes })),
  );
}
