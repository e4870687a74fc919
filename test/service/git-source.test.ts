import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkoutGit,
  type GitCredentials,
  GitSourceError,
  resolveGitRevision,
} from '../../src/service/git-source.ts';
import { freePort } from '../../tools/local/processes.ts';
import { EXAMPLE_SITE, tempDir } from '../export/fixtures.ts';
import { GitServer } from '../harness/git-server.ts';

const credentials: GitCredentials = { username: 'docs-reader', password: 'pw-9f3c1e77a2' };
const basicToken = Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64');

/** The error a promise rejects with; fails the test if it resolves. */
async function failure(promise: Promise<unknown>): Promise<GitSourceError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GitSourceError);
  return error as GitSourceError;
}

function expectNoSecret(text: string): void {
  expect(text).not.toContain(credentials.password);
  expect(text).not.toContain(basicToken);
}

/** Every git process still running whose command line mentions `text`. */
function gitProcessesMentioning(text: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (cmdline.includes('git') && cmdline.includes(text)) found.push(`${pid}: ${cmdline}`);
    } catch {
      // Exited meanwhile.
    }
  }
  return found;
}

describe('git sources over HTTP with credentials', () => {
  let server: GitServer;
  let url: string;
  let first: string;

  beforeAll(async () => {
    server = await GitServer.start({ auth: credentials });
    first = server.createRepo('docs', EXAMPLE_SITE);
    server.tag('docs', 'v1');
    server.tag('docs', 'light', { lightweight: true });
    url = server.repoUrl('docs');
  });
  afterAll(() => server?.stop());

  it('checks out a branch with the right credentials', async () => {
    const before = server.requestCount();
    const { dir, revision } = await checkoutGit(url, 'main', join(tempDir(), 'source'), { credentials });
    expect(existsSync(join(dir, 'docs.json'))).toBe(true);
    expect(revision).toBe(first);
    expect(server.requestCount() - before).toBeGreaterThan(0);
  });

  it('fails with a clear authentication error, never quoting the secret, for wrong or missing credentials', async () => {
    const wrong = { username: credentials.username, password: 'pw-wrong-51d0' };
    for (const attempt of [
      () => checkoutGit(url, 'main', join(tempDir(), 'source'), { credentials: wrong }),
      () => resolveGitRevision(url, 'main', { credentials: wrong }),
    ]) {
      const error = await failure(attempt());
      expect(error.failure).toBe('auth');
      expect(error.message).toBe(`authentication failed for ${url}: the server refused the credentials`);
      expect(error.message).not.toContain('pw-wrong-51d0');
    }
    const anonymous = await failure(resolveGitRevision(url, 'main'));
    expect(anonymous.message).toBe(
      `authentication failed for ${url}: the server asks for credentials and none were given`,
    );
    // Credentials in the URL are redacted from the message too.
    const inUrl = url.replace('http://', `http://${credentials.username}:${credentials.password}@`);
    const redacted = await failure(resolveGitRevision(inUrl, 'main', { credentials: wrong }));
    expectNoSecret(redacted.message);
  });

  it('keeps the credentials out of the arguments of every git process it starts', async () => {
    const trace = join(tempDir(), 'trace2.json');
    const saved = process.env.GIT_TRACE2_EVENT;
    // trace2 records the full argv (`-c` options included) of git and of each helper it runs.
    process.env.GIT_TRACE2_EVENT = trace;
    try {
      await resolveGitRevision(url, 'main', { credentials });
      await checkoutGit(url, 'main', join(tempDir(), 'source'), { credentials, revision: first });
      // The probe shows the trace would catch a secret passed with -c.
      execFileSync('git', ['-c', 'docsnap.probe=argv-probe-7d1', 'version']);
    } finally {
      if (saved === undefined) delete process.env.GIT_TRACE2_EVENT;
      else process.env.GIT_TRACE2_EVENT = saved;
    }
    const argvs = readFileSync(trace, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { event: string; argv?: string[] })
      .filter((event) => event.event === 'start' || event.event === 'child_start')
      .map((event) => (event.argv ?? []).join(' '));
    expect(argvs.some((argv) => argv.includes('ls-remote'))).toBe(true);
    expect(argvs.some((argv) => argv.includes('remote-http') && argv.includes(url))).toBe(true);
    expect(argvs.some((argv) => argv.includes('argv-probe-7d1'))).toBe(true);
    for (const argv of argvs) {
      expectNoSecret(argv);
      expect(argv).not.toMatch(/extraHeader|Authorization/i);
    }
  });

  it('resolves a branch, a tag, a full ref name and a sha to a commit', async () => {
    const options = { credentials };
    expect(await resolveGitRevision(url, 'main', options)).toBe(first);
    expect(await resolveGitRevision(url, 'refs/heads/main', options)).toBe(first);
    // An annotated tag resolves to its commit, not to the tag object.
    expect(await resolveGitRevision(url, 'v1', options)).toBe(first);
    expect(await resolveGitRevision(url, 'refs/tags/v1', options)).toBe(first);
    expect(await resolveGitRevision(url, 'light', options)).toBe(first);
    const before = server.requestCount();
    expect(await resolveGitRevision(url, first.toUpperCase(), options)).toBe(first);
    expect(server.requestCount()).toBe(before);
  });

  it('names a missing ref or repository', async () => {
    const ref = await failure(resolveGitRevision(url, 'no-such-branch', { credentials }));
    expect(ref.failure).toBe('not-found');
    expect(ref.message).toBe(`no branch or tag no-such-branch in ${url}`);
    const repo = await failure(resolveGitRevision(server.repoUrl('missing'), 'main', { credentials }));
    expect(repo.message).toBe(`no git repository at ${server.repoUrl('missing')}`);
  });

  it('sees a new commit on the branch, and still checks out a pinned older revision', async () => {
    const second = server.commit('docs', { 'CHANGELOG.txt': 'changed\n' }, 'more docs');
    expect(second).not.toBe(first);
    expect(await resolveGitRevision(url, 'main', { credentials })).toBe(second);

    const latest = await checkoutGit(url, 'main', join(tempDir(), 'source'), { credentials });
    expect(latest.revision).toBe(second);
    expect(readFileSync(join(latest.dir, 'CHANGELOG.txt'), 'utf8')).toBe('changed\n');

    // Protocol v2 upload-pack sends any reachable commit by sha, so the pin survives the move.
    const pinned = await checkoutGit(url, 'main', join(tempDir(), 'source'), {
      credentials,
      revision: first,
    });
    expect(pinned.revision).toBe(first);
    expect(existsSync(join(pinned.dir, 'docs.json'))).toBe(true);
    expect(existsSync(join(pinned.dir, 'CHANGELOG.txt'))).toBe(false);
  });

  it('refuses a revision that is not a full sha', async () => {
    const error = await failure(checkoutGit(url, 'main', join(tempDir(), 'source'), { revision: 'abc123' }));
    expect(error.message).toBe('revision must be a full commit sha, not "abc123"');
  });
});

describe('git sources on a server that speaks protocol v0 only', () => {
  let server: GitServer;

  beforeAll(async () => {
    server = await GitServer.start({ protocolV2: false });
  });
  afterAll(() => server?.stop());

  it('checks out a revision through its ref, and says so when the ref has moved on', async () => {
    const first = server.createRepo('docs', EXAMPLE_SITE);
    const url = server.repoUrl('docs');
    const current = await checkoutGit(url, 'main', join(tempDir(), 'source'), { revision: first });
    expect(current.revision).toBe(first);

    const second = server.commit('docs', { 'CHANGELOG.txt': 'changed\n' }, 'more docs');
    const error = await failure(checkoutGit(url, 'main', join(tempDir(), 'source'), { revision: first }));
    expect(error.failure).toBe('moved');
    expect(error.message).toContain(`ref main of ${url} moved from ${first} to ${second}`);
    expect(error.message).toMatch(/does not allow request for unadvertised object/);
  });
});

describe('git sources that cannot be reached', () => {
  it('fails at once with a clear message for a closed port', async () => {
    const url = `http://127.0.0.1:${await freePort()}/docs.git`;
    for (const attempt of [
      () => resolveGitRevision(url, 'main', { credentials }),
      () => checkoutGit(url, 'main', join(tempDir(), 'source'), { credentials }),
    ]) {
      const error = await failure(attempt());
      expect(error.failure).toBe('unreachable');
      expect(error.message).toMatch(new RegExp(`^cannot reach ${url}: Failed to connect to 127\\.0\\.0\\.1`));
      expectNoSecret(error.message);
    }
  });

  it('gives up on a server that never answers, on time-out or abort, leaving no git process behind', async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(silent.address() as { port: number }).port}/docs.git`;
    try {
      const timedOut = await failure(
        checkoutGit(url, 'main', join(tempDir(), 'source'), { credentials, timeoutMs: 1_000 }),
      );
      expect(timedOut.failure).toBe('timeout');
      expect(timedOut.message).toBe(`git fetch of ${url} (main) timed out after 1 s`);

      const abort = new AbortController();
      setTimeout(() => abort.abort(), 500);
      await expect(resolveGitRevision(url, 'main', { signal: abort.signal })).rejects.toMatchObject({
        name: 'AbortError',
      });
      expect(gitProcessesMentioning(url)).toEqual([]);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
