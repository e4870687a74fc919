import type { ElementContent } from 'hast';
import { h } from 'hastscript';
import { relativeUrl } from '../pages/links.ts';
import { languageTag } from '../source/languages.ts';
import type { PageSpec, SiteModel } from '../source/load-site.ts';
import { isElement, type LayoutInput, navIcon, pageOf } from './layout-input.ts';
import { counterpart, type Switcher, switchers } from './scopes.ts';
import { uiText } from './strings.ts';

/**
 * The switchers at the top of the sidebar (languages, versions, products, dropdowns): a list of
 * links that works without script. Switching language or version keeps the reader on the same
 * page where the other side has it, else on that side's first page.
 */
export function switcherMenus(input: LayoutInput): ElementContent[] {
  const { site } = input;
  const page = pageOf(input);
  const menus = switchers(site, page.section);
  if (menus.length === 0) return [];
  const text = uiText(input);
  return [
    h(
      'div',
      { className: ['ds-switchers'] },
      menus.map((menu) =>
        h('details', { className: ['ds-switcher', `ds-switcher-${menu.kind}`] }, [
          h('summary', { ariaLabel: `${text[menu.kind]}: ${menu.current.label}` }, [
            ...(menu.current.icon ? [navIcon(input, menu.current.icon)].filter(isElement) : []),
            menu.current.label,
          ]),
          h(
            'ul',
            menu.options.map((option) => {
              const target = site.pages[destination(site, page, menu, option.section)];
              const language = option.choice.code ? languageTag(option.choice.code) : undefined;
              return h('li', [
                h(
                  'a',
                  {
                    href: target ? relativeUrl(page.output, target.output) : '#',
                    ...(language ? { lang: language, hrefLang: language } : {}),
                    ...(option.current ? { ariaCurrent: 'true', className: ['active'] } : {}),
                  },
                  [
                    option.choice.label,
                    ...(option.choice.tag
                      ? [h('span', { className: ['ds-nav-tag'] }, option.choice.tag)]
                      : []),
                  ],
                ),
              ]);
            }),
          ),
        ]),
      ),
    ),
  ];
}

/** Where an option leads from this page: the same page on the other side (languages, versions), else its first page. */
function destination(site: SiteModel, page: PageSpec, menu: Switcher, section: number): number {
  const keepsPage = menu.kind === 'language' || menu.kind === 'version';
  return (
    (keepsPage ? counterpart(site, page, section, menu.depth) : undefined) ??
    site.sections[section]?.firstPage ??
    0
  );
}

/** The same page in each language the site has it in, itself included, for `hreflang` alternates. */
export function languageAlternates(
  site: SiteModel,
  pageIndex: number,
): Array<{ lang: string; page: PageSpec }> {
  const page = site.pages[pageIndex];
  if (!page) return [];
  const menu = switchers(site, page.section).find((candidate) => candidate.kind === 'language');
  if (!menu) return [];
  return menu.options.flatMap((option) => {
    const other = option.current ? pageIndex : counterpart(site, page, option.section, menu.depth);
    const target = other === undefined ? undefined : site.pages[other];
    return target?.rendered && option.choice.code
      ? [{ lang: languageTag(option.choice.code), page: target }]
      : [];
  });
}
