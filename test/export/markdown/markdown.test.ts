import type { Root } from 'hast';
import { toHtml } from 'hast-util-to-html';
import { describe, expect, it } from 'vitest';
import { ExportError } from '../../../src/export/errors.ts';
import { codeBlock, parseCodeMeta } from '../../../src/export/markdown/highlight.ts';
import { parseBody } from '../../../src/export/markdown/parse.ts';
import { SnippetResolver } from '../../../src/export/markdown/snippets.ts';
import { mdastToHast } from '../../../src/export/markdown/to-hast.ts';
import { outlineContent } from '../../../src/export/pages/headings.ts';
import type { RenderContext } from '../../../src/export/render-context.ts';
import { DocsRepository } from '../../../src/export/source/repository.ts';
import { docsRepo } from '../fixtures.ts';

function context(warnings: string[] = []): RenderContext {
  return {
    resolveHref: (href) => (href.startsWith('/') ? `.${href}.html` : href),
    resolveAsset: (src) => (/^https?:/.test(src) ? src : `.${src}`),
    warn: (message) => warnings.push(message),
    codeBlock,
    icon: () => undefined,
    iconLibrary: 'fontawesome',
    deployment: 'cloud',
  };
}

function render(source: string, file = 'page.mdx', warnings: string[] = []): string {
  return toHtml(mdastToHast(parseBody(source, file), context(warnings), file) as Root);
}

describe('code blocks', () => {
  it('parses titles, line highlights and flags from the fence meta', () => {
    expect(parseCodeMeta('server.ts {1,3-4} lines')).toEqual({
      title: 'server.ts',
      highlight: new Set([1, 3, 4]),
      focus: new Set(),
      lineNumbers: true,
      wrap: false,
      expandable: false,
    });
    expect(parseCodeMeta('app.py focus={2-3} expandable icon="python" wrap')).toEqual({
      title: 'app.py',
      highlight: new Set(),
      focus: new Set([2, 3]),
      lineNumbers: false,
      wrap: true,
      expandable: true,
      icon: 'python',
    });
    // Settings of other kinds (a diagram's placement) are not the title.
    expect(parseCodeMeta('placement="top-right"').title).toBeUndefined();
    expect(parseCodeMeta('Diagram placement="top-right" theme=dark').title).toBe('Diagram');
    expect(parseCodeMeta('title="My file" highlight={2}')).toMatchObject({
      title: 'My file',
      highlight: new Set([2]),
    });
    expect(parseCodeMeta(undefined).title).toBeUndefined();
  });

  it('highlights at build time, one line element per source line, marking highlighted lines', () => {
    const html = toHtml(codeBlock('const a = "x";\n/* two\n\nlines */\nlet b = 2;', 'ts', 'a.ts {2}'), {
      allowDangerousHtml: true,
    });
    expect(html).toContain('class="ds-code"');
    expect(html).toContain('data-language="ts"');
    expect(html).toContain('data-title="a.ts"');
    expect(html).toContain('<span class="hljs-keyword">const</span>');
    expect(html.match(/class="line/g)).toHaveLength(5);
    // The comment spans three lines: each line holds a well-formed comment span, and the blank
    // line in it holds no empty token.
    expect(html).toContain('<span class="line"></span>\n');
    expect(html).toMatch(
      /<span class="line highlighted"><span class="hljs-comment">\/\* two<\/span><\/span>/,
    );
    expect(html).toMatch(/<span class="line"><span class="hljs-comment">lines \*\/<\/span><\/span>/);
  });

  it('keeps the text of highlighted code searchable', () => {
    const outline = outlineContent({ type: 'root', children: [codeBlock('npm install docsnap', 'bash')] });
    expect(outline.text).toBe('npm install docsnap');
  });

  it('keeps unknown languages as escaped plain text', () => {
    const html = toHtml(codeBlock('<b>&</b>', 'nosuchlang'), { allowDangerousHtml: true });
    expect(html).toContain('&lt;b&gt;&amp;&lt;/b&gt;');
    expect(html).not.toContain('<b>');
  });
});

describe('MDX to HTML', () => {
  it('renders GFM: tables, task lists, strikethrough, autolinks, footnotes', () => {
    const html = render(
      '| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done\n- [ ] todo\n\n~~old~~ www.example.com\n\nNote[^1].\n\n[^1]: The footnote.\n',
    );
    expect(html).toContain('<table>');
    expect(html).toContain('type="checkbox"');
    expect(html).toContain('<del>old</del>');
    expect(html).toContain('href="http://www.example.com"');
    expect(html).toContain('The footnote.');
  });

  it('uses literal props and never executes expressions', () => {
    const warnings: string[] = [];
    const html = render(
      '<Card title="T" href="/x">Body {1 + 1} and {"literal"}</Card>\n\n{process.exit(1)}\n',
      'page.mdx',
      warnings,
    );
    expect(html).toContain('literal');
    expect(html).not.toContain('2');
    expect(warnings.some((w) => w.includes('process.exit(1)'))).toBe(true);
  });

  it('renders an unknown component as its children, with a warning', () => {
    const warnings: string[] = [];
    const html = render('<Mystery foo="bar">Inner **text**</Mystery>\n', 'page.mdx', warnings);
    expect(html).toContain('data-component="Mystery"');
    expect(html).toContain('<strong>text</strong>');
    expect(warnings.join('\n')).toMatch(/Mystery/);
  });

  it('keeps safe HTML tags and removes scripts, event handlers and javascript: URLs', () => {
    const warnings: string[] = [];
    const html = render(
      '<div className="box" style={{ maxWidth: 300 }}>Hi <a href="javascript:alert(1)" onClick="x()">x</a></div>\n\n<script>alert(1)</script>\n',
      'page.mdx',
      warnings,
    );
    expect(html).toContain('<div class="box" style="max-width: 300px">');
    expect(html).not.toContain('javascript:');
    expect(html).not.toContain('onclick');
    expect(html).not.toContain('<script');
    expect(warnings.join('\n')).toMatch(/<script>/);
  });

  it('holds raw HTML in .md pages to the same policy', () => {
    const warnings: string[] = [];
    const html = render(
      'Text <span class="k">ok</span>\n\n<script>alert(1)</script>\n<iframe src="https://www.youtube.com/embed/x"></iframe>\n',
      'page.md',
      warnings,
    );
    expect(html).toContain('<span class="k">ok</span>');
    expect(html).not.toContain('<script');
    expect(html).toContain('<iframe src="https://www.youtube.com/embed/x"');
    expect(warnings.join('\n')).toMatch(/<script>/);
  });

  it.each(['page.mdx', 'page.md'])(
    "refuses ids, classes and names of the theme's namespace in %s",
    (file) => {
      const warnings: string[] = [];
      const html = render(
        [
          '<div id="ds-sidebar" class="ds-sidebar note" data-nav-script="payload.txt">a</div>',
          '',
          '<img name="documentElement" src="/a.png" alt="" />',
          '',
          '<p id="DocsnapNav" class="ds-code">b</p>',
          '',
          '```js',
          'let x = 1;',
          '```',
          '',
        ]
          .join('\n')
          .replace(/ class=/g, file.endsWith('.mdx') ? ' className=' : ' class='),
        file,
        warnings,
      );
      expect(html).not.toMatch(/id="ds-|id="Docsnap|name=|class="ds-sidebar|<p class="ds-code"/);
      expect(html).toContain('<div class="note" data-nav-script="payload.txt">a</div>');
      // The page's own code block keeps its theme classes.
      expect(html).toMatch(/<div class="ds-code" data-language="js">/);
      expect(warnings.join('\n')).toMatch(/id "ds-sidebar" \(reserved for the theme\)/);
      expect(warnings.join('\n')).toMatch(/name attribute on <img>/);
    },
  );

  it('holds every URL of a page to the URL policy, Markdown links and definitions included', () => {
    const warnings: string[] = [];
    const html = render(
      '[a](javascript:alert(1)) [b][x] [c](data:text/html,x) [d](/guide)\n\n[x]: vbscript:msgbox(1)\n',
      'page.mdx',
      warnings,
    );
    expect(html).toBe('<p><a>a</a> <a>b</a> <a>c</a> <a href="./guide.html">d</a></p>');
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toMatch(/^line 1: refused URL "javascript:alert\(1\)" in <a href>/);
  });

  it('reports an MDX syntax error with file, line and column', () => {
    let error: unknown;
    try {
      parseBody('\n\nText\n\n<Card title="x">\nunclosed\n', 'guide/page.mdx');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ExportError);
    const problem = (error as ExportError).problems[0];
    expect(problem).toMatchObject({ file: 'guide/page.mdx' });
    expect(problem?.line).toBeGreaterThanOrEqual(5);
    expect((error as ExportError).message).toMatch(/guide\/page\.mdx:\d+/);
  });
});

describe('snippets', () => {
  it('inlines imported snippets recursively and refuses cycles', () => {
    const dir = docsRepo({
      'snippets/outer.mdx': 'import Inner from "/snippets/inner.mdx";\n\nOuter text.\n\n<Inner />\n',
      'snippets/inner.mdx': 'Inner **text**.\n',
      'snippets/loop-a.mdx': 'import B from "/snippets/loop-b.mdx";\n\n<B />\n',
      'snippets/loop-b.mdx': 'import A from "/snippets/loop-a.mdx";\n\n<A />\n',
    });
    const resolver = new SnippetResolver(DocsRepository.open(dir));
    const warnings: string[] = [];
    const tree = resolver.expand(
      parseBody('import Outer from "/snippets/outer.mdx";\n\n<Outer />\n', 'page.mdx'),
      'page.mdx',
      (w) => warnings.push(w),
    );
    const html = toHtml(mdastToHast(tree, context(warnings), 'page.mdx') as Root);
    expect(html).toContain('Outer text.');
    expect(html).toContain('Inner <strong>text</strong>.');
    expect(warnings).toEqual([]);
    expect(() =>
      resolver.expand(
        parseBody('import A from "/snippets/loop-a.mdx";\n\n<A />\n', 'p.mdx'),
        'p.mdx',
        () => {},
      ),
    ).toThrow(/snippet cycle/);
    expect(() =>
      resolver.expand(parseBody('import X from "../../etc/x.mdx";\n\n<X />\n', 'p.mdx'), 'p.mdx', () => {}),
    ).toThrow(/leaves the repository/);
  });
});
