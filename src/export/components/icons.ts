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

type IconSet = 'lucide' | 'tabler' | 'tabler-filled' | 'fa-solid' | 'fa-regular' | 'fa-brands';

interface IconShape {
  viewBox: string;
  /** Lucide and Tabler's outline icons draw with strokes, Font Awesome and Tabler's filled ones with fills. */
  stroke: boolean;
  nodes: Array<{ tag: string; attributes: Record<string, string> }>;
}

const require = createRequire(import.meta.url);
const shapes = new Map<string, IconShape | null>();

const FA_PACKAGES = {
  'fa-solid': '@fortawesome/free-solid-svg-icons',
  'fa-regular': '@fortawesome/free-regular-svg-icons',
  'fa-brands': '@fortawesome/free-brands-svg-icons',
} as const;

/**
 * The sets published as one SVG file per icon: a file the package exports, and the icons' folder next to it
 * (Tabler's package exports its icon files only).
 */
const SVG_FILE_SETS = {
  lucide: { anchor: 'lucide-static/package.json', dir: 'icons' },
  tabler: { anchor: '@tabler/icons/outline/circle.svg', dir: '.' },
  'tabler-filled': { anchor: '@tabler/icons/filled/circle.svg', dir: '.' },
} as const;

/**
 * Style words of Font Awesome class lists, of docs.json icon objects (`style`) and of the `iconType` prop, and
 * the free set that draws each: the Pro styles (light, thin, duotone, sharp) fall back to the nearest free one.
 */
const STYLE_WORDS: Record<string, 'solid' | 'regular' | 'brands' | 'filled' | undefined> = {
  fa: undefined,
  fas: 'solid',
  far: 'regular',
  fab: 'brands',
  fal: 'regular',
  fat: 'regular',
  fad: 'solid',
  fass: 'solid',
  solid: 'solid',
  regular: 'regular',
  brands: 'brands',
  light: 'regular',
  thin: 'regular',
  duotone: 'solid',
  sharp: 'solid',
  'sharp-solid': 'solid',
  'sharp-regular': 'regular',
  'sharp-light': 'regular',
  'sharp-thin': 'regular',
  'sharp-duotone-solid': 'solid',
  filled: 'filled',
  outline: undefined,
};
const LIBRARY_WORDS = new Set<IconLibrary>(['fontawesome', 'lucide', 'tabler']);
const ICON_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * An inline `<svg>` for an icon name, or undefined when no installed set has it. Names may be written the Font
 * Awesome way ("fa-rocket", "brands github", "fa-regular fa-bell") and may carry a library word ("tabler
 * rocket", as docs.json icon objects are read); the requested library is searched first, then the others.
 */
export function iconElement(
  name: string,
  options: { library: IconLibrary; className?: string },
): Element | undefined {
  const parsed = parseIconName(name);
  if (!parsed) return undefined;
  for (const set of searchOrder(parsed, parsed.library ?? options.library)) {
    const shape = loadShape(set, parsed.name);
    if (shape) return toElement(shape, set, parsed.name, options.className);
  }
  return undefined;
}

interface ParsedIcon {
  name: string;
  style?: 'solid' | 'regular' | 'brands' | 'filled';
  /** A library word or an explicit Font Awesome style ("fa-solid", "fas") names the library. */
  library?: IconLibrary;
}

/** The sets to look in, best first: the library's own, in the style asked for, then the others. */
function searchOrder(icon: ParsedIcon, library: IconLibrary): IconSet[] {
  if (icon.style === 'brands') return ['fa-brands', 'fa-solid', 'tabler', 'lucide'];
  const fontAwesome: IconSet[] =
    icon.style === 'regular'
      ? ['fa-regular', 'fa-solid', 'fa-brands']
      : ['fa-solid', 'fa-brands', 'fa-regular'];
  const tabler: IconSet[] =
    icon.style === 'filled' ? ['tabler-filled', 'tabler'] : ['tabler', 'tabler-filled'];
  if (library === 'lucide') return ['lucide', ...tabler, ...fontAwesome];
  if (library === 'tabler') return [...tabler, 'lucide', ...fontAwesome];
  return [...fontAwesome, 'lucide', ...tabler];
}

/** Splits "fa-brands fa-github" into the name and what the other words say about the set. */
function parseIconName(raw: string): ParsedIcon | undefined {
  const icon: Partial<ParsedIcon> = {};
  for (const token of raw.trim().toLowerCase().split(/\s+/)) {
    const word = token.startsWith('fa-') ? token.slice(3) : token;
    if (LIBRARY_WORDS.has(token as IconLibrary)) icon.library = token as IconLibrary;
    else if (token in STYLE_WORDS || word in STYLE_WORDS) {
      icon.style = STYLE_WORDS[token] ?? STYLE_WORDS[word] ?? icon.style;
      // An explicit Font Awesome style ("fa-solid", "fas") asks for Font Awesome whatever the site's library.
      if (token.startsWith('fa')) icon.library = 'fontawesome';
    } else icon.name = word;
  }
  return icon.name && ICON_NAME.test(icon.name) ? (icon as ParsedIcon) : undefined;
}

function loadShape(set: IconSet, name: string): IconShape | undefined {
  const key = `${set}:${name}`;
  let shape = shapes.get(key);
  if (shape === undefined) {
    try {
      shape =
        set in SVG_FILE_SETS
          ? svgFileShape(set as keyof typeof SVG_FILE_SETS, name)
          : fontAwesomeShape(set as keyof typeof FA_PACKAGES, name);
    } catch {
      // A package that is missing or malformed means "no such icon", never a failed page.
      shape = null;
    }
    shapes.set(key, shape);
  }
  return shape ?? undefined;
}

const setDirs = new Map<string, string>();

function svgFileShape(set: keyof typeof SVG_FILE_SETS, name: string): IconShape | null {
  const { anchor, dir } = SVG_FILE_SETS[set];
  let folder = setDirs.get(set);
  if (!folder) {
    folder = join(dirname(require.resolve(anchor)), dir);
    setDirs.set(set, folder);
  }
  let source: string;
  try {
    source = readFileSync(join(folder, `${name}.svg`), 'utf8');
  } catch {
    return null;
  }
  const nodes: IconShape['nodes'] = [];
  // The files are generated: one self-closing shape element per line, attributes in double quotes.
  for (const match of source.matchAll(/<(path|circle|rect|line|polyline|polygon|ellipse)\b([^>]*?)\/?>/g)) {
    const attributes: Record<string, string> = {};
    for (const attribute of (match[2] ?? '').matchAll(/([a-zA-Z][a-zA-Z0-9:-]*)="([^"]*)"/g)) {
      attributes[attribute[1] as string] = attribute[2] as string;
    }
    // Tabler's files start with an invisible 24×24 box (stroke and fill none): nothing to draw.
    if (attributes.stroke === 'none' && attributes.fill === 'none') continue;
    nodes.push({ tag: match[1] as string, attributes });
  }
  return nodes.length > 0 ? { viewBox: '0 0 24 24', stroke: set !== 'tabler-filled', nodes } : null;
}

/** File names per Font Awesome package (`faRocket`), keyed by lower case to find names the casing hides. */
const faFiles = new Map<string, Map<string, string>>();

interface FaDefinition {
  iconName: string;
  icon: [number, number, Array<string | number>, string, string | string[]];
}

function fontAwesomeShape(set: keyof typeof FA_PACKAGES, name: string): IconShape | null {
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
