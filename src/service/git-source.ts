import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { SourceUnavailable } from './errors.ts';

/** HTTP basic credentials for a git server (a token usually goes in `password`). */
export interface GitCredentials {
  username: string;
  password: string;
}

export interface GitRemoteOptions {
  credentials?: GitCredentials;
  signal?: AbortSignal;
  /** The whole operation fails after this long; default 60 s for ls-remote, 10 min for a checkout. */
  timeoutMs?: number;
}

export interface GitCheckoutOptions extends GitRemoteOptions {
  /** Check out exactly this commit (full sha) rather than whatever `ref` points at now. */
  revision?: string;
}

/** What went wrong, for callers that retry some failures and not others. */
export type GitFailure = 'auth' | 'unreachable' | 'not-found' | 'moved' | 'timeout' | 'failed';

/** A SourceUnavailable: its message is written for the caller, with no secret in it. */
export class GitSourceError extends SourceUnavailable {
  readonly failure: GitFailure;
  constructor(failure: GitFailure, message: string) {
    super(message);
    this.name = 'GitSourceError';
    this.failure = failure;
  }
}

const FULL_SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/i;

// How git (and curl beneath it) words the failures callers treat differently.
const AUTH_FAILED = /Authentication failed|could not read (Username|Password)|returned error: 40[13]/i;
const UNREACHABLE =
  /Could not resolve host|Failed to connect|Couldn't connect|Connection (refused|reset|timed out)|Operation too slow|Empty reply from server/i;
const NO_REPOSITORY = /repository '[^']*' not found|returned error: 404/i;

/**
 * The commit `ref` points at on the server: a branch or tag name (as `git fetch` would pick it),
 * a full ref name, or a full sha, which is returned as is without asking the server.
 */
export async function resolveGitRevision(
  url: string,
  ref: string,
  options: GitRemoteOptions = {},
): Promise<string> {
  if (FULL_SHA.test(ref)) return ref.toLowerCase();
  const git = remoteGit(url, ref, options, 60_000);
  // Patterns match whole names, so an annotated tag's peeled line (`name^{}`) needs its own.
  const listing = await git(['ls-remote', '--exit-code', '--', url, ref, `${ref}^{}`], {
    refMissingOnExit2: true,
  });
  const refs = new Map<string, string>();
  for (const line of listing.split('\n')) {
    const [sha, name] = line.split('\t');
    if (sha && name) refs.set(name, sha);
  }
  // git's own precedence for a short name (ref_rev_parse_rules); `^{}` is the commit an annotated tag points at.
  for (const name of [ref, `refs/${ref}`, `refs/tags/${ref}`, `refs/heads/${ref}`, `refs/remotes/${ref}`]) {
    const sha = refs.get(`${name}^{}`) ?? refs.get(name);
    if (sha) return sha;
  }
  throw notFound(url, ref);
}

/**
 * Fetches one commit of a git repository (shallow) into `dir` and checks it out detached: `ref`'s
 * current commit, or exactly `revision`. A server that refuses to send a commit by sha (protocol v0
 * without allow-*-sha1-in-want) is asked for `ref` instead, which must still be at `revision`.
 */
export async function checkoutGit(
  url: string,
  ref: string,
  dir: string,
  options: GitCheckoutOptions = {},
): Promise<{ dir: string; revision: string }> {
  if (options.revision !== undefined && !FULL_SHA.test(options.revision))
    throw new GitSourceError('failed', `revision must be a full commit sha, not "${options.revision}"`);
  const revision = options.revision?.toLowerCase();
  await mkdir(dir, { recursive: true });
  const git = remoteGit(url, ref, options, 10 * 60_000, dir);
  await git(['init', '--quiet']);
  let refusal: string | undefined;
  if (revision) {
    try {
      await git(['fetch', '--quiet', '--depth', '1', '--', url, revision]);
    } catch (error) {
      // Only a refusal of this sha is worth the fallback; anything else would fail the same way again.
      if (!(error instanceof GitSourceError) || error.failure !== 'failed') throw error;
      refusal = error.message.split('\n').at(-1);
    }
  }
  if (!revision || refusal) await git(['fetch', '--quiet', '--depth', '1', '--', url, ref]);
  const fetchedCommit = (await git(['rev-parse', '--verify', 'FETCH_HEAD^{commit}'])).trim();
  if (revision && fetchedCommit !== revision)
    throw new GitSourceError(
      'moved',
      `ref ${ref} of ${redactUrl(url)} moved from ${revision} to ${fetchedCommit}, and the server would not ` +
        `send ${revision} itself (${refusal})`,
    );
  await git(['checkout', '--quiet', '--detach', fetchedCommit]);
  return { dir, revision: fetchedCommit };
}

/** https://user:token@host/… → https://host/… */
export function redactUrl(text: string): string {
  return text.replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^/@\s]+@/gi, '$1');
}

/**
 * The environment git runs in. Credentials travel as an Authorization header in environment
 * config, never in arguments (readable by anyone in /proc/<pid>/cmdline) nor in the URL.
 */
export function gitEnvironment(credentials?: GitCredentials): NodeJS.ProcessEnv {
  // Scratch checkouts need no background gc or maintenance outliving the command.
  const config: [string, string][] = [['maintenance.auto', 'false']];
  if (credentials) {
    const token = Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64');
    config.push(['http.extraHeader', `Authorization: Basic ${token}`]);
    // The header goes to whatever host a redirect names; with credentials, follow none.
    config.push(['http.followRedirects', 'false']);
    // These credentials only: no helper of the machine's config is asked, or told to erase, anything.
    config.push(['credential.helper', '']);
  }
  // Entries are appended after any the environment already holds.
  const base = Number.parseInt(process.env.GIT_CONFIG_COUNT ?? '', 10) || 0;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: 'true',
    // A server that stops sending fails the transfer instead of holding it open forever.
    GIT_HTTP_LOW_SPEED_LIMIT: process.env.GIT_HTTP_LOW_SPEED_LIMIT ?? '1',
    GIT_HTTP_LOW_SPEED_TIME: process.env.GIT_HTTP_LOW_SPEED_TIME ?? '60',
  };
  config.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${base + i}`] = key;
    env[`GIT_CONFIG_VALUE_${base + i}`] = value;
  });
  env.GIT_CONFIG_COUNT = String(base + config.length);
  return env;
}

/** Removes the credentials, in any form git might echo them, and URL user info from `text`. */
function redactSecrets(text: string, credentials?: GitCredentials): string {
  let redacted = redactUrl(text).replace(/(Authorization:\s*)\S+(\s+\S+)?/gi, '$1<redacted>');
  if (credentials) {
    const basic = Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64');
    for (const secret of [basic, credentials.password]) {
      if (secret) redacted = redacted.replaceAll(secret, '<redacted>');
    }
  }
  return redacted;
}

function notFound(url: string, ref: string): GitSourceError {
  return new GitSourceError('not-found', `no branch or tag ${ref} in ${redactUrl(url)}`);
}

/** A git runner bound to one remote: failures become GitSourceErrors with clear, secret-free messages. */
function remoteGit(
  url: string,
  ref: string,
  options: GitRemoteOptions,
  defaultTimeoutMs: number,
  cwd?: string,
) {
  const { credentials, signal } = options;
  const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
  const deadline = AbortSignal.timeout(timeoutMs);
  const env = gitEnvironment(credentials);
  const where = redactUrl(url);
  return async (args: string[], { refMissingOnExit2 = false } = {}): Promise<string> => {
    const result = await runGit(args, {
      cwd,
      env,
      signal: signal ? AbortSignal.any([signal, deadline]) : deadline,
    });
    if (result.code === 0) return result.stdout;
    signal?.throwIfAborted();
    const command = `git ${args[0]} of ${where} (${ref})`;
    if (deadline.aborted)
      throw new GitSourceError('timeout', `${command} timed out after ${timeoutMs / 1000} s`);
    if (refMissingOnExit2 && result.code === 2) throw notFound(url, ref);
    const stderr = redactSecrets(result.stderr.trim(), credentials);
    if (AUTH_FAILED.test(stderr)) {
      const refused = credentials
        ? 'the server refused the credentials'
        : 'the server asks for credentials and none were given';
      throw new GitSourceError('auth', `authentication failed for ${where}: ${refused}`);
    }
    if (UNREACHABLE.test(stderr)) {
      const reason = (stderr.split('\n').at(-1) ?? '').replace(/^fatal: unable to access '[^']*': /, '');
      throw new GitSourceError('unreachable', `cannot reach ${where}: ${reason}`);
    }
    if (NO_REPOSITORY.test(stderr)) throw new GitSourceError('not-found', `no git repository at ${where}`);
    // git's own words for the rest (a missing ref, a refused sha, a corrupt pack).
    throw new GitSourceError('failed', `${command} failed: ${stderr || `exit code ${result.code}`}`);
  };
}

/**
 * Runs git in its own process group: git fetch leaves its helpers (git-remote-http) behind when it
 * is killed alone, so an abort kills the whole group.
 */
function runGit(
  args: string[],
  options: { cwd?: string; env: NodeJS.ProcessEnv; signal: AbortSignal },
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    if (options.signal.aborted) {
      resolve({ code: -1, stdout: '', stderr: '' });
      return;
    }
    const child = spawn('git', args, {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    const kill = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    };
    options.signal.addEventListener('abort', kill, { once: true });
    child.once('error', (error) => {
      options.signal.removeEventListener('abort', kill);
      reject(error);
    });
    child.once('close', (code) => {
      options.signal.removeEventListener('abort', kill);
      resolve({
        code: code ?? -1,
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderr: Buffer.concat(stderr).toString('utf8'),
      });
    });
  });
}
