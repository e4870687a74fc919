import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Element } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { visit } from 'unist-util-visit';
import { describe, expect, it } from 'vitest';
import { exportSite } from '../../../src/export/pipeline.ts';
import { docsRepo, page, tempDir } from '../fixtures.ts';
import { hostileUrlsIn } from './scan.ts';

/**
 * The reference's newer components (Graph, Terminal, Mention, Popup, Timeline, Variation, Banner),
 * Mermaid sources and literal conditionals take tenant text into markup, styles and scripts' data:
 * none of it may become script, an event handler, a script URL or a load from another origin.
 */
describe('hostile props and content of the newer components', () => {
  it('cannot add script, handlers, script URLs or foreign loads; each refusal is named', async () => {
    const source = docsRepo({
      'docs.json': {
        name: 'Hostile',
        variations: { options: [{ id: 'cloud', label: '"><script>alert(1)</script>' }] },
        navigation: { groups: [{ group: 'G', pages: ['index'] }] },
      },
      'index.mdx': page(
        'Home',
        [
          '<Graph type="bar" xKey="name" yKey="v" color="red;background:url(https://evil.example/a)" height={100000}>',
          '  {[{ name: "<script>alert(2)</script>", v: 1 }, { name: "b", v: "javascript:alert(3)" }]}',
          '</Graph>',
          '',
          '<Graph type="line" xKey="x">',
          '  {{ data: [{ x: "a", y: 1 }], series: [{ key: "y", label: "<img src=x onerror=alert(4)>", color: "url(https://evil.example/b)" }] }}',
          '</Graph>',
          '',
          `<Terminal height="1px;background:url(https://evil.example/c)" theme={'x" onload="alert(5)'}>`,
          '$ {"</pre><script>alert(6)</script>"}',
          '</Terminal>',
          '',
          '<Mention page="javascript:alert(7)" /> <Mention user="<img src=x onerror=alert(8)>@x" />',
          '',
          '<Popup><PopupTrigger>t</PopupTrigger><PopupContent>[x](javascript:alert(9)) <img src="https://evil.example/d.png" /></PopupContent></Popup>',
          '',
          '<Timeline><Timeline.Item title="t" color="red onmouseover=alert(10)" icon="javascript:alert(11)">x</Timeline.Item></Timeline>',
          '',
          '<Variation is={["cloud\\" onclick=\\"alert(12)"]}>never</Variation>',
          '',
          '<Variation is="cloud">shown</Variation>',
          '',
          '<Banner type="x onclick=alert(13)">b</Banner>',
          '',
          '```mermaid',
          'flowchart LR',
          '  A["</pre><script>alert(14)</script>"]',
          '```',
          '',
          '{(alert(15), true) ? <b>ran</b> : null}',
          '',
          '{typeof window !== "undefined" && <b>client</b>}',
        ].join('\n'),
      ),
    });
    const outDir = join(tempDir(), 'site');
    const result = await exportSite({ source, outDir, options: { deployment: 'air-gapped' }, workers: 1 });
    const html = readFileSync(join(outDir, 'index.html'), 'utf8');
    const found: string[] = [];
    visit(fromHtml(html), 'element', (node: Element) => {
      const text = node.children.map((child) => ('value' in child ? child.value : '')).join('');
      if (node.tagName === 'script' && text.includes('alert'))
        found.push(`inline script: ${text.slice(0, 40)}`);
      for (const [name, value] of Object.entries(node.properties)) {
        if (/^on/i.test(name)) found.push(`${node.tagName} ${name}`);
        if (name === 'style' && /url\(|evil/i.test(String(value)))
          found.push(`${node.tagName} style=${value}`);
        // A load from elsewhere (air-gapped pages turn a foreign image into a link to it, which loads nothing).
        const loads = name === 'src' || (name === 'href' && node.tagName === 'link');
        if (loads && /evil\.example/.test(String(value))) found.push(`${node.tagName} ${name}=${value}`);
      }
    });
    expect(found).toEqual([]);
    expect(hostileUrlsIn(outDir, [])).toEqual([]);
    // Expressions that need code never run; their branches are not picked.
    expect(html).not.toMatch(/<b>(?:ran|client)<\/b>/);
    // Tenant text stays text: the chart's label and the variation's label are escaped data.
    expect(html).toContain('&#x3C;script>alert(2)&#x3C;/script>');
    let options: unknown;
    visit(fromHtml(html), 'element', (node: Element) => {
      if (node.properties.dataVariationOptions)
        options = JSON.parse(String(node.properties.dataVariationOptions));
    });
    expect(options).toEqual([{ id: 'cloud', label: '"><script>alert(1)</script>' }]);
    const messages = result.warnings.map((w) => w.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/<Graph> prop color=".*" is not a CSS color: ignored/),
        expect.stringMatching(/<Graph> prop height=100000 is not a whole number from 80 to 1200/),
        expect.stringMatching(/<Terminal> height=".*" is not a CSS length/),
        expect.stringMatching(/<Terminal> theme=".*" is not one of dark, light, matrix, retro/),
        expect.stringMatching(/<Mention> link left out: .*javascript/),
        expect.stringMatching(/<Timeline.Item> color=".*" is not one of/),
        expect.stringMatching(/<Variation> is="cloud" onclick="alert\(12\)" names no option/),
        expect.stringMatching(/<Banner> type=".*" is not info, warning or critical/),
        expect.stringMatching(/expression \{\(alert\(15\), true\)/),
      ]),
    );
  });
});
