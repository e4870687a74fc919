import { describe, expect, it } from 'vitest';
import { page } from '../fixtures.ts';
import { exportFixture } from './harness.ts';

const site = (settings: object, files: Record<string, string | object> = {}, options = {}) =>
  exportFixture(
    {
      'docs.json': {
        name: 'Look',
        colors: { primary: '#0a7d5a' },
        navigation: { groups: [{ group: 'Start', pages: ['index', 'guides/deep/page'] }] },
        ...settings,
      },
      'index.mdx': page('Home'),
      'guides/deep/page.mdx': page('Deep'),
      'images/logo.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
      'images/icon-dark.png': 'png',
      'images/icon-light.png': 'png',
      ...files,
    },
    options,
  );

describe('appearance', () => {
  it('logo.href: where the logo leads', async () => {
    const out = await site({
      logo: { light: '/images/logo.svg', dark: '/images/logo.svg', href: 'https://example.com' },
    });
    expect(out.file('guides/deep/page.html')).toContain('<a class="ds-brand" href="https://example.com">');
  });

  it('favicon: light and dark variants', async () => {
    const out = await site({ favicon: { light: '/images/icon-light.png', dark: '/images/icon-dark.png' } });
    const html = out.file('guides/deep/page.html');
    expect(html).toContain(
      '<link rel="icon" href="../../images/icon-light.png" media="(prefers-color-scheme: light)">',
    );
    expect(html).toContain(
      '<link rel="icon" href="../../images/icon-dark.png" media="(prefers-color-scheme: dark)">',
    );
  });

  it('banner: inline Markdown, type, color and dismissible', async () => {
    const out = await site({
      banner: {
        content: '**New:** read the [guide](/guides/deep/page) <script>alert(1)</script>',
        dismissible: true,
        type: 'warning',
        color: { light: '#112233', dark: '#445566' },
      },
    });
    const html = out.file('guides/deep/page.html');
    expect(html).toMatch(
      /<div class="ds-banner ds-banner-warning" role="region" aria-label="Announcement" style="--ds-banner-bg:#112233;--ds-banner-bg-dark:#445566"><p class="ds-banner-content"><strong>New:<\/strong> read the <a href="page.html">guide<\/a>/,
    );
    expect(html).not.toContain('<script>alert');
    expect(html).toContain('class="ds-banner-dismiss"');
    expect(html).toMatch(/<html [^>]*data-banner="[0-9a-f]{16}"/);
  });

  it('navbar: links with type github and discord, primary button types', async () => {
    const out = await site({
      navbar: {
        links: [
          { type: 'github', href: 'https://github.com/acme/repo' },
          { label: 'Blog', href: 'https://blog.example.com' },
        ],
        primary: { type: 'discord', href: 'https://discord.gg/acme' },
      },
    });
    const html = out.file('index.html');
    expect(html).toMatch(
      /<a href="https:\/\/github\.com\/acme\/repo" rel="noopener"><svg[^>]*data-icon="fa-brands:github"[\s\S]*?<\/svg>GitHub<\/a>/,
    );
    expect(html).toContain('>Blog</a>');
    expect(html).toContain('<a class="ds-navbar-primary" href="https://discord.gg/acme">Discord</a>');
  });

  it('footer: socials and link columns', async () => {
    const out = await site({
      footer: {
        socials: {
          x: 'https://x.com/acme',
          github: 'https://github.com/acme',
          website: 'https://acme.example',
        },
        links: [{ header: 'Company', items: [{ label: 'About', href: 'https://acme.example/about' }] }],
      },
    });
    const html = out.file('index.html');
    expect(html).toContain('data-icon="fa-brands:x-twitter"');
    expect(html).toContain('data-icon="fa-brands:github"');
    expect(html).toContain('aria-label="website"');
    expect(html).toContain('<p class="ds-footer-header">Company</p>');
  });

  it('errors.404: title and description', async () => {
    const out = await site({
      errors: { '404': { title: 'Lost?', description: 'Try the [home page](/).', redirect: false } },
    });
    const html = out.file('404.html');
    expect(html).toContain('<title>Lost? - Look</title>');
    expect(html).toContain('<p>Try the home page.</p>');
    expect(out.warnings).toContainEqual(
      expect.stringMatching(/^docs\.json: errors\.404\.redirect: a static host decides/),
    );
  });

  it('styling.eyebrows: section or breadcrumbs', async () => {
    const nested = {
      navigation: {
        groups: [{ group: 'Start', pages: ['index', { group: 'Deeper', pages: ['guides/deep/page'] }] }],
      },
    };
    const section = await site(nested);
    expect(section.file('guides/deep/page.html')).toContain('<p class="ds-eyebrow">Deeper</p>');
    const breadcrumbs = await site({ ...nested, styling: { eyebrows: 'breadcrumbs' } });
    expect(breadcrumbs.file('guides/deep/page.html')).toContain('<p class="ds-eyebrow">Start / Deeper</p>');
  });

  it('background: color, decoration and image; nothing from elsewhere when air-gapped', async () => {
    const settings = {
      background: {
        color: { light: '#fafaf0', dark: '#101418' },
        decoration: 'gradient',
        image: { light: '/images/icon-light.png', dark: 'https://cdn.example.com/bg.png' },
      },
    };
    const connected = await site(settings);
    const css = connected.file('_docsnap/site.css');
    expect(css).toContain(':root{--ds-bg:#fafaf0}');
    expect(css).toContain('html[data-theme="dark"]{--ds-bg:#101418}');
    expect(css).toContain('body{background-image:url("../images/icon-light.png"),radial-gradient(');
    expect(css).toContain('url("https://cdn.example.com/bg.png")');
    const airGapped = await site(settings, {}, { deployment: 'air-gapped' });
    expect(airGapped.file('_docsnap/site.css')).not.toContain('cdn.example.com');
    expect(airGapped.warnings).toContainEqual(
      expect.stringMatching(/background\.image https:\/\/cdn\.example\.com\/bg\.png is on another origin/),
    );
  });

  it('fonts: local files and Google Fonts families (where the deployment loads from elsewhere)', async () => {
    const settings = {
      fonts: {
        heading: { family: 'Brand Display', source: '/fonts/display.woff2', format: 'woff2', weight: 700 },
        body: { family: 'Inter' },
      },
    };
    const files = { 'fonts/display.woff2': 'woff2' };
    const connected = await site(settings, files);
    const css = connected.file('_docsnap/site.css');
    expect(css).toContain(
      '@font-face{font-family:"Brand Display";src:url("../fonts/display.woff2") format("woff2");font-display:swap;font-weight:700}',
    );
    expect(css).toContain('body{font-family:"Inter"');
    expect(connected.file('index.html')).toContain(
      '<link rel="stylesheet" href="https://fonts.googleapis.com/css2?family=Inter&#x26;display=swap">',
    );
    const airGapped = await site(settings, files, { deployment: 'air-gapped' });
    expect(airGapped.file('index.html')).not.toContain('fonts.googleapis.com');
    expect(airGapped.file('_docsnap/site.css')).toContain('@font-face{font-family:"Brand Display"');
    expect(airGapped.warnings).toContainEqual(
      expect.stringMatching(
        /fonts: Inter is a Google Fonts family, which an air-gapped export does not load/,
      ),
    );
  });

  it('contextual: copy and view offered, cloud options noted', async () => {
    const out = await site({ contextual: { options: ['copy', 'view', 'chatgpt', 'claude'] } });
    const html = out.file('guides/deep/page.html');
    expect(html).toContain(
      '<button type="button" class="ds-copy-page" data-src="page.md">Copy page</button>',
    );
    expect(html).toContain('<a class="ds-view-markdown" href="page.md">View as Markdown</a>');
    expect(out.file('guides/deep/page.md')).toContain('# Deep');
    expect(out.warnings).toEqual([
      expect.stringMatching(
        /^docs\.json: contextual\.options chatgpt, claude: these need the platform's cloud/,
      ),
    ]);
  });

  it('variables: {{name}} replaced in pages and snippets', async () => {
    const out = await site(
      { variables: { product: 'Acme Cloud', 'api-version': 'v3' } },
      {
        'index.mdx': page(
          'Home',
          "import Note from '/snippets/note.mdx';\n\nWelcome to {{product}}, API {{ api-version }}.\n\n<Note />",
        ),
        'snippets/note.mdx': 'Snippet about {{product}}.',
      },
    );
    const html = out.file('index.html');
    expect(html).toContain('Welcome to Acme Cloud, API v3.');
    expect(html).toContain('Snippet about Acme Cloud.');
  });

  it('settings that need the platform: accepted, one note each, never a failure', async () => {
    const out = await site({
      theme: 'aspen',
      thumbnails: { appearance: 'dark' },
      metadata: { timestamp: true },
      interaction: { drilldown: true },
      integrations: { customScripts: [{ src: 'https://cdn.example.com/x.js' }] },
      seo: { organization: { name: 'Acme' } },
      styling: { codeblocks: 'dark', latex: true },
      somethingNew: { the: 'format may add keys' },
    });
    expect(out.result.pageCount).toBe(2);
    const notes = out.warnings.map((w) => w.replace(/^docs\.json: ([^:]+):.*$/, '$1'));
    expect(notes).toEqual([
      'thumbnails',
      'metadata.timestamp',
      'interaction.drilldown is not supported yet',
      'styling.codeblocks',
      'styling.latex is not supported yet',
      'seo.organization',
      'integrations.customScripts',
    ]);
  });

  it('search.prompt: the search box placeholder', async () => {
    const out = await site({ search: { prompt: 'Ask Acme…' } });
    expect(out.file('index.html')).toContain('<span>Ask Acme…</span>');
  });
});
