import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { componentAssets } from '../../../src/export/components/index.ts';

const css = readFileSync(fileURLToPath(componentAssets.css[0] as URL), 'utf8');
const js = readFileSync(fileURLToPath(componentAssets.js[0] as URL), 'utf8');

describe('components.js', () => {
  it('is a classic script of a few KB, not a module', () => {
    expect(() => new Script(js)).not.toThrow();
    expect(js).not.toMatch(/^\s*(import|export)\s/m);
    expect(js.trim()).toMatch(/^\/\*[\s\S]*?\*\/\s*\(\(\) => \{[\s\S]*\}\)\(\);$/);
    // A few KB: tabs, copy buttons, tooltips, prompts, the view and variation choosers and popup
    // placement, unminified with their comments.
    expect(Buffer.byteLength(js)).toBeLessThan(14 * 1024);
  });

  it('loads nothing but the page’s own Markdown copy (contextual "copy", a relative URL the layout writes)', () => {
    expect(js).not.toMatch(/XMLHttpRequest|import\(|https?:\/\//);
    expect(js.match(/fetch\([^)]*\)/g)).toEqual(['fetch(button.dataset.src)']);
  });
});

describe('components.css', () => {
  it('loads nothing and defines no theme variables of its own', () => {
    expect(css).not.toMatch(/url\(|@import|@font-face/);
    for (const name of ['primary', 'bg', 'fg', 'muted', 'border', 'surface', 'code-bg', 'radius']) {
      expect(css, name).not.toMatch(new RegExp(`--ds-${name}\\s*:`));
    }
  });

  it('is well formed and scoped to ds- classes', () => {
    const withoutComments = css.replace(/\/\*[\s\S]*?\*\//g, '');
    expect(withoutComments.split('{').length).toBe(withoutComments.split('}').length);
    const classNames = new Set(withoutComments.match(/\.[a-z][\w-]*(?=[^{}]*\{)/g));
    for (const name of classNames) expect(name, name).toMatch(/^\.ds-/);
  });

  it('hides inactive tab panels and switches Expandable labels with the open state', () => {
    expect(css).toMatch(/\.ds-tabpanel\[hidden\]\s*\{\s*display:\s*none;?\s*\}/);
    expect(css).toMatch(
      /\.ds-expandable\[open\] \.ds-expandable-show,\s*\.ds-expandable:not\(\[open\]\) \.ds-expandable-hide\s*\{\s*display:\s*none/,
    );
  });
});
