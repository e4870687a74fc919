import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { MANIFEST_FILE } from '../../../src/export/pipeline.ts';
import { CORPORA, EXAMPLE_SITE, HAVE_CORPORA, syntheticSite, tempDir, withoutCorpora } from '../fixtures.ts';

const run = promisify(execFile);
const repo = fileURLToPath(new URL('../../../', import.meta.url));
const addon = join(repo, 'native/markdown/docsnap-markdown.node');

/** Exports with one parser forced, in a child process (the parser is chosen when the module loads). */
async function exportWith(
  parser: 'js' | 'native',
  source: string,
): Promise<{ files: Record<string, string>; warnings: string }> {
  const out = join(tempDir(), parser);
  const { stdout } = await run(
    process.execPath,
    [join(repo, 'src/cli/main.ts'), 'export', source, '--out-dir', out, '--deployment', 'air-gapped'],
    {
      env: { ...process.env, DOCSNAP_MARKDOWN_PARSER: parser },
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  const manifest = JSON.parse(readFileSync(join(out, MANIFEST_FILE), 'utf8')) as {
    files: Record<string, string>;
  };
  return { files: manifest.files, warnings: stdout.slice(stdout.indexOf('warning')) };
}

describe('the native parser (markdown-rs) against micromark', () => {
  it('is built (tools/build-native.sh, run by the test setup)', () => {
    expect(existsSync(addon), `${addon} is missing: run npm run native:build`).toBe(true);
  });

  const sameOutput = async (source: string) => {
    const [js, native] = await Promise.all([exportWith('js', source), exportWith('native', source)]);
    const differing = Object.keys({ ...js.files, ...native.files }).filter(
      (f) => js.files[f] !== native.files[f],
    );
    expect(differing).toEqual([]);
    expect(native.warnings).toBe(js.warnings);
  };

  it.each([
    ['the example site', () => EXAMPLE_SITE],
    ['a synthetic site', () => syntheticSite(300, 3).dir],
  ])('exports %s to the same files with the same warnings', { timeout: 180_000 }, async (_name, source) => {
    await sameOutput(source());
  });

  it.skipIf(!HAVE_CORPORA).each([
    ['mcp-docs', join(CORPORA, 'mcp-docs')],
    ['novu-docs', join(CORPORA, 'novu-docs')],
  ])(
    withoutCorpora('exports %s to the same files with the same warnings'),
    { timeout: 180_000 },
    async (_name, source) => {
      await sameOutput(source);
    },
  );
});
