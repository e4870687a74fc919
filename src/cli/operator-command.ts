import { KubeConfig } from '@kubernetes/client-node';
import { Command } from 'commander';
import { createLogger } from '../api/logging.ts';
import { startOperator } from '../operator/operator.ts';

/** `docsnap operator`: runs the StaticExport controller until SIGTERM or SIGINT. */
export function operatorCommand(): Command {
  return new Command('operator')
    .description(
      'run the Kubernetes operator: StaticExport resources drive exports and keep bundle links fresh',
    )
    .option(
      '--kubeconfig <file>',
      'kubeconfig file (default: in-cluster config, then KUBECONFIG or ~/.kube/config)',
    )
    .option('-n, --namespace <namespaces>', 'comma-separated namespaces to watch (default: all)')
    .option('--concurrency <n>', 'reconciles at once', '4')
    .option('--poll-interval <ms>', 'how often a running export is polled, in ms', '5000')
    .option('--log-level <level>', 'pino log level', 'info')
    .action(
      async (flags: {
        kubeconfig?: string;
        namespace?: string;
        concurrency: string;
        pollInterval: string;
        logLevel: string;
      }) => {
        const kubeConfig = new KubeConfig();
        if (flags.kubeconfig) kubeConfig.loadFromFile(flags.kubeconfig);
        else kubeConfig.loadFromDefault();
        const log = createLogger({ level: flags.logLevel });
        const operator = await startOperator({
          kubeConfig,
          log,
          namespaces: flags.namespace
            ?.split(',')
            .map((n) => n.trim())
            .filter(Boolean),
          concurrency: Number(flags.concurrency),
          settings: { pollIntervalMs: Number(flags.pollInterval) },
        });
        const stop = async (signal: string) => {
          log.info({ signal }, 'shutting down: reconciles in progress finish, the rest resumes from status');
          await operator.stop();
          process.exit(0);
        };
        process.once('SIGINT', () => void stop('SIGINT'));
        process.once('SIGTERM', () => void stop('SIGTERM'));
      },
    );
}
