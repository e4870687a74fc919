import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * What the project needs beyond node_modules, for its tests (test/harness/prerequisites.ts) and
 * for `npm start`: the system tools, with the command that installs each, and the build steps,
 * each a script under tools/ that builds only what its cache lacks.
 */

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const CHROMIUM = '/usr/bin/chromium';

export interface Tool {
  name: string;
  /** Why the tests need it, in the message that asks for it. */
  purpose: string;
  present(): boolean;
  install: string;
}

export interface BuildStep {
  name: string;
  /** A bash script under tools/: with --check it exits 0 when its output is cached. */
  script: string;
  /** Arguments of the script, with or without --check. */
  args?: string[];
  /** Tools the script needs to build. */
  tools: Tool[];
  /** How long the first build takes on a small machine, shown while it runs. */
  firstBuild: string;
}

const runs = (command: string, ...args: string[]) =>
  spawnSync(command, args, { stdio: 'ignore' }).status === 0;

/** The Go the test servers' modules ask for (`go 1.26.0` in tools/envtest/*\/go.mod). */
function goIsRecent(): boolean {
  const version = spawnSync('go', ['env', 'GOVERSION'], { encoding: 'utf8' }).stdout?.trim() ?? '';
  const [major = 0, minor = 0] = (/^go(\d+)\.(\d+)/.exec(version) ?? []).slice(1).map(Number);
  return major > 1 || (major === 1 && minor >= 26);
}

const goArch = process.arch === 'arm64' ? 'arm64' : 'amd64';

export const TOOLS = {
  git: {
    name: 'git',
    purpose: 'git sources and the git server of the tests',
    present: () => runs('git', '--version'),
    install: 'apt-get install git',
  },
  chromium: {
    name: 'Chromium',
    purpose: 'the browser and accessibility tests',
    present: () => existsSync(CHROMIUM),
    install: 'apt-get install chromium',
  },
  cargo: {
    name: 'cargo (Rust)',
    purpose: 'builds the native Markdown parser',
    present: () => runs('cargo', '--version'),
    install: "curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh -s -- -y",
  },
  go: {
    name: 'Go 1.26 or newer',
    purpose: "builds the test servers; Debian's golang package is older",
    present: goIsRecent,
    install: `curl -fsSL https://go.dev/dl/go1.26.8.linux-${goArch}.tar.gz | tar -C /usr/local -xz && export PATH="$PATH:/usr/local/go/bin"`,
  },
  python: {
    name: 'Python 3 with venv',
    purpose: 'installs schemathesis, the API fuzzer',
    // tools/schemathesis/build.sh prefers a newer interpreter; any python3 with venv will do.
    present: () => runs('python3', '-c', 'import venv, ensurepip'),
    install: 'apt-get install python3 python3-venv',
  },
} satisfies Record<string, Tool>;

export const NATIVE_PARSER: BuildStep = {
  name: 'native Markdown parser',
  script: 'tools/build-native.sh',
  tools: [TOOLS.cargo],
  firstBuild: 'under a minute',
};
export const TEST_SERVERS: BuildStep = {
  name: 'test servers (kube-apiserver, etcd, kubectl, versitygw)',
  script: 'tools/envtest/build.sh',
  tools: [TOOLS.go],
  firstBuild: 'tens of minutes on 2 cores: Kubernetes from the Go module proxy',
};
/** What `npm start` runs: the Kubernetes servers alone. */
export const KUBERNETES_SERVERS: BuildStep = {
  ...TEST_SERVERS,
  name: 'Kubernetes servers (kube-apiserver, etcd, kubectl)',
  args: ['--kubernetes-only'],
  firstBuild: 'about 10 minutes on 2 cores, once: Kubernetes from the Go module proxy',
};
export const SCHEMATHESIS: BuildStep = {
  name: 'schemathesis virtualenv',
  script: 'tools/schemathesis/build.sh',
  tools: [TOOLS.python],
  firstBuild: 'a minute or two: packages from PyPI',
};

export const cached = (step: BuildStep) =>
  runs('bash', `${REPO}/${step.script}`, '--check', ...(step.args ?? []));

/**
 * Runs a build script, printing one line when it starts building and one when it is done. With
 * `progress`, the script's own lines ("building kube-apiserver ...") are shown as they come, and
 * on a terminal a clock counts the minutes of a long first build.
 */
export function build(label: string, step: BuildStep, { progress = false } = {}): Promise<void> {
  const started = Date.now();
  const elapsed = () =>
    `${Math.floor((Date.now() - started) / 60_000)}m${String(Math.floor((Date.now() - started) / 1000) % 60).padStart(2, '0')}s`;
  console.log(`${label} ${step.name}: building (the first build takes ${step.firstBuild}) ...`);
  const clock =
    progress && process.stdout.isTTY
      ? setInterval(() => process.stdout.write(`\r${label} building ... ${elapsed()} `), 1000)
      : undefined;
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [`${REPO}/${step.script}`, ...(step.args ?? [])], {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk;
      if (progress)
        process.stdout.write(`${clock ? '\r' : ''}${chunk.toString().replace(/^(?=.)/gm, `${label} `)}`);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(clock);
      const seconds = Math.round((Date.now() - started) / 1000);
      if (code === 0) {
        console.log(`${clock ? '\r' : ''}${label} ${step.name}: built in ${seconds} s`);
        resolve();
      } else {
        reject(new Error(`${step.script} failed (exit ${code}) after ${seconds} s:\n${output}`));
      }
    });
  });
}
