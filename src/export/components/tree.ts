import type { Element } from 'hast';
import type { Component } from '../render-context.ts';
import { iconElement } from './icons.ts';
import { boolProp, contentOf, el, isElement, stringProp } from './shared.ts';

/**
 * `<Tree>`, `<Tree.Folder name defaultOpen openable>`, `<Tree.File name>`: nested lists, folders as
 * `<details>` so they open and close with the keyboard and without JavaScript.
 */

function glyph(name: string, fallback: string) {
  return (
    iconElement(name, { library: 'lucide', className: 'ds-tree-glyph' }) ?? {
      type: 'text' as const,
      value: fallback,
    }
  );
}

/** Folder and file items are `<li>`s; anything else placed in a tree gets an item of its own. */
function items(children: Parameters<Component>[0]['children']): Element[] {
  return contentOf(children).map((child) =>
    isElement(child) && child.tagName === 'li' ? child : el('li', { className: ['ds-tree-other'] }, [child]),
  );
}

const Tree: Component = (input) => [el('ul', { className: ['ds-tree'] }, items(input.children))];

const Folder: Component = (input) => {
  const name = stringProp(input, 'name');
  if (!name) input.ctx.warn(`<${input.name}> has no name`);
  const label = [
    glyph('folder', '📁'),
    el('span', { className: ['ds-tree-name'] }, [{ type: 'text', value: name ?? '' }]),
  ];
  const list = el('ul', {}, items(input.children));
  if (!boolProp(input, 'openable', true)) {
    return [
      el('li', { className: ['ds-tree-folder'] }, [
        el('span', { className: ['ds-tree-label'] }, label),
        list,
      ]),
    ];
  }
  return [
    el('li', { className: ['ds-tree-folder'] }, [
      el('details', { open: boolProp(input, 'defaultOpen') }, [
        el('summary', { className: ['ds-tree-label'] }, label),
        list,
      ]),
    ]),
  ];
};

const File: Component = (input) => {
  const name = stringProp(input, 'name');
  if (!name) input.ctx.warn(`<${input.name}> has no name`);
  return [
    el(
      'li',
      { className: ['ds-tree-file', ...(boolProp(input, 'highlight') ? ['ds-tree-highlight'] : [])] },
      [
        el('span', { className: ['ds-tree-label'] }, [
          glyph('file', '📄'),
          el('span', { className: ['ds-tree-name'] }, [{ type: 'text', value: name ?? '' }]),
        ]),
      ],
    ),
  ];
};

/** `<FileTree>` is the name some of the format's pages use for Tree. */
export const treeComponents: Record<string, Component> = {
  Tree,
  'Tree.Folder': Folder,
  'Tree.File': File,
  FileTree: Tree,
  'FileTree.Folder': Folder,
  'FileTree.File': File,
};
