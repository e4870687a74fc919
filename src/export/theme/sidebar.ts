import type { Element, ElementContent } from 'hast';
import { h } from 'hastscript';
import { relativeUrl } from '../pages/links.ts';
import type { SiteModel, SiteNavItem } from '../source/load-site.ts';
import {
  folderOf,
  isElement,
  isLazy,
  type LayoutInput,
  navHref,
  navIcon,
  pageOf,
  prerenderPolicy,
} from './layout-input.ts';
import { prerender } from './prerender.ts';

/**
 * The navigation of the page's section. Links are relative to the page's folder, so an item that
 * does not hold the page is the same on every page of the folder: it is built and serialized once
 * per folder (prerender.ts) and reused. Only the path down to the page (its open groups and the
 * current link) is built for each page. On a large site the sidebar is a third of every page.
 */
export function sidebar(input: LayoutInput, before: ElementContent[] = []): Element {
  const { site } = input;
  const page = pageOf(input);
  const section = site.sections[page.section];
  const nav = navigationOf(site);
  const holding = nav.groupsHolding.get(input.pageIndex) ?? NONE;
  const lazy = isLazy(input);
  const onPath = (item: SiteNavItem): boolean =>
    item.kind === 'page' ? item.page === input.pageIndex : item.kind === 'group' && holding.has(item);
  const policy = prerenderPolicy(input);
  // Nothing in an item off the path depends on the page but its folder (and the section's lazy mode, fixed).
  const reuse = input.parts.scope(`sidebar\0${folderOf(page.output)}`);

  const renderItems = (items: SiteNavItem[], depth: number): ElementContent[] => {
    const rendered: ElementContent[] = [];
    let run = ''; // prerendered items in a row go in as one raw node
    items.forEach((item, index) => {
      if (!onPath(item)) {
        run += reuse(item, () => ({
          type: 'raw',
          value: renderItem(item, index, depth)
            .map((element) => prerender(element as Element, policy).value)
            .join(''),
        })).value;
        return;
      }
      if (run) rendered.push({ type: 'raw', value: run });
      run = '';
      rendered.push(...renderItem(item, index, depth));
    });
    if (run) rendered.push({ type: 'raw', value: run });
    return rendered;
  };

  const renderItem = (item: SiteNavItem, index: number, depth: number): ElementContent[] => {
    if (item.kind === 'page') {
      const target = site.pages[item.page];
      if (!target?.listed || !target.rendered) return [];
      const label = target.sidebarTitle ?? target.title;
      const href = target.externalUrl ?? relativeUrl(page.output, target.output);
      const current = item.page === input.pageIndex;
      return [
        h('li', [
          h('a', { href, ...(current ? { ariaCurrent: 'page', className: ['active'] } : {}) }, [
            ...(target.icon ? [navIcon(input, target.icon)].filter(isElement) : []),
            ...(target.operation
              ? [
                  h(
                    'span',
                    {
                      className: ['ds-nav-method', `ds-nav-method-${target.operation.method.toLowerCase()}`],
                    },
                    target.operation.method,
                  ),
                ]
              : []),
            label,
          ]),
        ]),
      ];
    }
    if (item.kind === 'link')
      return [h('li', [h('a', { href: navHref(input, item.href), className: ['ds-nav-link'] }, item.label)])];
    const open = onPath(item) || item.expanded || depth === 0;
    const heading = [
      ...(item.icon ? [navIcon(input, item.icon)].filter(isElement) : []),
      item.label,
      ...(item.tag ? [h('span', { className: ['ds-nav-tag'] }, item.tag)] : []),
    ];
    if (depth === 0) {
      if (lazy && !onPath(item)) {
        // Kept minimal: on a large site this stub repeats in every page for every group.
        return [h('li', [h('details', { dataG: String(index) }, [h('summary', heading)])])];
      }
      return [
        h('li', { className: ['ds-nav-group'] }, [
          h('p', { className: ['ds-nav-group-title'] }, heading),
          h('ul', renderItems(item.items, depth + 1)),
        ]),
      ];
    }
    return [
      h('li', [h('details', { open }, [h('summary', heading), h('ul', renderItems(item.items, depth + 1))])]),
    ];
  };

  return h('nav', { id: 'ds-sidebar', className: ['ds-sidebar'], ariaLabel: 'Documentation' }, [
    ...before,
    h('ul', section ? renderItems(section.items, 0) : []),
  ]);
}

const NONE: ReadonlySet<SiteNavItem> = new Set();

/** Per site, found in one walk of the navigation: the groups that hold each page. */
interface Navigation {
  groupsHolding: Map<number, Set<SiteNavItem>>;
}

const navigations = new WeakMap<SiteModel, Navigation>();

function navigationOf(site: SiteModel): Navigation {
  let navigation = navigations.get(site);
  if (navigation) return navigation;
  const groupsHolding = new Map<number, Set<SiteNavItem>>();
  const walk = (items: SiteNavItem[], groups: SiteNavItem[]) => {
    for (const item of items) {
      if (item.kind === 'group') walk(item.items, [...groups, item]);
      if (item.kind !== 'page') continue;
      const holding = groupsHolding.get(item.page) ?? new Set();
      for (const group of groups) holding.add(group);
      groupsHolding.set(item.page, holding);
    }
  };
  for (const section of site.sections) walk(section.items, []);
  navigation = { groupsHolding };
  navigations.set(site, navigation);
  return navigation;
}
