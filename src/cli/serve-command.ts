import cluster from 'node:cluster';
import { availableParallelism } from 'node:os';
import { Command, InvalidArgumentError, Option } from 'commander';
import { createLogger } from '../api/logging.ts';
import { DeploymentKind } from '../contract/deployment.ts';
import { parseListen, wholeNumber } from './flags.ts';

/** `docsnap serve`: fetches the bundle a deployment's values name and serves it until SIGTERM. */
export function serveCommand(): Command {
  return new Command('serve')
    .description(
      'serve a static export: fetch the bundle from staticExport.bundleUrl, verify it, serve it, swap in new versions',
    )
    .option(
      '--values <file>',
      'Helm values file (a mounted Secret or ConfigMap); only staticExport.* is read, and the file is watched',
    )
    .option(
      '--values-secret <namespace/name[:key]>',
      'also watch the Secret behind the values file through the Kubernetes API (key: values.yaml): a change arrives seconds before kubelet updates the file',
    )
    .option('--values-configmap <namespace/name[:key]>', 'the same for a ConfigMap')
    .option('--bundle-url <url>', 'a bundle link, for a quick start without a values file')
    .option(
      '--version <version>',
      'with --bundle-url: the version ("sha256:<hex>" is checked against the archive)',
    )
    .option('--listen <host:port>', 'where the site is served', '0.0.0.0:8080')
    .option(
      '--admin-listen <host:port>',
      'where /healthz, /readyz and /metrics are served ("" for nowhere)',
      '0.0.0.0:9090',
    )
    .option(
      '--cache-dir <dir>',
      'verified bundles, kept across restarts (an emptyDir or a volume)',
      '/tmp/docsnap-serve',
    )
    .addOption(
      new Option('--deployment <kind>', 'deployment kind of the site: sets the Content-Security-Policy')
        .choices(DeploymentKind.options)
        .default('cloud'),
    )
    .option('--frame-ancestors <sources>', 'CSP frame-ancestors: who may show the site in a frame', "'self'")
    .option(
      '--workers <n>',
      'processes answering requests (like nginx worker_processes; the default is one per CPU the process may use)',
      wholeNumber('--workers', 1),
    )
    .option('--log-level <level>', 'pino log level', 'info')
    .action(
      async (flags: {
        values?: string;
        valuesSecret?: string;
        valuesConfigmap?: string;
        bundleUrl?: string;
        version?: string;
        listen: string;
        adminListen: string;
        cacheDir: string;
        deployment: DeploymentKind;
        frameAncestors: string;
        logLevel: string;
        workers?: number;
      }) => {
        const watched = flags.valuesSecret ?? flags.valuesConfigmap;
        if (!(flags.values || watched) === !flags.bundleUrl)
          throw new InvalidArgumentError(
            'give either --values FILE (and/or --values-secret, --values-configmap) or --bundle-url URL',
          );
        if (flags.valuesSecret && flags.valuesConfigmap)
          throw new InvalidArgumentError('give --values-secret or --values-configmap, not both');
        const listen = parseListen(flags.listen, '--listen') || { host: '0.0.0.0', port: 8080 };
        const log = createLogger({ level: flags.logLevel });
        // A serving process of `--workers N`: forked with the same arguments, it only serves.
        if (cluster.isWorker) {
          const { runSiteWorker } = await import('../serve/cluster.ts');
          await runSiteWorker({
            listen,
            deployment: flags.deployment,
            frameAncestors: flags.frameAncestors,
            log,
          });
          return;
        }
        const { startBundleServer } = await import('../serve/bundle-server.ts');
        const { StaticExportValues } = await import('../contract/site-values.ts');
        const server = await startBundleServer({
          source: !flags.bundleUrl
            ? { valuesFile: flags.values, valuesObject: await valuesObject(flags) }
            : {
                values: StaticExportValues.parse({
                  enabled: true,
                  bundleUrl: flags.bundleUrl,
                  version: flags.version,
                }),
              },
          listen,
          adminListen: parseListen(flags.adminListen, '--admin-listen'),
          cacheDir: flags.cacheDir,
          deployment: flags.deployment,
          frameAncestors: flags.frameAncestors,
          log,
          workers: flags.workers ?? availableParallelism(),
        });
        const stop = async (signal: string) => {
          log.info({ signal }, 'shutting down: requests in flight finish');
          await server.stop();
          process.exit(0);
        };
        process.once('SIGINT', () => void stop('SIGINT'));
        process.once('SIGTERM', () => void stop('SIGTERM'));
      },
    );
}

/** The Secret or ConfigMap to watch, with the kubeconfig of the pod (or of KUBECONFIG). */
async function valuesObject(flags: { valuesSecret?: string; valuesConfigmap?: string }) {
  const text = flags.valuesSecret ?? flags.valuesConfigmap;
  if (!text) return undefined;
  const { parseValuesObject } = await import('../serve/values-object.ts');
  const { KubeConfig } = await import('@kubernetes/client-node');
  let ref: ReturnType<typeof parseValuesObject>;
  try {
    ref = flags.valuesSecret
      ? parseValuesObject('Secret', text, '--values-secret')
      : parseValuesObject('ConfigMap', text, '--values-configmap');
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromDefault();
  return { ref, kubeConfig };
}
