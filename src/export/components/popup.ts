import type { Component } from '../render-context.ts';
import { blockTag, contentOf, el, hasClass, isElement, widgetId } from './shared.ts';

/**
 * `<Popup>` with `<PopupTrigger>` and `<PopupContent>`: floating content that a click on the
 * trigger opens. Built on the browser's popover (`popovertarget`), so it opens, closes on Escape
 * or a click outside, and is announced, with no script; components.js only places it next to its
 * trigger.
 */

const PopupTrigger: Component = (input) => [
  el('button', { type: 'button', className: ['ds-popup-trigger'] }, input.children),
];

const PopupContent: Component = (input) => [
  el(blockTag(input, 'div'), { className: ['ds-popup-content'], popover: 'auto' }, input.children),
];

const Popup: Component = (input) => {
  // Parts written on one line reach the popup inside a paragraph.
  const parts = contentOf(input.children).flatMap((node) =>
    isElement(node) && node.tagName === 'p' ? contentOf(node.children) : [node],
  );
  const trigger = parts.find((node) => hasClass(node, 'ds-popup-trigger'));
  const content = parts.find((node) => hasClass(node, 'ds-popup-content'));
  if (!trigger || !content) {
    input.ctx.warn('<Popup> needs a <PopupTrigger> and a <PopupContent>: rendered its content only');
    return input.children;
  }
  const id = widgetId(input.ctx, 'popup');
  content.properties.id = id;
  trigger.properties.popoverTarget = id;
  trigger.properties.ariaHasPopup = 'dialog';
  return [el(input.inline ? 'span' : 'div', { className: ['ds-popup'] }, [trigger, content])];
};

export const popupComponents: Record<string, Component> = { Popup, PopupTrigger, PopupContent };
