import type { Element } from 'hast';
import { h } from 'hastscript';
import { inlineMarkdown } from '../markdown/inline-markdown.ts';
import { markdownPath } from '../output/site-files.ts';
import { relativeUrl } from '../pages/links.ts';
import type { SiteNavItem } from '../source/load-site.ts';
import { chromeOf, type LayoutInput, navHref, pageOf } from './layout-input.ts';

/**
 * What docs.json adds around a page's content: the site banner (`banner`) and the page actions
 * of `contextual` that work without the platform (copy the page as Markdown, view it).
 */

export function banner(input: LayoutInput): Element {
  const settings = chromeOf(input).banner;
  if (!settings) return h('div');
  // `banner.content` is inline Markdown: links (resolved as site links), bold, italic, code.
  const content = inlineMarkdown(settings.content, (href) => navHref(input, href));
  const color = settings.color
    ? { style: `--ds-banner-bg:${settings.color.light};--ds-banner-bg-dark:${settings.color.dark}` }
    : {};
  return h(
    'div',
    {
      className: ['ds-banner', `ds-banner-${settings.type}`],
      role: 'region',
      ariaLabel: 'Announcement',
      ...color,
    },
    [
      h('p', { className: ['ds-banner-content'] }, content),
      ...(settings.dismissible
        ? [h('button', { type: 'button', className: ['ds-banner-dismiss'], ariaLabel: 'Dismiss' }, '×')]
        : []),
    ],
  );
}

/** `contextual.options` "copy" and "view": the page's Markdown copy, to copy or to open. */
export function pageActions(input: LayoutInput): Element[] {
  const options = input.site.config.contextual;
  if (options.length === 0) return [];
  const page = pageOf(input);
  const markdown = relativeUrl(page.output, markdownPath(page.output));
  return [
    h(
      'div',
      { className: ['ds-page-actions'] },
      options.map((option) =>
        option === 'copy'
          ? h('button', { type: 'button', className: ['ds-copy-page'], dataSrc: markdown }, 'Copy page')
          : h('a', { className: ['ds-view-markdown'], href: markdown }, 'View as Markdown'),
      ),
    ),
  ];
}

/** `directory`: a group's root page lists the group's other entries, as cards or as an accordion list. */
export function directoryListing(input: LayoutInput): Element[] {
  const page = pageOf(input);
  if (!page.directory) return [];
  const { site } = input;
  const link = (index: number): Element | undefined => {
    const target = site.pages[index];
    if (!target?.listed || !target.rendered) return undefined;
    return h(
      'a',
      { href: target.externalUrl ?? relativeUrl(page.output, target.output) },
      target.sidebarTitle ?? target.title,
    );
  };
  const firstPage = (items: SiteNavItem[]): number | undefined => {
    for (const item of items) {
      if (item.kind === 'page') return item.page;
      if (item.kind === 'group') {
        const inner = firstPage(item.items);
        if (inner !== undefined) return inner;
      }
    }
    return undefined;
  };
  const entries = page.directory.items;
  if (page.directory.style === 'card') {
    const cards = entries.flatMap((item): Element[] => {
      const index =
        item.kind === 'page' ? item.page : item.kind === 'group' ? firstPage(item.items) : undefined;
      const target = index === undefined ? undefined : site.pages[index];
      if (!target?.listed || !target.rendered) return [];
      const title = item.kind === 'group' ? item.label : (target.sidebarTitle ?? target.title);
      const description = item.kind === 'page' ? target.description : undefined;
      return [
        h('a', { className: ['ds-card', 'ds-card-linked'], href: relativeUrl(page.output, target.output) }, [
          h('span', { className: ['ds-card-text'] }, [
            h('span', { className: ['ds-card-title'] }, title),
            ...(description ? [h('span', { className: ['ds-card-content'] }, description)] : []),
          ]),
        ]),
      ];
    });
    return cards.length > 0
      ? [h('nav', { className: ['ds-directory', 'ds-columns'], ariaLabel: 'In this section' }, cards)]
      : [];
  }
  const list = (items: SiteNavItem[]): Element[] =>
    items.flatMap((item): Element[] => {
      if (item.kind === 'page') {
        const a = link(item.page);
        return a ? [h('li', [a])] : [];
      }
      if (item.kind === 'group')
        return [
          h('li', [
            h('details', { className: ['ds-accordion'] }, [
              h('summary', { className: ['ds-accordion-summary'] }, item.label),
              h('ul', list(item.items)),
            ]),
          ]),
        ];
      return [];
    });
  const items = list(entries);
  return items.length > 0
    ? [h('nav', { className: ['ds-directory'], ariaLabel: 'In this section' }, [h('ul', items)])]
    : [];
}
