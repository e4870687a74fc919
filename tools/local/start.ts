/**
 * `npm start`: the whole product on one machine, left running until Ctrl-C. A Kubernetes control
 * plane (the kube-apiserver and etcd the tests build, or the cluster of --kubeconfig), the CRD and
 * RBAC, `docsnap api` with local storage for an example organization, `docsnap operator`, the
 * example's StaticExport from examples/kubernetes/, and `docsnap serve` serving what the operator
 * publishes. Everything lives in one data directory, so the next start reuses it.
 */
import { Command, InvalidArgumentError } from 'commander';
import { LocalStack } from './local-stack.ts';

const REPO = new URL('../..', import.meta.url).pathname;

const port = (flag: string) => (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 65_535)
    throw new InvalidArgumentError(`${flag} must be a port (1–65535)`);
  return n;
};

const program = new Command('npm start --')
  .description(
    'run docsnap locally: a Kubernetes control plane, docsnap api, docsnap operator and docsnap serve, exporting an example docs site',
  )
  .option(
    '--data-dir <dir>',
    'where the control plane, the API store, bundles and logs live (kept between starts)',
    `${REPO}.docsnap`,
  )
  .option(
    '--kubeconfig <file>',
    'use this cluster instead of starting a local control plane (default: $KUBECONFIG when set)',
  )
  .option(
    '--example <name>',
    'which example to export: a docs site examples/NAME with examples/kubernetes/NAME.yaml',
    'docs-site',
  )
  .option('--api-port <port>', 'port of docsnap api', port('--api-port'), 8080)
  .option('--site-port <port>', 'port of docsnap serve (the exported site)', port('--site-port'), 8081)
  .option(
    '--operator-port <port>',
    "port of the operator's /metrics, /healthz and /readyz",
    port('--operator-port'),
    8082,
  )
  .option(
    '--kube-port <port>',
    'port of the local kube-apiserver (default: a free one, then the same)',
    port('--kube-port'),
  )
  .showHelpAfterError();

program.parse();
const flags = program.opts<{
  dataDir: string;
  kubeconfig?: string;
  example: string;
  apiPort: number;
  sitePort: number;
  operatorPort: number;
  kubePort?: number;
}>();

const stack = new LocalStack();
let stopping = false;
const stop = async (code: number) => {
  if (stopping) return;
  stopping = true;
  console.log('\nstopping ...');
  await stack.stop();
  console.log('stopped: every process started here has exited');
  process.exit(code);
};
// A terminal's Ctrl-C reaches every process of the group; the children stop on their own signal
// and stop() waits for each.
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));

try {
  await stack.start({
    repo: REPO,
    dataDir: flags.dataDir,
    kubeconfig: flags.kubeconfig ?? (process.env.KUBECONFIG || undefined),
    example: flags.example,
    ports: { api: flags.apiPort, site: flags.sitePort, operator: flags.operatorPort, kube: flags.kubePort },
    say: (line) => console.log(line),
  });
} catch (error) {
  console.error(`\nnpm start failed: ${(error as Error).message}`);
  await stop(1);
}
