import { describe, expect, it } from 'vitest';
import { page } from '../fixtures.ts';
import { exportFixture } from './harness.ts';

const nav = { groups: [{ group: 'Start', pages: ['index', 'guide'] }] };
const pages = { 'index.mdx': page('Home'), 'guide.mdx': page('Guide', 'A guide.') };

describe('settings', () => {
  it('name and description: page titles and the site description', async () => {
    const out = await exportFixture({
      'docs.json': { name: 'Acme Docs', description: 'Docs of Acme', navigation: nav },
      ...pages,
    });
    expect(out.file('guide.html')).toContain('<title>Guide - Acme Docs</title>');
    expect(out.file('llms.txt')).toContain('Docs of Acme');
  });

  it('variations: the options <Variation> chooses between, the first by default; an id that is not a name is refused', async () => {
    const out = await exportFixture({
      'docs.json': {
        name: 'V',
        variations: {
          options: [
            { id: 'cloud', label: 'Cloud' },
            { id: 'self-hosted', label: 'Self-hosted' },
          ],
        },
        navigation: nav,
      },
      'index.mdx': page(
        'Home',
        '<Variation is="cloud">\n  Cloud.\n</Variation>\n\n<Variation is="self-hosted">\n  Own.\n</Variation>',
      ),
      'guide.mdx': page('Guide'),
    });
    expect(out.file('index.html')).toMatch(/data-variation="cloud"[^>]*>\s*<p>Cloud\.<\/p>/);
    expect(out.file('index.html')).toMatch(/data-variation="self-hosted"[^>]*hidden>/);
    await expect(
      exportFixture({
        'docs.json': { name: 'V', variations: { options: [{ id: 'a b"', label: 'x' }] }, navigation: nav },
        ...pages,
      }),
    ).rejects.toThrow(/variations\.options\[0\]\.id: ids are letters, digits, _ and -/);
  });

  it('theme: every theme the format lists', async () => {
    for (const theme of ['mint', 'maple', 'palm', 'willow', 'linden', 'almond', 'aspen', 'sequoia', 'luma']) {
      const out = await exportFixture({ 'docs.json': { name: 'T', theme, navigation: nav }, ...pages });
      expect(out.result.pageCount, theme).toBe(2);
    }
  });

  it('colors: primary, light and dark', async () => {
    const out = await exportFixture({
      'docs.json': {
        name: 'C',
        colors: { primary: '#0a7d5a', light: '#34d399', dark: '#065f46' },
        navigation: nav,
      },
      ...pages,
    });
    const css = out.file('_docsnap/site.css');
    expect(css).toContain('--ds-primary:#0a7d5a;--ds-primary-light:#34d399;--ds-primary-dark:#065f46');
    expect(css).toContain('html[data-theme="dark"]{--ds-primary:#34d399');
  });

  it('appearance: default and strict', async () => {
    const out = await exportFixture({
      'docs.json': { name: 'A', appearance: { default: 'dark', strict: true }, navigation: nav },
      ...pages,
    });
    const html = out.file('index.html');
    expect(html).toContain('data-theme="dark"');
    expect(html).toContain('s="dark",t=null;try{if(!true)');
  });

  it('redirects: a page at the old path leads to the new one', async () => {
    const out = await exportFixture({
      'docs.json': {
        name: 'R',
        redirects: [{ source: '/old-guide', destination: '/guide' }],
        navigation: nav,
      },
      ...pages,
    });
    expect(out.file('old-guide.html')).toContain('url=guide.html');
  });

  it('$ref: parts of docs.json in other files', async () => {
    const out = await exportFixture({
      'docs.json': { name: 'Ref', navigation: { $ref: './config/navigation.json' } },
      'config/navigation.json': nav,
      ...pages,
    });
    expect(out.result.pageCount).toBe(2);
  });

  it('integrations: analytics the export includes, the others noted', async () => {
    const out = await exportFixture({
      'docs.json': {
        name: 'I',
        integrations: {
          ga4: { measurementId: 'G-ABC123' },
          amplitude: { apiKey: 'k' },
          hotjar: { hjid: '1', hjsv: '6' },
        },
        navigation: nav,
      },
      ...pages,
    });
    expect(out.file('index.html')).toContain('googletagmanager.com/gtag/js?id=G-ABC123');
    expect(out.warnings).toEqual([
      expect.stringMatching(/^docs\.json: integrations\.amplitude, integrations\.hotjar: not supported yet/),
    ]);
  });

  it('an unknown key never fails an export; a documented key of the wrong type is named', async () => {
    const out = await exportFixture({
      'docs.json': { name: 'U', navigation: nav, brandNewKey: { x: 1 } },
      ...pages,
    });
    expect(out.result.pageCount).toBe(2);
    await expect(
      exportFixture({
        'docs.json': { name: 'U', navigation: nav, banner: { content: 3 }, fonts: { format: 'ttf' } },
        ...pages,
      }),
    ).rejects.toThrow(/banner\.content[\s\S]*fonts/);
  });
});

describe('the repository’s own scripts', () => {
  const files = {
    'docs.json': { name: 'S', navigation: nav },
    ...pages,
    'scripts/widget.js': 'document.documentElement.dataset.widget = "on";',
    'scripts/tracker.js': 'fetch("https://tracker.example.com/hit");',
  };

  it('.js files: off unless asked for; when asked, on every page (air-gapped: none that names another origin)', async () => {
    const off = await exportFixture(files);
    expect(off.file('guide.html')).not.toContain('widget.js');
    expect(off.result.manifest.files['scripts/widget.js']).toBeUndefined();
    expect(off.warnings).toEqual([
      expect.stringMatching(
        /^scripts\/tracker\.js: 2 \.js files of the repository not included: .*--site-scripts/,
      ),
    ]);

    const on = await exportFixture(files, { features: { siteScripts: true } });
    expect(on.file('guide.html')).toContain(
      '<script src="scripts/tracker.js" defer></script><script src="scripts/widget.js" defer></script>',
    );
    expect(on.file('scripts/widget.js')).toContain('dataset.widget');

    const airGapped = await exportFixture(files, {
      features: { siteScripts: true },
      deployment: 'air-gapped',
    });
    expect(airGapped.file('guide.html')).toContain('<script src="scripts/widget.js" defer></script>');
    expect(airGapped.file('guide.html')).not.toContain('tracker.js');
    expect(airGapped.warnings).toEqual([
      expect.stringMatching(
        /^scripts\/tracker\.js: names another origin \(https:\/\/tracker\.example\.com\)/,
      ),
    ]);
  });
});
