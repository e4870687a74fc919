import type { Element, ElementContent } from 'hast';
import { toHtml } from 'hast-util-to-html';
import { h } from 'hastscript';
import { iconElement, renderComponent } from '../../../src/export/components/index.ts';
import type {
  ComponentProps,
  DeploymentKind,
  IconLibrary,
  RenderContext,
} from '../../../src/export/render-context.ts';

/** A RenderContext as the page renderer builds one per page, recording warnings and resolved links. */
export interface FakeContext extends RenderContext {
  warnings: string[];
}

export function fakeContext(
  options: { deployment?: DeploymentKind; iconLibrary?: IconLibrary } = {},
): FakeContext {
  const iconLibrary = options.iconLibrary ?? 'fontawesome';
  const warnings: string[] = [];
  return {
    warnings,
    iconLibrary,
    deployment: options.deployment ?? 'cloud',
    // Pages live one folder deep in these tests, so site paths gain a "../"; other origins stay as they are.
    resolveHref: (href) => (/^[a-z]+:|^\/\//i.test(href) ? href : `../${href.replace(/^\//, '')}`),
    resolveAsset: (src) => `../files/${src.replace(/^\//, '')}`,
    warn: (message) => {
      warnings.push(message);
    },
    codeBlock: (code, language, meta) =>
      h('div', { className: ['ds-code'], dataLanguage: language, dataTitle: meta }, [
        h('pre', [h('code', { className: [`language-${language ?? 'text'}`] }, code)]),
      ]),
    icon(name, iconOptions) {
      const element = iconElement(name, {
        library: iconOptions?.library ?? iconLibrary,
        ...(iconOptions?.className ? { className: iconOptions.className } : {}),
      });
      if (!element) warnings.push(`unknown icon "${name}"`);
      return element;
    },
  };
}

export function text(value: string): ElementContent {
  return { type: 'text', value };
}

export function paragraph(value: string): Element {
  return h('p', value);
}

/** A code block the way the page renderer hands it over (src/export/render-context.ts). */
export function codeBlock(code: string, language?: string, title?: string): Element {
  return h('div', { className: ['ds-code'], dataLanguage: language, dataTitle: title }, [
    h('pre', [
      h('code', { className: [`hljs`, `language-${language}`] }, [h('span', { className: ['line'] }, code)]),
    ]),
  ]);
}

export function render(
  name: string,
  props: ComponentProps = {},
  children: ElementContent[] = [],
  options: { ctx?: FakeContext; inline?: boolean } = {},
): { html: string; nodes: ElementContent[]; ctx: FakeContext } {
  const ctx = options.ctx ?? fakeContext();
  const nodes = renderComponent({ name, props, children, inline: options.inline ?? false, ctx });
  return { html: toHtml({ type: 'root', children: nodes }), nodes, ctx };
}
