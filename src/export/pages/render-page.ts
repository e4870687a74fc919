import { posix } from 'node:path';
import type { Element, ElementContent, Root } from 'hast';
import { toHtml } from 'hast-util-to-html';
import { h } from 'hastscript';
import { type ExportBudgets, formatBytes, isStackOverflow, overBudget } from '../budgets.ts';
import { iconElement } from '../components/index.ts';
import type { SourceProblem } from '../errors.ts';
import { ExportError } from '../errors.ts';
import { codeBlock } from '../markdown/highlight.ts';
import { parseBody } from '../markdown/parse.ts';
import { SnippetResolver } from '../markdown/snippets.ts';
import { mdastToHast } from '../markdown/to-hast.ts';
import { replaceVariables } from '../markdown/variables.ts';
import {
  type ApiPageOptions,
  findOperation,
  loadSpecSource,
  OperationBudget,
  operationMarkdown,
  renderOperation,
  shownUrl,
} from '../openapi/index.ts';
import { budgetsOf, type ExportOptions } from '../options.ts';
import type { RenderContext } from '../render-context.ts';
import type { SearchDocument } from '../search/index.ts';
import { splitFrontmatter } from '../source/frontmatter.ts';
import type { PageSpec, SiteModel } from '../source/load-site.ts';
import { readPageSource } from '../source/page-source.ts';
import { DocsRepository } from '../source/repository.ts';
import { routeOf } from '../source/routes.ts';
import { renderLayout } from '../theme/layout.ts';
import { listedPagesPerSection } from '../theme/layout-input.ts';
import { PrerenderedParts } from '../theme/prerender.ts';
import { enforceUrlPolicy } from '../url-policy.ts';
import { enforceAirGap } from './air-gap.ts';
import { apiPageOptions, withSiteServers } from './api-page.ts';
import { outlineContent } from './headings.ts';
import { type FragmentLink, isExternal, LinkResolver, type LinkTargets } from './links.ts';

export interface RenderedPage {
  output: string;
  html: string;
  /** The page as Markdown: its .md copy and its part of llms-full.txt. */
  markdown: string;
  search: Omit<SearchDocument, 'id'>;
  warnings: SourceProblem[];
  /** Every element id of the page, and the links of the page that name an anchor. */
  ids: string[];
  fragmentLinks: FragmentLink[];
  /** The repository's static files the page links or embeds. */
  assets: string[];
  /** Classes authors wrote on the page, for the site's Tailwind CSS. */
  classes: string[];
  /** The page has typeset math: the export ships KaTeX's stylesheet and fonts. */
  math: boolean;
  /** The page has diagrams: the export ships Mermaid. */
  diagrams: boolean;
}

/**
 * Renders pages of one site: source → mdast → hast (components, snippets, code) → layout → HTML.
 * One instance per render worker; it holds what every page shares (link targets, snippet cache).
 */
export class PageRenderer {
  private readonly site: SiteModel;
  private readonly options: ExportOptions;
  private readonly budgets: ExportBudgets;
  private readonly repo: DocsRepository;
  private readonly snippets: SnippetResolver;
  private readonly targets: LinkTargets;
  private readonly sectionSizes: number[];
  private readonly layoutParts = new PrerenderedParts();

  constructor(site: SiteModel, options: ExportOptions) {
    this.site = site;
    this.options = options;
    this.budgets = budgetsOf(options);
    this.repo = DocsRepository.open(site.root);
    this.snippets = new SnippetResolver(this.repo, this.budgets, site.config.variables);
    this.targets = linkTargets(site);
    this.sectionSizes = listedPagesPerSection(site);
  }

  async render(pageIndex: number): Promise<RenderedPage> {
    const page = this.site.pages[pageIndex] as PageSpec;
    try {
      return await this.renderPage(page, pageIndex, page.source ?? this.site.config.configFile);
    } catch (error) {
      // The budgets bound nesting before anything recurses; this names the file if one was missed.
      if (isStackOverflow(error)) {
        const file = page.source ?? page.operation?.file ?? this.site.config.configFile;
        throw ExportError.at({ file }, 'content nested too deep to be rendered');
      }
      throw error;
    }
  }

  private titlesByOutput?: Map<string, string>;
  private apiPage?: ApiPageOptions;
  /** Page titles by output path, for components that name a page (`<Mention page>`). */
  private titles(): Map<string, string> {
    this.titlesByOutput ??= new Map(this.site.pages.map((p) => [p.output, p.title]));
    return this.titlesByOutput;
  }

  private async renderPage(page: PageSpec, pageIndex: number, file: string): Promise<RenderedPage> {
    const warnings: SourceProblem[] = [];
    const warn = (message: string) => {
      const line = /^line (\d+): /.exec(message);
      warnings.push(
        line ? { file, line: Number(line[1]), message: message.slice(line[0].length) } : { file, message },
      );
    };
    const links = new LinkResolver(this.targets, page.output, page.source, (href) =>
      warn(`broken link: ${href}`),
    );
    // A caller that knows the line of the link passes its own warn, which prefixes it.
    const brokenTo = (report: (message: string) => void) => (href: string) => report(`broken link: ${href}`);
    const ctx: RenderContext = {
      resolveHref: (href, report) => links.resolveHref(href, report && brokenTo(report)),
      resolveAsset: (src, report) => links.resolveAsset(src, report && brokenTo(report)),
      warn,
      codeBlock,
      icon: (name, options) => {
        const element = iconElement(name, {
          library: options?.library ?? this.site.config.iconLibrary,
          className: options?.className,
        });
        if (!element) warn(`unknown icon "${name}"`);
        return element;
      },
      iconLibrary: this.site.config.iconLibrary,
      deployment: this.options.deployment,
      variations: this.site.config.variations,
      pageTitle: (href) => {
        let broken = false;
        const resolved = links.resolveHref(href, () => {
          broken = true;
        });
        if (broken || isExternal(resolved)) return undefined;
        return this.titles().get(posix.join(posix.dirname(page.output), resolved.split('#')[0] ?? ''));
      },
    };

    const content: ElementContent[] = [];
    /** Content held to the URL policy as it was converted (markdown/to-hast.ts). */
    const heldToUrlPolicy = new Set<ElementContent>();
    let markdownBody = '';
    if (page.source) {
      const text = readPageSource(this.repo, page.source, this.budgets.pageSourceBytes);
      const body = replaceVariables(splitFrontmatter(text, page.source).body, this.site.config.variables);
      const tree = this.snippets.expand(parseBody(body, page.source, this.budgets), page.source, warn);
      const converted = mdastToHast(tree, ctx, page.source).children as ElementContent[];
      for (const node of converted) heldToUrlPolicy.add(node);
      content.push(...converted);
      markdownBody = body.replace(/^\s*(import|export)\s.*$/gm, '').trim();
    }
    if (page.operation) {
      const rendered = await this.operation(page, ctx);
      content.push(...rendered.content);
      markdownBody = [markdownBody, rendered.markdown].filter(Boolean).join('\n\n');
    }

    const root: Root = { type: 'root', children: content };
    const outline = outlineContent(root);
    const toc = outline.toc;
    if (this.options.deployment === 'air-gapped') enforceAirGap(root, warn);
    const document = renderLayout({
      site: this.site,
      pageIndex,
      content: root.children as ElementContent[],
      toc,
      options: this.options,
      resolveHref: links.resolveHref,
      resolveAsset: links.resolveAsset,
      warn,
      parts: this.layoutParts,
      math: outline.math,
      diagrams: outline.diagrams,
      sectionSizes: this.sectionSizes,
    });
    if (this.options.deployment === 'air-gapped') enforceAirGap({ type: 'root', children: [document] }, warn);
    // Content was held to the URL policy as it was converted; this covers everything else on the
    // page (layout, API reference, air-gap replacements), whatever produced it.
    enforceUrlPolicy(document, warn, heldToUrlPolicy);
    // Raw nodes are code blocks highlighted to HTML at build time (markdown/highlight.ts); authored
    // raw HTML never gets here (MDX drops it, .md pages parse and sanitize it first).
    const html = `<!doctype html>\n${toHtml(document, { allowDangerousHtml: true })}\n`;
    this.checkHtmlSize(page.source ?? page.operation?.file ?? file, html);
    const header = [`# ${page.title}`, ...(page.description ? [`> ${page.description}`] : [])].join('\n\n');
    return {
      output: page.output,
      html,
      markdown: `${header}\n\n${markdownBody}\n`,
      search: {
        href: page.output,
        title: page.title,
        section: page.breadcrumb.join(' › '),
        headings: toc.map((t) => ({ id: t.id, text: t.text, level: t.depth })),
        text: outline.text,
        sectionTexts: outline.sectionTexts,
      },
      warnings,
      ids: outline.ids,
      fragmentLinks: links.fragmentLinks,
      assets: [...links.usedAssets],
      classes: outline.classes,
      math: outline.math,
      diagrams: outline.diagrams,
    };
  }

  /** The last of the page budgets: the rest bound what goes into a page, this what comes out. */
  private checkHtmlSize(file: string, html: string): void {
    const limit = this.budgets.pageHtmlBytes;
    // A character is at least one byte: counting bytes is needed only when the length is close.
    if (html.length * 3 <= limit) return;
    const bytes = Buffer.byteLength(html);
    if (bytes > limit)
      throw overBudget(
        { file },
        `the page's HTML is ${formatBytes(bytes)}, past the limit of ${formatBytes(limit)}`,
        'pageHtmlBytes',
      );
  }

  /** An OpenAPI operation's reference content; a notice (and a warning) when it cannot be had offline. */
  private async operation(
    page: PageSpec,
    ctx: RenderContext,
  ): Promise<{ content: ElementContent[]; markdown: string }> {
    const operation = page.operation;
    if (!operation) return { content: [], markdown: '' };
    const label = `${operation.method} ${operation.path}`;
    const unavailable = (reason: string) => {
      ctx.warn(`API reference for ${label} not rendered: ${reason}`);
      const notice: Element = h(
        'div',
        { className: ['ds-callout', 'ds-callout-warning', 'ds-api-unavailable'], role: 'note' },
        [
          h('p', [h('strong', 'API reference unavailable in this export. '), reason]),
          h('p', [h('code', label)]),
        ],
      );
      return { content: [notice], markdown: `> API reference unavailable in this export: ${reason}` };
    };
    if (!operation.file) {
      return unavailable(
        `the OpenAPI document ${shownUrl(operation.source)} is remote and this export fetches nothing; map it to a local copy with the openapi override option, or let the export fetch it (--fetch-remote-specs).`,
      );
    }
    try {
      // Loading the site fetched remote documents; a render thread reads the copy it kept.
      const spec = await loadSpecSource(operation.file, {
        repoRoot: this.site.root,
        maxDepth: this.budgets.documentDepth,
        remote: this.options.remoteSpecs,
      });
      const found = findOperation(spec, operation.method, operation.path);
      if (!found) return unavailable(`${operation.file} has no operation ${label}.`);
      const op = withSiteServers(found, this.site);
      // The page and its Markdown copy each get the operation's budget.
      const budget = () => new OperationBudget(spec.file, op, this.budgets);
      this.apiPage ??= apiPageOptions(this.site, this.options);
      return {
        content: renderOperation(op, ctx, budget(), this.apiPage),
        markdown: operationMarkdown(op, budget(), this.apiPage.samples),
      };
    } catch (error) {
      if (error instanceof ExportError) throw error;
      // $ref chains are followed by recursion; documentDepth bounds nesting within a file only.
      if (isStackOverflow(error))
        throw ExportError.at({ file: operation.file }, `${label}: schemas nested too deep to be rendered`);
      return unavailable((error as Error).message);
    }
  }
}

/** Every target a link may reach: rendered pages, redirects, static files. */
export function linkTargets(site: SiteModel): LinkTargets {
  const pages = new Map<string, string>();
  for (const page of site.pages) if (page.rendered) pages.set(page.route, page.output);
  const redirects = new Map<string, string>();
  for (const redirect of site.config.redirects) {
    redirects.set(routeOf(redirect.source), redirect.destination);
  }
  return { pages, redirects, assets: new Set(site.assets) };
}
