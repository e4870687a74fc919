import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isAlive } from '../../src/service/job-work-dirs.ts';

/** A server process started for tests; its output goes to a log file, quoted when it fails. */
export interface ManagedProcess {
  readonly name: string;
  readonly logFile: string;
  readonly child: ChildProcess;
  /** SIGTERM, then SIGKILL after a grace period; resolves once the process is gone. */
  stop(): Promise<void>;
  /** The last lines of the log, for error messages. */
  tail(lines?: number): string;
}

const running = new Set<ChildProcess>();

// Last line of defence: whatever happens to the test run, no server outlives it.
// `exit` handlers must be synchronous, so this only sends SIGKILL.
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

// setpriv makes the kernel kill the child if this process dies without running its handlers
// (SIGKILL, OOM), which neither `exit` handlers nor detached process groups can promise.
const pdeathsig = existsSync('/usr/bin/setpriv') ? ['/usr/bin/setpriv', '--pdeathsig', 'KILL', '--'] : [];

export function startProcess(name: string, binary: string, args: string[], logFile: string): ManagedProcess {
  const out = openSync(logFile, 'a');
  const [command, ...prefix] = [...pdeathsig, binary];
  const child = spawn(command as string, [...prefix, ...args], { stdio: ['ignore', out, out] });
  running.add(child);
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => {
      running.delete(child);
      resolve();
    });
    child.once('error', () => {
      running.delete(child);
      resolve();
    });
  });
  const tail = (lines = 30) => {
    try {
      return readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
    } catch {
      return '';
    }
  };
  return {
    name,
    logFile,
    child,
    tail,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** A TCP port on 127.0.0.1 that was free a moment ago (the kernel picks it). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}

/** Whether a TCP port on 127.0.0.1 can be listened on now. */
export async function isFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

/** Polls `probe` until it resolves true; fails with `describe()` when the deadline passes or `alive()` turns false. */
export async function waitFor(
  what: string,
  probe: () => Promise<boolean>,
  { timeoutMs, alive, describe }: { timeoutMs: number; alive: () => boolean; describe: () => string },
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError = '';
  while (Date.now() < deadline) {
    if (!alive()) throw new Error(`${what}: the process exited.\n${describe()}`);
    try {
      if (await probe()) return;
    } catch (error) {
      lastError = String(error);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what}: not ready after ${timeoutMs} ms (${lastError}).\n${describe()}`);
}

/**
 * Runs tools/envtest/build.sh, which builds the test servers when they are missing (the first run
 * takes a while, see README) and prints where they are; cached binaries make it a no-op. `quiet`
 * leaves out its log lines (the test setup has built them already and said so).
 */
export function locateTestServers(
  repoRoot: string,
  { quiet = false } = {},
): { envtestDir: string; s3Dir: string } {
  const output = execFileSync('bash', [`${repoRoot}/tools/envtest/build.sh`], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', quiet ? 'pipe' : 'inherit'],
  });
  const value = (key: string) => {
    const match = new RegExp(`^${key}=(.*)$`, 'm').exec(output);
    if (!match?.[1]) throw new Error(`tools/envtest/build.sh printed no ${key}`);
    return match[1];
  };
  return { envtestDir: value('ENVTEST_DIR'), s3Dir: value('S3_DIR') };
}

/**
 * A temporary directory named after this process (`docsnap-<kind>-<pid>-XXXXXX`). Directories of
 * runs whose process is gone (killed before it could clean up) are removed on the way.
 */
export function makeWorkDir(kind: string): string {
  const prefix = `docsnap-${kind}-`;
  for (const entry of readdirSync(tmpdir())) {
    const pid = Number(entry.startsWith(prefix) ? entry.slice(prefix.length).split('-')[0] : Number.NaN);
    if (Number.isInteger(pid) && pid > 0 && !isAlive(pid))
      rmSync(join(tmpdir(), entry), { recursive: true, force: true });
  }
  return mkdtempSync(join(tmpdir(), `${prefix}${process.pid}-`));
}
