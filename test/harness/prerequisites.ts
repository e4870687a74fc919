import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { HAVE_CORPORA, WITHOUT_CORPORA } from '../export/corpora.ts';

/**
 * Global setup shared by both projects: what the tests need beyond node_modules, before any test
 * runs. First every system tool the project's tests need (or its builds, when their output is not
 * cached yet) is looked for, and the run stops with the command that installs each missing one;
 * then each build step runs its script, which builds only what its cache lacks, one line per step.
 */

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const CHROMIUM = '/usr/bin/chromium';

interface Tool {
  name: string;
  /** Why the tests need it, in the message that asks for it. */
  purpose: string;
  present(): boolean;
  install: string;
}

interface BuildStep {
  name: string;
  /** A bash script under tools/: with --check it exits 0 when its output is cached. */
  script: string;
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

const TOOLS = {
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

const NATIVE_PARSER: BuildStep = {
  name: 'native Markdown parser',
  script: 'tools/build-native.sh',
  tools: [TOOLS.cargo],
  firstBuild: 'under a minute',
};
const TEST_SERVERS: BuildStep = {
  name: 'test servers (kube-apiserver, etcd, kubectl, versitygw)',
  script: 'tools/envtest/build.sh',
  tools: [TOOLS.go],
  firstBuild: 'tens of minutes on 2 cores: Kubernetes from the Go module proxy',
};
const SCHEMATHESIS: BuildStep = {
  name: 'schemathesis virtualenv',
  script: 'tools/schemathesis/build.sh',
  tools: [TOOLS.python],
  firstBuild: 'a minute or two: packages from PyPI',
};

const NEEDS: Record<string, { tools: Tool[]; steps: BuildStep[] }> = {
  unit: { tools: [TOOLS.git, TOOLS.chromium], steps: [NATIVE_PARSER] },
  integration: { tools: [TOOLS.git], steps: [TEST_SERVERS, SCHEMATHESIS] },
};

const cached = (step: BuildStep) => runs('bash', `${REPO}/${step.script}`, '--check');

/** Runs a build script, printing one line when it starts building and one when it is done. */
function build(label: string, step: BuildStep): Promise<void> {
  const started = Date.now();
  console.log(`${label} ${step.name}: building (the first build takes ${step.firstBuild}) ...`);
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [`${REPO}/${step.script}`], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const seconds = Math.round((Date.now() - started) / 1000);
      if (code === 0) {
        console.log(`${label} ${step.name}: built in ${seconds} s`);
        resolve();
      } else {
        reject(new Error(`${step.script} failed (exit ${code}) after ${seconds} s:\n${output}`));
      }
    });
  });
}

export default async function prerequisites(project: TestProject): Promise<(() => void) | undefined> {
  const label = `[${project.name}]`;
  // npm scripts run on the pinned Node (the `node` devDependency): the first line says which.
  console.log(`${label} node ${process.version}`);
  const needs = NEEDS[project.name];
  if (!needs) return;
  const toBuild = needs.steps.filter((step) => !cached(step));
  const wanted = [...needs.tools, ...toBuild.flatMap((step) => step.tools)];
  const missing = wanted.filter((tool) => !tool.present());
  if (missing.length > 0) {
    // The whole run stops here, before any test (or any other project's build) starts.
    console.error(
      [
        `${label} missing system tools: install them and run the tests again.`,
        ...missing.map((tool) => `  ${tool.name} (${tool.purpose}):\n      ${tool.install}`),
      ].join('\n'),
    );
    process.exit(1);
  }
  for (const step of needs.steps) {
    if (toBuild.includes(step)) await build(label, step);
    else console.log(`${label} ${step.name}: cached`);
  }
  if (project.name === 'unit' && !HAVE_CORPORA) {
    const notice = `${label} ${WITHOUT_CORPORA}: the tests over real corpora are skipped`;
    console.log(notice);
    // Said again once the tests are done, next to the summary that counts them.
    return () => console.log(notice);
  }
}
