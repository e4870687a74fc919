import { Command } from 'commander';
import { packageVersion } from '../version.ts';
import { agentJobsCommand, apiCommand, jobsCommand, keysCommand } from './api-commands.ts';
import { exportCommand } from './export-command.ts';
import { operatorCommand } from './operator-command.ts';
import { serveCommand } from './serve-command.ts';

/** Builds the `docsnap` command tree. Commands are wiring only: the work lives in the layers below. */
export function buildProgram(): Command {
  return (
    new Command('docsnap')
      .description(
        'Static exports of documentation sites: render a docs repository into one archive, serve the Admin API, ' +
          'run the Kubernetes operator that keeps bundle links fresh, and serve a bundle.',
      )
      .version(packageVersion(), '-V, --version', 'print the docsnap version')
      .showHelpAfterError()
      // Options of the program come before the command, so a command may have its own --version.
      .enablePositionalOptions()
      .configureHelp({ sortSubcommands: true })
      .addCommand(exportCommand())
      .addCommand(apiCommand())
      .addCommand(keysCommand())
      .addCommand(jobsCommand())
      .addCommand(agentJobsCommand())
      .addCommand(operatorCommand())
      .addCommand(serveCommand())
  );
}
