import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Element } from 'hast';
import { h } from 'hastscript';

/**
 * Mermaid diagrams (```` ```mermaid ```` fences and `<Mermaid chart="…">`). Mermaid lays a diagram
 * out by measuring text in a browser, so it cannot render at build time without one: the page
 * carries the diagram's source, and Mermaid's own browser bundle, shipped inside the site and
 * loaded only by pages that have a diagram, draws it in the reader's theme (redrawn when the theme
 * changes). Without script, the reader sees the source. Mermaid runs at its `strict` security
 * level: labels are text, click handlers and links to scripts are off, its output is sanitized
 * (DOMPurify) before it reaches the page.
 */

/** The class of a diagram's wrapper; the layout loads Mermaid on pages that have one. */
export const DIAGRAM_CLASS = 'ds-mermaid';

/** Where Mermaid's bundle and the script that draws a page's diagrams go in an export. */
export const MERMAID_DIR = '_docsnap/mermaid';
export const MERMAID_JS = `${MERMAID_DIR}/mermaid.min.js`;
export const DIAGRAMS_JS = `${MERMAID_DIR}/diagrams.js`;

/** The fence settings the platform documents for a diagram. */
export interface DiagramOptions {
  /**
   * Zoom and pan controls (`actions`): always, never, or (unset) as the platform does, when the
   * drawn diagram is taller than 120 px.
   */
  actions?: boolean;
  /** Where the controls sit: `top-left`, `top-right`, `bottom-left` or `bottom-right` (the default). */
  placement: string;
}

const PLACEMENTS = new Set(['top-left', 'top-right', 'bottom-left', 'bottom-right']);

/** Reads `placement="…"` and `actions={false}` from a fence's meta; anything else is left alone. */
export function diagramOptions(meta: string | undefined): DiagramOptions {
  const setting = (key: string) =>
    new RegExp(`(?:^|\\s)${key}=(?:"([^"]*)"|'([^']*)'|\\{([^}]*)\\}|(\\S+))`)
      .exec(meta ?? '')
      ?.slice(1)
      .find(Boolean);
  const actions = setting('actions')?.trim();
  return diagramSettings(setting('placement'), actions === undefined ? undefined : actions !== 'false');
}

/** The settings as given (a `<Mermaid>`'s props): a placement the platform does not document is the default. */
export function diagramSettings(placement: string | undefined, actions: boolean | undefined): DiagramOptions {
  return {
    ...(actions === undefined ? {} : { actions }),
    placement: placement && PLACEMENTS.has(placement) ? placement : 'bottom-right',
  };
}

/** A diagram as the page carries it: its source, drawn by diagrams.js where script runs. */
export function diagramBlock(source: string, options: DiagramOptions): Element {
  return h(
    'div',
    {
      className: [DIAGRAM_CLASS],
      dataPlacement: options.placement,
      dataActions: options.actions === undefined ? undefined : String(options.actions),
    },
    [h('pre', { className: ['ds-mermaid-source'], tabIndex: 0 }, source.replace(/\n$/, ''))],
  );
}

const bundledCopy = new URL('./vendor/mermaid.min.js', import.meta.url);
const drawScript = new URL('./assets/diagrams.js', import.meta.url);
/** The diagrams' few styles, part of the site's stylesheet (the source shows on every page). */
export const DIAGRAMS_CSS = new URL('./assets/diagrams.css', import.meta.url);

let bundlePath: string | null | undefined;
/**
 * Mermaid's browser bundle: the copy the build puts beside the compiled code (dist/), else the
 * development dependency's; null when neither is installed.
 */
function mermaidBundle(): string | null {
  if (bundlePath === undefined) {
    if (existsSync(bundledCopy)) bundlePath = fileURLToPath(bundledCopy);
    else {
      try {
        bundlePath = createRequire(import.meta.url).resolve('mermaid/dist/mermaid.min.js');
      } catch {
        bundlePath = null;
      }
    }
  }
  return bundlePath;
}

/** Whether pages can draw their diagrams: when not, they show the source and load nothing. */
export const canDrawDiagrams = (): boolean => mermaidBundle() !== null;

/** The files of an export whose pages have diagrams. */
export function mermaidAssets(): Array<{ path: string; contents: Buffer }> {
  const bundle = mermaidBundle();
  if (!bundle) return [];
  return [
    { path: MERMAID_JS, contents: readFileSync(bundle) },
    { path: DIAGRAMS_JS, contents: readFileSync(drawScript) },
  ];
}

/** The export's one warning when pages have diagrams this installation cannot draw. */
export const NO_MERMAID_WARNING =
  "diagrams shown as their source: this installation has no Mermaid bundle (build it with 'npm run build')";
