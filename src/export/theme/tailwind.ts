import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import postcss from 'postcss';
import { compile } from 'tailwindcss';
import { sanitizeStylesheet } from '../assets/stylesheet-policy.ts';

/**
 * Tailwind utility classes authors write in MDX and HTML (`className="hidden dark:block"`, a
 * hero's `flex gap-6 md:grid-cols-2`, `w-[42rem]`), as the platform styles them: the CSS for
 * exactly the classes the site uses, generated at build time by Tailwind's own compiler (no CDN,
 * no runtime), with `dark:` following the site's theme switch.
 *
 * The utilities are scoped to the article (`.ds-article .hidden`), so they apply to authored
 * content only and win over the theme's element styles there, as they would on the platform.
 * Class names are authored input: arbitrary values can carry URLs (`bg-[url(…)]`), so the CSS
 * goes through the stylesheet policy like the repository's own stylesheets.
 */

const require = createRequire(import.meta.url);
const SCOPE = '.ds-article';

const INPUT = `@import "tailwindcss/theme.css";
@tailwind utilities;
@custom-variant dark (&:where([data-theme=dark], [data-theme=dark] *));
`;

export async function tailwindCss(
  classes: Iterable<string>,
  policy: { airGapped: boolean; published: ReadonlySet<string> },
  warn: (message: string) => void,
): Promise<string> {
  const candidates = [...classes];
  if (candidates.length === 0) return '';
  const compiler = await compile(INPUT, { base: packageDir(), loadStylesheet });
  const generated = compiler.build(candidates);
  if (!/\.[^\s{]+\s*\{/.test(generated)) return ''; // no class of the site is a utility
  const outcome = sanitizeStylesheet(scoped(generated), { file: '_docsnap/site.css', ...policy });
  if ('refused' in outcome) {
    warn(`Tailwind classes: the generated CSS was refused (${outcome.refused}); the classes have no style`);
    return '';
  }
  for (const message of outcome.warnings) warn(`Tailwind classes: ${message}`);
  return `/* Tailwind utilities the site's pages use */\n${outcome.css}`;
}

/** Every rule's selectors inside the article; `:root` (the theme's variables) and at-rule internals left as they are. */
function scoped(css: string): string {
  const root = postcss.parse(css);
  root.walkRules((rule) => {
    const parent = rule.parent;
    if (parent?.type === 'atrule' && /keyframes$/i.test((parent as postcss.AtRule).name)) return;
    rule.selectors = rule.selectors.map((selector) =>
      /^(?::root|:host|html|\*|::backdrop)/.test(selector.trim()) ? selector : `${SCOPE} ${selector}`,
    );
  });
  return root.toString();
}

function packageDir(): string {
  return dirname(require.resolve('tailwindcss/package.json'));
}

/** Tailwind's own stylesheets, read from the installed package; nothing else may be imported. */
async function loadStylesheet(
  id: string,
  base: string,
): Promise<{ path: string; base: string; content: string }> {
  const name = id.replace(/^tailwindcss\//, '');
  if (!/^(?:theme|utilities|preflight)\.css$/.test(name))
    throw new Error(`Tailwind import ${id} is not available`);
  const path = join(packageDir(), name);
  return { path, base, content: readFileSync(path, 'utf8') };
}
