import type { Element, ElementContent } from 'hast';
import type { DeploymentKind } from '../contract/deployment.ts';

/**
 * The contract between the page renderer and the parts that turn pieces of a page into HTML
 * (MDX components, OpenAPI reference pages). Everything here is build-time: output is static hast
 * that hast-util-to-html serializes; interactive parts get a few KB of vanilla JS from the
 * folder's assets/ (no framework at runtime).
 */

/** How the site will be deployed (spec, section 1). */
export type { DeploymentKind };

/** The icon set named in docs.json (`icons.library`); Font Awesome is the format's default. */
export type IconLibrary = 'fontawesome' | 'lucide' | 'tabler';

/** A prop value as written in MDX: string attributes, or literal expressions (`cols={2}`, `{["a"]}`). */
export type PropValue = string | number | boolean | null | PropValue[] | { [key: string]: PropValue };
export type ComponentProps = Record<string, PropValue | undefined>;

export interface RenderContext {
  /**
   * Turns a link as written in the source ('/quickstart', 'quickstart#install', '/images/a.png',
   * 'https://example.com') into the href to write in the current page: site-internal targets become
   * relative paths to the output file ('../quickstart.html#install'), external ones stay as they are.
   */
  resolveHref(href: string, warn?: (message: string) => void): string;
  /** Like resolveHref, for an image or other file source (copied into the output). */
  resolveAsset(src: string, warn?: (message: string) => void): string;
  /** The title of the site page a link names (`/quickstart`), or undefined when it names none. */
  pageTitle?(href: string): string | undefined;
  /** docs.json `variations.options`: the variations a reader can choose between (`<Variation>`). */
  readonly variations?: ReadonlyArray<{ id: string; label: string }>;
  /** Records a warning about the current page; it is reported with the file name, never thrown. */
  warn(message: string): void;
  /** Highlights code at build time and returns the code block element (see CodeBlock below). */
  codeBlock(code: string, language?: string, meta?: string): Element;
  /** An inline SVG for an icon name of the configured library, or undefined (and a warning) if unknown. */
  icon(name: string, options?: { library?: IconLibrary; className?: string }): Element | undefined;
  readonly iconLibrary: IconLibrary;
  readonly deployment: DeploymentKind;
}

/** An MDX component as rendered at build time: props and already-rendered children in, hast out. */
export interface ComponentInput {
  name: string;
  props: ComponentProps;
  /**
   * Props given as JSX (`icon={<svg …>}`, `title={<>A <code>b</code></>}`), rendered to static
   * markup through the same policies as content; the prop's text is in `props` as well.
   */
  markupProps?: Record<string, ElementContent[]>;
  children: ElementContent[];
  /**
   * The literal value between the tags when that is all there is (`<Graph>{[{ … }]}</Graph>`):
   * data a component reads, never shown as text.
   */
  childValue?: PropValue;
  /** True for a component used inside a paragraph (`mdxJsxTextElement`). */
  inline: boolean;
  ctx: RenderContext;
}
export type Component = (input: ComponentInput) => ElementContent[];

/**
 * The shape of a rendered code block, so that components (CodeGroup, RequestExample, Tabs) can
 * find code blocks among their children and read their title and language:
 *
 *   <div class="ds-code" data-language="ts" data-title="client.ts">
 *     <pre><code class="hljs language-ts">…highlighted spans, one <span class="line"> per line…</code></pre>
 *   </div>
 */
export const CODE_BLOCK_CLASS = 'ds-code';

/**
 * The class of content that is not searched, though its ids stay link targets: an API page's
 * samples and playground (the same request in seven languages would match every search for
 * "import" or "headers").
 */
export const NOT_SEARCHED_CLASS = 'ds-not-searched';
