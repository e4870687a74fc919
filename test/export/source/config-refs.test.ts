import { describe, expect, it } from 'vitest';
import { ExportError } from '../../../src/export/errors.ts';
import { resolveOptions } from '../../../src/export/options.ts';
import { loadSite } from '../../../src/export/source/load-site.ts';
import { docsRepo, navigationLabels, page } from '../fixtures.ts';

const options = resolveOptions();

async function failure(dir: string): Promise<string> {
  const error = await loadSite(dir, options).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ExportError);
  const { message, problems } = error as ExportError;
  return [message, ...problems.map((p) => `${p.file}: ${p.message}`)].join('\n');
}

describe('docs.json $ref', () => {
  it('replaces a value anywhere by the JSON of a file, nested references relative to the file that holds them, keys beside $ref laid over it', async () => {
    const dir = docsRepo({
      'docs.json': {
        name: 'Split',
        navigation: { $ref: './config/navigation.json' },
        redirects: { $ref: 'config/redirects.json' },
      },
      'config/navigation.json': {
        groups: [
          { $ref: './groups/start.json', group: 'Renamed' },
          { group: 'More', pages: { $ref: './groups/more-pages.json' } },
        ],
      },
      'config/groups/start.json': { group: 'Start', pages: ['index', 'guide'] },
      'config/groups/more-pages.json': ['more'],
      'config/redirects.json': [{ source: '/old', destination: '/guide' }],
      'index.mdx': page('Home'),
      'guide.mdx': page('Guide'),
      'more.mdx': page('More page'),
    });
    const site = await loadSite(dir, options);
    expect(navigationLabels(site.sections[0]?.items ?? [], site.pages)).toEqual([
      { Renamed: ['Home', 'Guide'] },
      { More: ['More page'] },
    ]);
    expect(site.config.redirects).toEqual([
      { source: '/old', destination: '/guide', permanent: expect.anything() },
    ]);
  });

  it('refuses a cycle, naming every file of it', async () => {
    const dir = docsRepo({
      'docs.json': { name: 'Loop', navigation: { $ref: 'nav/a.json' } },
      'nav/a.json': { groups: [{ $ref: 'b.json' }] },
      'nav/b.json': { group: 'B', pages: [{ $ref: './a.json' }] },
    });
    expect(await failure(dir)).toContain('a $ref cycle: docs.json → nav/a.json → nav/b.json → nav/a.json');
  });

  it('names the file and the JSON path of a reference that is missing, a URL, or has keys beside a list', async () => {
    expect(
      await failure(
        docsRepo({ 'docs.json': { name: 'M', navigation: { groups: [{ $ref: 'nope.json' }] } } }),
      ),
    ).toMatch(/docs\.json: \$\.navigation\.groups\[0\]\.\$ref: "nope\.json" names no file/);
    expect(
      await failure(
        docsRepo({ 'docs.json': { name: 'U', navigation: { $ref: 'https://evil.example/nav.json' } } }),
      ),
    ).toContain('is a URL; a $ref names a file of the repository');
    expect(
      await failure(
        docsRepo({
          'docs.json': { name: 'L', navigation: { groups: { $ref: 'list.json', group: 'x' } } },
          'list.json': [],
        }),
      ),
    ).toContain('keys beside $ref need an object in list.json, which holds an array');
    expect(
      await failure(
        docsRepo({ 'docs.json': { name: 'J', navigation: { $ref: 'bad.json' } }, 'bad.json': '{ nope' }),
      ),
    ).toContain('bad.json is not valid JSON');
  });

  describe('hostile references', () => {
    it('never reads outside the repository, by .. or by a symlink', async () => {
      expect(
        await failure(docsRepo({ 'docs.json': { name: 'O', navigation: { $ref: '../../etc/passwd' } } })),
      ).toContain('it leaves the repository');
      const outside = docsRepo({ 'secret.json': { groups: [] } });
      expect(
        await failure(
          docsRepo(
            { 'docs.json': { name: 'S', navigation: { $ref: 'link.json' } } },
            { 'link.json': `${outside}/secret.json` },
          ),
        ),
      ).toContain('a symlink leading outside the repository');
    });

    it('stops a reference bomb (each file referring twice to the next) at the file budget', async () => {
      const files: Record<string, object> = {
        'docs.json': { name: 'Bomb', navigation: { $ref: 'f0.json' } },
      };
      for (let i = 0; i < 40; i++)
        files[`f${i}.json`] = { a: { $ref: `f${i + 1}.json` }, b: { $ref: `f${i + 1}.json` } };
      files['f40.json'] = { groups: [] };
      const started = Date.now();
      expect(await failure(docsRepo(files))).toContain('more than 1000 files referenced');
      expect(Date.now() - started).toBeLessThan(5_000);
    });

    it('resolves no $ref past the document depth budget, and names one it would have to', async () => {
      const deepRef = `${'['.repeat(100_000)}{"$ref": "x.json"}${']'.repeat(100_000)}`;
      expect(
        await failure(
          docsRepo({
            'docs.json': { name: 'Deep', navigation: { groups: { $ref: 'deep.json' } } },
            'deep.json': deepRef,
            'x.json': [],
          }),
        ),
      ).toContain('a $ref nested deeper than 256 levels');
      // Without a $ref, deep JSON is left to the settings' own checks, never a stack overflow.
      const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
      const message = await failure(
        docsRepo({
          'docs.json': { name: 'Deep', navigation: { groups: { $ref: 'deep.json' } } },
          'deep.json': deep,
        }),
      );
      expect(message).not.toMatch(/call stack|Maximum/);
    });
  });
});
