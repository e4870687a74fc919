import { describe, expect, it } from 'vitest';
import { page } from '../fixtures.ts';
import { exportFixture } from './harness.ts';
import { languageSite } from './sites.ts';

const headerTabs = (html: string) =>
  [...(/<nav class="ds-tabs"[\s\S]*?<\/nav>/.exec(html)?.[0].matchAll(/<a [^>]*>([^<]*)<\/a>/g) ?? [])].map(
    (m) => m[1],
  );

describe('languages', () => {
  it('navigation.languages: each language a section of its own, with <html lang> and hreflang alternates', async () => {
    const site = await exportFixture(languageSite());
    const en = site.file('quickstart.html');
    const fr = site.file('fr/quickstart.html');
    expect(en).toMatch(/^<!doctype html>\n<html lang="en"/);
    expect(fr).toMatch(/^<!doctype html>\n<html lang="fr"/);
    expect(en).toContain('<link rel="alternate" hreflang="en" href="quickstart.html">');
    expect(en).toContain('<link rel="alternate" hreflang="fr" href="fr/quickstart.html">');
    expect(fr).toContain('<link rel="alternate" hreflang="en" href="../quickstart.html">');
    // The header shows the tabs of the reader's language only.
    expect(headerTabs(en)).toEqual(['Guides', 'Reference']);
    expect(headerTabs(fr)).toEqual(['Guides', 'Référence']);
    expect(site.warnings).toEqual([]);
  });

  it('language switcher: language names, the same page in the other language', async () => {
    const site = await exportFixture(languageSite());
    const switcher = /<details class="ds-switcher ds-switcher-language">[\s\S]*?<\/details>/.exec(
      site.file('reference/cli.html'),
    )?.[0];
    expect(switcher).toContain('<summary aria-label="Language: English">English</summary>');
    expect(switcher).toContain('<a href="../fr/reference/cli.html" lang="fr" hreflang="fr">Français</a>');
    expect(switcher).toContain(
      '<a href="cli.html" lang="en" hreflang="en" aria-current="true" class="active">English</a>',
    );
  });

  it('interface text in the page language, English the fallback', async () => {
    const site = await exportFixture(languageSite());
    const fr = site.file('fr/quickstart.html');
    expect(fr).toContain('Aller au contenu');
    expect(fr).toContain('<span>Rechercher…</span>');
    expect(fr).toContain('>Sur cette page</p>');
    expect(fr).toContain('<span class="ds-pagination-label">Précédent</span>');
    expect(fr).toMatch(
      /<script type="application\/json" id="ds-text">\{"searchDocumentation":"Rechercher dans la documentation"/,
    );
    expect(fr).toContain('aria-label="Langue: Français"');
    expect(site.file('quickstart.html')).not.toContain('id="ds-text"');
  });

  it('search per language: one index per language', async () => {
    const site = await exportFixture(languageSite());
    expect(site.file('fr/quickstart.html')).toContain('data-search-scope="fr/"');
    expect(site.file('quickstart.html')).toContain('data-search-scope="en/"');
    const files = Object.keys(site.result.manifest.files);
    expect(files).toEqual(
      expect.arrayContaining(['_docsnap/search/en/meta.js', '_docsnap/search/fr/meta.js']),
    );
  });

  it('a language code the format does not list is an error naming it', async () => {
    const files = languageSite();
    (files['docs.json'].navigation.languages[1] as { language: string }).language = 'klingon';
    await expect(exportFixture(files)).rejects.toThrow(
      /navigation\.languages\[1\]\.language: "klingon" is not a language code of the format/,
    );
  });
});

describe('default', () => {
  it('default: the language and version a reader lands on at the site root', async () => {
    const files = {
      'docs.json': {
        name: 'Defaults',
        navigation: {
          versions: [
            { version: 'v1', pages: ['v1/index'] },
            {
              version: 'v2',
              default: true,
              languages: [
                { language: 'fr', pages: ['fr/v2/index'] },
                { language: 'es', default: true, pages: ['es/v2/index'] },
              ],
            },
          ],
        },
      },
      'v1/index.mdx': page('v1'),
      'fr/v2/index.mdx': page('fr v2'),
      'es/v2/index.mdx': page('es v2'),
    };
    const site = await exportFixture(files);
    expect(site.file('index.html')).toContain('url=es/v2.html');
  });
});

describe('a language’s own settings', () => {
  it('banner, navbar and footer on a language', async () => {
    const files = languageSite();
    Object.assign(files['docs.json'], {
      banner: { content: 'Welcome' },
      navbar: { links: [{ label: 'Blog', href: 'https://blog.example.com' }] },
      footer: { socials: { github: 'https://github.com/acme' } },
    });
    Object.assign(files['docs.json'].navigation.languages[1] as object, {
      banner: { content: 'Bienvenue' },
      navbar: {
        links: [
          { label: 'Le blog', href: 'javascript:alert(1)' },
          { label: 'Journal', href: 'https://blog.example.fr' },
        ],
      },
    });
    const site = await exportFixture(files);
    const en = site.file('quickstart.html');
    const fr = site.file('fr/quickstart.html');
    expect(en).toContain('<p class="ds-banner-content">Welcome</p>');
    expect(fr).toContain('<p class="ds-banner-content">Bienvenue</p>');
    expect(en).toContain('>Blog</a>');
    expect(fr).toContain('>Journal</a>');
    expect(fr).not.toContain('>Blog</a>');
    // The language's links are held to the URL policy like the site's.
    expect(fr).not.toContain('Le blog');
    expect(site.warnings).toEqual([expect.stringMatching(/navigation\.languages\[1\]\.navbar\.links\[0\]/)]);
    // The footer the language does not set is the site's.
    expect(fr).toContain('href="https://github.com/acme"');
  });
});
