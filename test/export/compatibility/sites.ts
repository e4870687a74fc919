import { page } from '../fixtures.ts';

/** Fixture repositories the compatibility suite shares, written from the format's reference. */

/** A site in English (at the root) and French (under fr/), each with two tabs. */
export const languageSite = () => ({
  'docs.json': {
    name: 'Polyglot',
    navigation: {
      languages: [
        {
          language: 'en',
          default: true,
          tabs: [
            { tab: 'Guides', groups: [{ group: 'Start', pages: ['index', 'quickstart'] }] },
            { tab: 'Reference', groups: [{ group: 'API', pages: ['reference/cli'] }] },
          ],
        },
        {
          language: 'fr',
          tabs: [
            { tab: 'Guides', groups: [{ group: 'Démarrer', pages: ['fr/index', 'fr/quickstart'] }] },
            { tab: 'Référence', groups: [{ group: 'API', pages: ['fr/reference/cli'] }] },
          ],
        },
      ],
    },
  },
  'index.mdx': page('Home', 'Welcome aboard, sailor.'),
  'quickstart.mdx': page('Quickstart', '## Installation\n\nInstall the quantum widget.'),
  'reference/cli.mdx': page('CLI'),
  'fr/index.mdx': page('Accueil', 'Bienvenue à bord, matelot.'),
  'fr/quickstart.mdx': page('Démarrage rapide', '## Installation\n\nInstallez le widget quantique.'),
  'fr/reference/cli.mdx': page('CLI'),
});

/**
 * Languages, then versions, then tabs: English at the root (v2) and under v1/, French under fr/
 * and fr/v1/. Every page says which it is, so a test can tell where it landed.
 */
export const switcherSite = () => {
  const files: Record<string, string | object> = {};
  const languages = [
    { language: 'en', prefix: '' },
    { language: 'fr', prefix: 'fr/' },
  ].map(({ language, prefix }) => ({
    language,
    versions: ['v2', 'v1'].map((version) => {
      const base = `${prefix}${version === 'v2' ? '' : 'v1/'}`;
      for (const name of ['index', 'quickstart', 'reference/cli'])
        files[`${base}${name}.mdx`] = page(
          `${name} ${language} ${version}`,
          `This page is ${name} in ${language} ${version}. ${language === 'fr' ? 'Parapluie' : 'Umbrella'} ${name}.`,
        );
      return {
        version,
        tabs: [
          { tab: 'Guides', groups: [{ group: 'Start', pages: [`${base}index`, `${base}quickstart`] }] },
          { tab: 'Reference', groups: [{ group: 'CLI', pages: [`${base}reference/cli`] }] },
        ],
      };
    }),
  }));
  files['docs.json'] = { name: 'Switchers', navigation: { languages } };
  return files;
};
