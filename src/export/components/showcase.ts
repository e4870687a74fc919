import type { ElementContent } from 'hast';
import type { Component } from '../render-context.ts';
import { blockTag, el, iconFromProps, linkHref, stringProp, textContent } from './shared.ts';

/**
 * Components of the format's reference that show content off: Tile (a preview in a patterned
 * frame, linking somewhere), Prompt (an AI prompt to copy), View (content per view, with a
 * switcher), Column (one column of Columns).
 */

/** `<Tile href title description>`: children in the preview area, title and description below; the whole tile links. */
const Tile: Component = (input) => {
  const raw = stringProp(input, 'href')?.trim();
  const href = raw ? linkHref(input, raw) : undefined;
  const title = stringProp(input, 'title');
  const description = stringProp(input, 'description');
  const tag = href ? 'a' : blockTag(input, 'div');
  return [
    el(tag, { className: ['ds-tile'], ...(href ? { href } : {}) }, [
      el(blockTag(input, 'div'), { className: ['ds-tile-preview'] }, input.children),
      ...(title ? [el('span', { className: ['ds-tile-title'] }, [{ type: 'text', value: title }])] : []),
      ...(description
        ? [el('span', { className: ['ds-tile-description'] }, [{ type: 'text', value: description }])]
        : []),
    ]),
  ];
};

/**
 * `<Prompt description icon actions>`: the prompt's text with a copy button (components.js). The
 * "cursor" action opens another application by a `cursor:` link, which a static site's URL
 * policy does not allow: it is left out with a warning.
 */
const Prompt: Component = (input) => {
  const description = stringProp(input, 'description');
  const actions = Array.isArray(input.props.actions) ? input.props.actions.map(String) : ['copy'];
  if (actions.includes('cursor'))
    input.ctx.warn('<Prompt> action "cursor" opens another application and is left out; "copy" is offered');
  const icon = iconFromProps(input, { className: 'ds-prompt-icon' });
  return [
    el('div', { className: ['ds-prompt'] }, [
      el('div', { className: ['ds-prompt-head'] }, [
        ...(icon ? [icon] : []),
        ...(description
          ? [el('span', { className: ['ds-prompt-description'] }, [{ type: 'text', value: description }])]
          : []),
        el('button', { type: 'button', className: ['ds-prompt-copy'] }, [
          { type: 'text', value: 'Copy prompt' },
        ]),
      ]),
      el('div', { className: ['ds-prompt-body'] }, input.children),
    ]),
  ];
};

/**
 * `<View title icon>`: content for one view (a language, a framework). Every view of the page is
 * in the HTML, each under its title; components.js turns the titles into one switcher and shows
 * the chosen view, remembered across pages.
 */
const View: Component = (input) => {
  const title = stringProp(input, 'title') ?? 'View';
  const icon = iconFromProps(input, { className: 'ds-view-icon' });
  return [
    el('section', { className: ['ds-view'], dataView: title }, [
      el('p', { className: ['ds-view-title'] }, [...(icon ? [icon] : []), { type: 'text', value: title }]),
      ...input.children,
    ]),
  ];
};

/** `<Column>` inside `<Columns>`: one cell of the grid. */
const Column: Component = (input) => [
  el(blockTag(input, 'div'), { className: ['ds-column'] }, input.children),
];

/**
 * `<GitHub.Repo repo="owner/name" variant="inset|flat">`: a card linking to the repository. The
 * platform fetches its description and counts from GitHub's API when the page loads; an export
 * makes no such call (it would load from another origin and go stale), so the card shows the
 * repository's name only.
 */
const GitHubRepo: Component = (input) => {
  const written = stringProp(input, 'repo')?.trim() ?? '';
  const slug = /^(?:https?:\/\/github\.com\/)?([\w.-]+\/[\w.-]+?)(?:\.git)?\/?$/i.exec(written)?.[1];
  if (!slug) {
    input.ctx.warn(`<GitHub.Repo> repo="${written}" is not owner/name or a github.com URL: left out`);
    return [];
  }
  const variant = stringProp(input, 'variant') === 'flat' ? 'flat' : 'inset';
  const icon = iconFromProps({ ...input, props: { icon: 'brands github' } }, { className: 'ds-github-icon' });
  return [
    el(
      'a',
      {
        className: ['ds-github-repo', `ds-github-repo-${variant}`],
        href: `https://github.com/${slug}`,
        rel: ['noopener'],
      },
      [
        ...(icon ? [icon] : []),
        el('span', { className: ['ds-github-name'] }, [{ type: 'text', value: slug }]),
      ],
    ),
  ];
};

/** Text of a prompt, as it will be copied (for tests and the Markdown copy alike). */
export function promptText(children: readonly ElementContent[]): string {
  return children.map(textContent).join('\n').trim();
}

export const showcaseComponents: Record<string, Component> = {
  Tile,
  Prompt,
  View,
  Column,
  'GitHub.Repo': GitHubRepo,
};
