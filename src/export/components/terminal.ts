import type { ElementContent } from 'hast';
import { CODE_BLOCK_CLASS, type Component } from '../render-context.ts';
import { boolProp, el, stringProp, textContent } from './shared.ts';

/**
 * `<Terminal title theme height maxHeight showLineNumbers copyable interactive>`: a session's text
 * in a terminal window (`dark`, `light`, `matrix` or `retro`), commands (`$ …`) set apart from
 * their output. The text inside is a code block's, so copying and line numbers work as for code.
 */

const THEMES = new Set(['dark', 'light', 'matrix', 'retro']);
/** Plain CSS lengths only: the value lands in a style attribute. */
const LENGTH = /^\d{1,5}(?:\.\d{1,3})?(?:px|rem|em|vh|%)$/;

/** The text of the rendered children, a line per source line, paragraphs apart as written. */
function sessionText(children: readonly ElementContent[]): string {
  return children
    .filter((node) => !(node.type === 'text' && !node.value.trim()))
    .map(textContent)
    .join('\n\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function lengthProp(input: Parameters<Component>[0], name: string): string | undefined {
  const value = stringProp(input, name)?.trim();
  if (!value) return undefined;
  if (LENGTH.test(value)) return value;
  input.ctx.warn(`<Terminal> ${name}="${value}" is not a CSS length such as 300px or 20rem: ignored`);
  return undefined;
}

const Terminal: Component = (input) => {
  const theme = stringProp(input, 'theme') ?? 'dark';
  if (!THEMES.has(theme))
    input.ctx.warn(`<Terminal> theme="${theme}" is not one of ${[...THEMES].join(', ')}: dark is used`);
  const title = stringProp(input, 'title');
  const height = lengthProp(input, 'height');
  const maxHeight = lengthProp(input, 'maxHeight');
  const lines = sessionText(input.children).split('\n');
  const code = el(
    'code',
    {},
    lines.flatMap((line, index) => [
      ...(index > 0 ? [{ type: 'text', value: '\n' } as const] : []),
      el('span', { className: ['line', ...(/^\s*[$#>] /.test(line) ? ['ds-terminal-command'] : [])] }, [
        { type: 'text', value: line },
      ]),
    ]),
  );
  const style = [height ? `height:${height}` : '', maxHeight ? `max-height:${maxHeight}` : '']
    .filter(Boolean)
    .join(';');
  return [
    el('div', { className: ['ds-terminal', `ds-terminal-${THEMES.has(theme) ? theme : 'dark'}`] }, [
      el('div', { className: ['ds-terminal-bar'] }, [
        el('span', { className: ['ds-terminal-dots'], ariaHidden: 'true' }),
        ...(title
          ? [el('span', { className: ['ds-terminal-title'] }, [{ type: 'text', value: title }])]
          : []),
      ]),
      el(
        'div',
        {
          className: [
            CODE_BLOCK_CLASS,
            ...(boolProp(input, 'showLineNumbers') ? ['ds-code-lines'] : []),
            ...(boolProp(input, 'copyable', true) ? [] : ['ds-no-copy']),
          ],
          dataLanguage: 'terminal',
        },
        [el('pre', { tabIndex: 0, ...(style ? { style } : {}) }, [code])],
      ),
    ]),
  ];
};

export const terminalComponents: Record<string, Component> = { Terminal };
