import { docsRepo, page } from '../fixtures.ts';

/**
 * A docs repository written by an attacker: every way found for a `javascript:`, `vbscript:` or
 * non-image `data:` URL to reach an exported page, and theme-namespace ids that try to steer the
 * theme's script. Each URL carries its vector's name in quotes (`alert('md-link')`), so a test that
 * finds one in the output can say which vector got through.
 */

const js = (name: string) => `javascript:alert('${name}')`;
const htmlData = (name: string) => `data:text/html,<script>alert('${name}')</script>`;

/** The URL-carrying vectors, by name; each name appears in its URL and nowhere else. */
export const URL_VECTORS = [
  // Markdown in .mdx
  'md-link',
  'md-upper',
  'md-entity',
  'md-tab',
  'md-vbscript',
  'md-data',
  'md-ref',
  'md-image',
  'md-image-data',
  'md-space',
  // Lowercase JSX (HTML) in .mdx
  'jsx-a',
  'jsx-expr',
  'jsx-tab',
  'jsx-a-data',
  'jsx-iframe-data',
  'jsx-iframe-js',
  'jsx-img',
  'jsx-srcset',
  // Components
  'card',
  'card-tab',
  'card-vbscript',
  'card-data',
  'card-img',
  'tooltip',
  // .md raw HTML and Markdown
  'raw-a',
  'raw-tab',
  'raw-iframe-data',
  'raw-link',
  // docs.json
  'navbar',
  'navbar-vbscript',
  'navbar-primary',
  'anchor',
  'tab-href',
  'footer-link',
  'social',
  'logo-href',
  'favicon',
  'nav-link',
  'lazy-nav-link',
  'redirect',
  // Frontmatter url
  'frontmatter',
  'frontmatter-data',
  'lazy-frontmatter',
] as const;

/** Pages of the large section: over FULL_NAV_LIMIT (200), so its other groups are filled lazily. */
const LARGE_GROUP = 110;

export function hostileRepo(): string {
  const large: Record<string, string> = {};
  for (let i = 0; i < 2 * LARGE_GROUP; i++) large[`big/p${i}.mdx`] = page(`Big page ${i}`);
  return docsRepo({
    'docs.json': {
      name: 'Hostile Docs',
      colors: { primary: '#0D9373' },
      logo: { light: '/logo.svg', dark: '/logo.svg', href: js('logo-href') },
      favicon: js('favicon'),
      navbar: {
        links: [
          { label: 'Navbar', href: js('navbar') },
          { label: 'Navbar VB', href: "vbscript:msgbox('navbar-vbscript')" },
        ],
        primary: { type: 'button', label: 'Primary', href: `JaVaScRiPt:alert('navbar-primary')` },
      },
      navigation: {
        global: { anchors: [{ anchor: 'Anchor', href: js('anchor') }] },
        tabs: [
          {
            tab: 'Docs',
            groups: [
              {
                group: 'Start',
                pages: [
                  'index',
                  'raw',
                  'custom',
                  'clobber-name',
                  'external',
                  'external-data',
                  { label: 'Nav link', href: js('nav-link') },
                ],
              },
            ],
          },
          { tab: 'Tab link', href: js('tab-href') },
          {
            tab: 'Big',
            groups: [
              {
                group: 'First',
                pages: Array.from({ length: LARGE_GROUP }, (_, i) => `big/p${i}`),
              },
              {
                group: 'Second',
                pages: [
                  ...Array.from({ length: LARGE_GROUP }, (_, i) => `big/p${LARGE_GROUP + i}`),
                  'big/external',
                  { label: 'Lazy nav link', href: js('lazy-nav-link') },
                ],
              },
            ],
          },
        ],
      },
      footer: {
        socials: { x: js('social'), github: 'https://github.com/example' },
        links: [{ header: 'More', items: [{ label: 'Footer link', href: js('footer-link') }] }],
      },
      redirects: [{ source: '/old', destination: js('redirect') }],
    },
    'logo.svg': '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>',
    'index.mdx': page(
      'Welcome',
      [
        `[plain](${js('md-link')}) [upper](JaVaScRiPt:alert('md-upper'))`,
        `[entity](&#106;avascript:alert('md-entity')) [tab](java&#9;script:alert('md-tab'))`,
        `[vb](vbscript:msgbox('md-vbscript')) [data](data:text/html;base64,PHNjcmlwdD4=?'md-data')`,
        `[reference][hostile] ![image](${js('md-image')}) ![data image](data:text/html,'md-image-data')`,
        `[space](< javascript:alert('md-space')>)`,
        '',
        `[hostile]: ${js('md-ref')}`,
        '',
        `<a href="${js('jsx-a')}">jsx a</a> <a href={"${js('jsx-expr')}"}>jsx expr</a>`,
        `<a href="java&#x09;script:alert('jsx-tab')">jsx tab</a> <a href="${htmlData('jsx-a-data')}">jsx data</a>`,
        '',
        `<iframe src="${htmlData('jsx-iframe-data')}" title="data frame"></iframe>`,
        '',
        `<iframe src="${js('jsx-iframe-js')}" title="js frame"></iframe>`,
        '',
        `<img src="${js('jsx-img')}" alt="jsx img" />`,
        '',
        `<img src="/logo.svg" srcSet="${js('jsx-srcset')} 2x" alt="srcset" />`,
        '',
        '<CardGroup cols={2}>',
        `  <Card title="Card" href="${js('card')}">card</Card>`,
        `  <Card title="Card tab" href={"java\\tscript:alert('card-tab')"}>card tab</Card>`,
        `  <Card title="Card vb" href="vbscript:msgbox('card-vbscript')">card vb</Card>`,
        `  <Card title="Card data" href="${htmlData('card-data')}">card data</Card>`,
        `  <Card title="Card img" img="${js('card-img')}">card img</Card>`,
        '</CardGroup>',
        '',
        `Some <Tooltip tip="tip" cta="Go" href="${js('tooltip')}">tooltip</Tooltip> text.`,
        '',
        'A fine [internal link](/raw) and an [external one](https://example.com/) stay.',
        '',
        '![a data image](data:image/gif;base64,R0lGODlhAQABAAAAACw=)',
      ].join('\n'),
    ),
    'raw.md': page(
      'Raw HTML',
      [
        `<a href="${js('raw-a')}">raw a</a>`,
        '',
        `<a href="jav&#x09;ascript:alert('raw-tab')">raw tab</a>`,
        '',
        `<iframe src="${htmlData('raw-iframe-data')}" title="raw frame"></iframe>`,
        '',
        `[raw link](${js('raw-link')})`,
      ].join('\n'),
    ),
    // DOM clobbering: the theme must not take its sidebar or its settings from these.
    'custom.mdx': [
      '---',
      'title: Custom',
      'mode: custom',
      '---',
      '',
      '<div id="ds-sidebar" className="ds-sidebar" data-nav-script="payload.txt">',
      '  <details data-g="0"><summary>Open me</summary></details>',
      '</div>',
      '',
      '<button className="ds-theme-toggle ds-search-trigger" id="ds-search-input">fake</button>',
      '',
    ].join('\n'),
    'clobber-name.mdx': [
      '---',
      'title: Clobbered by name',
      'mode: custom',
      '---',
      '',
      '<img name="documentElement" data-root="payload.txt?" data-nav-script="x" alt="" src="/logo.svg" />',
      '',
      '<div id="ds-sidebar" data-nav-script="payload.txt"><details data-g="0"><summary>Open</summary></details></div>',
      '',
    ].join('\n'),
    'payload.txt': "alert('payload');\n",
    'external.mdx': `---\ntitle: External\nurl: "${js('frontmatter')}"\n---\n\nText.\n`,
    'external-data.mdx': `---\ntitle: External data\nurl: "${htmlData('frontmatter-data')}"\n---\n\nText.\n`,
    'big/external.mdx': `---\ntitle: Big external\nurl: "${js('lazy-frontmatter')}"\n---\n\nText.\n`,
    ...large,
  });
}
