import { readFileSync } from 'node:fs';
import { Command } from 'commander';

/** The package's own version, read from package.json (the same file in src/ and dist/ layouts). */
export function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}

/** Builds the `docsnap` command tree. Commands are wiring only: the work lives in the layers below. */
export function buildProgram(): Command {
  return new Command('docsnap')
    .description(
      'Static exports of documentation sites: render a docs repository into one archive, serve the Admin API, ' +
        'run the Kubernetes operator that keeps bundle links fresh, and serve a bundle.',
    )
    .version(packageVersion(), '-V, --version', 'print the docsnap version')
    .showHelpAfterError()
    .configureHelp({ sortSubcommands: true });
}
