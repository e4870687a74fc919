import { readFileSync } from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import { AdminClient } from '../client/admin-client.ts';
import { progressView } from './progress.ts';

// The server, its storage and its services are imported by the commands that use them: every
// other command (the operator above all) would carry their code in memory for nothing.

/** `docsnap api --config FILE`: serves the Admin API until SIGINT/SIGTERM. */
export function apiCommand(): Command {
  return new Command('api')
    .description('serve the Admin API (agent jobs and static export jobs) described by a configuration file')
    .requiredOption('-c, --config <file>', 'configuration file (YAML)')
    .option('--log-level <level>', 'pino log level', 'info')
    .action(async (flags: { config: string; logLevel: string }) => {
      const { loadApiConfig } = await import('../api/config-file.ts');
      const { startApi } = await import('../api/start.ts');
      const config = loadApiConfig(flags.config);
      const api = await startApi(config, { logLevel: flags.logLevel });
      const stop = async () => {
        api.app.log.info('shutting down: running exports resume on the next start');
        await api.close();
        process.exit(0);
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
}

/** `docsnap keys create|list|revoke --config FILE`: admin keys in the API's storage. */
export function keysCommand(): Command {
  const configOption = () =>
    new Option(
      '-c, --config <file>',
      'the API configuration file (for its storage and key prefix)',
    ).makeOptionMandatory();
  return new Command('keys')
    .description('manage admin API keys')
    .addCommand(
      new Command('create')
        .description(
          'create an admin key for an organization; it is printed once and only its hash is stored',
        )
        .addOption(configOption())
        .requiredOption('--org <id>', 'organization the key belongs to')
        .action(async (flags: { config: string; org: string }) => {
          const { config, keys } = await openKeys(flags.config);
          if (!config.organizations.some((o) => o.id === flags.org))
            throw new InvalidArgumentError(`no organization "${flags.org}" in ${flags.config}`);
          process.stdout.write(`${await keys.create(flags.org)}\n`);
        }),
    )
    .addCommand(
      new Command('list')
        .description("list the keys: id (the start of the key's sha256), organization, creation time")
        .addOption(configOption())
        .option('--org <id>', 'only the keys of this organization')
        .action(async (flags: { config: string; org?: string }) => {
          const { keys } = await openKeys(flags.config);
          for (const record of await keys.list())
            if (!flags.org || record.organization === flags.org)
              process.stdout.write(
                `${record.sha256.slice(0, 16)}  ${record.organization}  ${record.createdAt}\n`,
              );
        }),
    )
    .addCommand(
      new Command('revoke')
        .description('revoke a key by its id (from `keys list`); servers refuse it within auth.keyRefresh')
        .addOption(configOption())
        .argument('<id>', 'the key id: at least 8 hex digits of its sha256')
        .action(async (id: string, flags: { config: string }) => {
          const { keys } = await openKeys(flags.config);
          const record = await keys.revoke(id);
          process.stdout.write(`revoked ${record.sha256.slice(0, 16)} (${record.organization})\n`);
        }),
    );
}

async function openKeys(configFile: string) {
  const { loadApiConfig } = await import('../api/config-file.ts');
  const { ApiKeys } = await import('../service/api-keys.ts');
  const { openObjectStore } = await import('../storage/open-store.ts');
  const config = loadApiConfig(configFile);
  return {
    config,
    keys: new ApiKeys(
      openObjectStore(config.storage, () => ''),
      config.auth.keyPrefix,
    ),
  };
}

const apiUrlOption = () =>
  new Option('--api-url <url>', 'Admin API base URL').env('DOCSNAP_API_URL').makeOptionMandatory();
const adminKeyOption = () =>
  new Option('--admin-key <key>', 'admin key (prefer the environment variable: flags show in ps)')
    .env('DOCSNAP_ADMIN_KEY')
    .makeOptionMandatory();

function client(flags: { apiUrl: string; adminKey: string }): AdminClient {
  return new AdminClient({ baseUrl: flags.apiUrl, adminKey: flags.adminKey });
}

function print(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** `docsnap jobs start|status|bundle`: static export jobs through the Admin API. */
export function jobsCommand(): Command {
  return new Command('jobs')
    .description('static export jobs through an Admin API (docsnap api or the original product)')
    .addCommand(
      new Command('start')
        .description('start a static export; with --wait, follow it and print the bundle link')
        .requiredOption('--domain <hostname>', 'documentation domain to export')
        .option('--export-version <label>', 'version label of the export')
        .option('--paths <routes...>', 'only these pages')
        .option('--wait', 'wait for the export, show progress, then print the bundle link')
        .addOption(apiUrlOption())
        .addOption(adminKeyOption())
        .action(async (flags) => {
          const api = client(flags);
          const job = await api.startExport({
            domain: flags.domain,
            version: flags.exportVersion,
            paths: flags.paths,
          });
          if (!flags.wait) return print(job);
          const view = progressView();
          const done = await api
            .waitForExport(job.jobId, {
              intervalMs: 1000,
              onProgress: (j) => view.update(j.progress, `${j.status} ${j.pageCount} pages`),
            })
            .finally(() => view.done());
          if (done.status === 'failed') throw new Error(`export ${done.jobId} failed: ${done.error}`);
          const bundle = await api.requestBundle(done.jobId);
          process.stderr.write(
            `export ${done.jobId}: ${done.pageCount} pages, ${bundle.sizeBytes} bytes; link valid until ${bundle.expiresAt}\n`,
          );
          process.stdout.write(`${bundle.bundleUrl}\n`);
        }),
    )
    .addCommand(
      new Command('status')
        .description('print a static export job')
        .argument('<jobId>')
        .addOption(apiUrlOption())
        .addOption(adminKeyOption())
        .action(async (jobId: string, flags) => print(await client(flags).getExport(jobId))),
    )
    .addCommand(
      new Command('bundle')
        .description('print a fresh bundle link of a completed job (and its size and expiry)')
        .argument('<jobId>')
        .addOption(apiUrlOption())
        .addOption(adminKeyOption())
        .action(async (jobId: string, flags) => print(await client(flags).requestBundle(jobId))),
    );
}

/** `docsnap agent-jobs get|import`. */
export function agentJobsCommand(): Command {
  return new Command('agent-jobs')
    .description('agent jobs: read one through an Admin API, or import records into a docsnap api store')
    .addCommand(
      new Command('get')
        .description('print an agent job and its pull request link; exit 0 when completed, 1 when failed')
        .argument('<projectId>')
        .argument('<id>')
        .option('--wait', 'poll until the job is completed, archived or failed')
        .addOption(apiUrlOption())
        .addOption(adminKeyOption())
        .action(async (projectId: string, id: string, flags) => {
          const api = client(flags);
          const job = flags.wait
            ? await api.waitForAgentJob(projectId, id, { intervalMs: 2000 })
            : await api.getAgentJob(projectId, id);
          print(job);
          if (job.prLink) process.stderr.write(`pull request: ${job.prLink}\n`);
          if (job.status === 'failed') process.exitCode = 1;
        }),
    )
    .addCommand(
      new Command('import')
        .description('store agent job records (one, or a JSON list) where docsnap api reads them')
        .argument('<file>', 'JSON file: AgentJob fields plus projectId')
        .requiredOption('-c, --config <file>', 'the API configuration file (for its storage)')
        .action(async (file: string, flags: { config: string }) => {
          const { loadApiConfig } = await import('../api/config-file.ts');
          const { AgentJobs } = await import('../service/agent-jobs.ts');
          const { openObjectStore } = await import('../storage/open-store.ts');
          const config = loadApiConfig(flags.config);
          let raw: unknown;
          try {
            raw = JSON.parse(readFileSync(file, 'utf8'));
          } catch (error) {
            throw new InvalidArgumentError(`${file}: ${(error as Error).message}`);
          }
          const count = await new AgentJobs(openObjectStore(config.storage, () => '')).import(raw, file);
          process.stdout.write(`imported ${count} agent job${count === 1 ? '' : 's'}\n`);
        }),
    );
}
