import { Command } from 'commander';
import { createLogger } from '../api/logging.ts';
import { DEFAULT_CONCURRENCY } from '../operator/defaults.ts';
import { DEFAULT_TIMING, MIN_POLL_INTERVAL_MS } from '../operator/static-export/timing.ts';
import { duration, parseListen, wholeNumber } from './flags.ts';

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
    .option(
      '--concurrency <n>',
      'reconciles at once (each mostly waits on the apiserver or the exporter)',
      wholeNumber('--concurrency', 1),
      DEFAULT_CONCURRENCY,
    )
    .option(
      '--poll-interval <ms>',
      'how often a running export is polled, in ms',
      wholeNumber('--poll-interval', MIN_POLL_INTERVAL_MS),
      DEFAULT_TIMING.pollIntervalMs,
    )
    .option(
      '--listen <host:port>',
      'where /metrics, /healthz and /readyz are served ("" for nowhere)',
      '0.0.0.0:8080',
    )
    .option(
      '--export-memory-limit <MiB>',
      'memory one embedded export may use before it is stopped (default 2048)',
      wholeNumber('--export-memory-limit', 128),
    )
    .option(
      '--export-time-limit <duration>',
      'time one embedded export may take before it is stopped, like 30m (default 30m)',
      duration('--export-time-limit'),
    )
    .option(
      '--allow-source-path <dir>',
      'a directory whose contents an embedded exporter may export as spec.exporter.embedded.source.path (repeatable; default: none, path sources are refused)',
      (dir: string, dirs: string[]) => [...dirs, dir],
      [] as string[],
    )
    .option('--no-leader-elect', 'run without leader election (only ever one replica)')
    .option('--leader-election-namespace <ns>', 'namespace of the leader Lease (default: the pod’s)')
    .option('--leader-election-id <name>', 'name of the leader Lease', 'docsnap-operator')
    .option('--log-level <level>', 'pino log level', 'info')
    .action(
      async (flags: {
        kubeconfig?: string;
        namespace?: string;
        concurrency: number;
        pollInterval: number;
        listen: string;
        exportMemoryLimit?: number;
        exportTimeLimit?: number;
        allowSourcePath: string[];
        leaderElect: boolean;
        leaderElectionNamespace?: string;
        leaderElectionId: string;
        logLevel: string;
      }) => {
        // The Kubernetes client and the controller are loaded only to run it: other commands need none of it.
        const { KubeConfig } = await import('@kubernetes/client-node');
        const { startManager } = await import('../operator/manager.ts');
        const { reuseConnections } = await import('../operator/runtime/connection-reuse.ts');
        const kubeConfig = new KubeConfig();
        if (flags.kubeconfig) kubeConfig.loadFromFile(flags.kubeconfig);
        else kubeConfig.loadFromDefault();
        reuseConnections(kubeConfig);
        const log = createLogger({ level: flags.logLevel });
        const manager = await startManager({
          kubeConfig,
          log,
          listen: parseListen(flags.listen, '--listen'),
          leaderElection: flags.leaderElect
            ? { namespace: flags.leaderElectionNamespace, name: flags.leaderElectionId }
            : false,
          namespaces: flags.namespace
            ?.split(',')
            .map((n) => n.trim())
            .filter(Boolean),
          concurrency: flags.concurrency,
          settings: {
            pollIntervalMs: flags.pollInterval,
            exportLimits: { memoryMiB: flags.exportMemoryLimit, timeoutMs: flags.exportTimeLimit },
            allowedSourceRoots: flags.allowSourcePath,
          },
        });
        const stop = async (signal: string) => {
          log.info({ signal }, 'shutting down: reconciles in progress finish, the rest resumes from status');
          await manager.stop();
          process.exit(0);
        };
        process.once('SIGINT', () => void stop('SIGINT'));
        process.once('SIGTERM', () => void stop('SIGTERM'));
        if ((await manager.done) === 'lost') {
          // As controller-runtime does: a fresh process starts as a standby, with clean caches.
          log.error('exiting: leadership lost');
          process.exit(1);
        }
      },
    );
}
