import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { docsRepo, page, tempDir } from '../export/fixtures.ts';
import { memoryBombRepo, symlinkLoopRepo } from '../export/hostile/repos.ts';
import { type Body, call } from './helpers.ts';

/**
 * One tenant's hostile repository against a running `docsnap api` process: its job fails with
 * the reason, another organization's export completes, and /healthz answers within a second
 * throughout, also after a kill -9 and a restart in the middle of the hostile export.
 */

const run = promisify(execFile);
const cli = (...args: string[]) => [join(process.cwd(), 'src/cli/main.ts'), ...args];

describe('a hostile tenant on a shared docsnap api', () => {
  const dir = tempDir();
  const configFile = join(dir, 'api.yaml');
  const good = docsRepo({
    'docs.json': {
      name: 'Good',
      colors: { primary: '#0a7' },
      navigation: { groups: [{ group: 'Start', pages: ['index', 'guide'] }] },
    },
    'index.mdx': page('Home'),
    'guide.mdx': page('Guide'),
  });
  writeFileSync(
    configFile,
    `
server: { host: 127.0.0.1, port: 0 }
organizations:
  - { id: acme, plan: enterprise, projects: [p1] }
  - { id: other, plan: enterprise, projects: [p2] }
sites:
  - { domain: bomb.acme.test, organization: acme, source: { path: ${memoryBombRepo()} } }
  - { domain: loop.acme.test, organization: acme, source: { path: ${symlinkLoopRepo()} } }
  - { domain: docs.other.test, organization: other, source: { path: ${good} } }
storage: { local: { dir: ${join(dir, 'store')} } }
exports: { concurrency: 2, memoryLimitMiB: 300, timeLimit: 60s }
`,
  );
  const keys: Record<string, string> = {};
  let server: ChildProcess | undefined;
  let url = '';
  const latencies: number[] = [];
  let watching = false;

  afterAll(() => {
    watching = false;
    server?.kill('SIGKILL');
  });

  async function startServer(): Promise<void> {
    const started = spawn(process.execPath, cli('api', '--config', configFile), {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server = started;
    let logs = '';
    url = await new Promise<string>((resolve, reject) => {
      started.stdout?.on('data', (chunk: Buffer) => {
        logs += chunk.toString();
        const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(logs);
        if (match) resolve(match[1] as string);
      });
      started.on('exit', (code) => reject(new Error(`docsnap api exited with ${code}: ${logs}`)));
    });
  }

  /** Asks /healthz every 100 ms and records how long each answer took (a failure counts as 10 s). */
  async function watchHealth(): Promise<void> {
    watching = true;
    while (watching) {
      const started = performance.now();
      const ok = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(10_000) })
        .then((r) => r.ok)
        .catch(() => false);
      latencies.push(ok ? performance.now() - started : 10_000);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  const startJob = async (domain: string, org: string) => {
    const { status, body } = await call({ url }, 'POST', '/v1/static-export/jobs', {
      key: keys[org],
      body: { domain },
    });
    expect(status).toBe(202);
    return body.jobId as string;
  };
  const jobStatus = async (jobId: string, org: string): Promise<Body> =>
    (await call({ url }, 'GET', `/v1/static-export/jobs/${jobId}`, { key: keys[org] })).body;
  const waitFor = async (jobId: string, org: string, until: (body: Body) => boolean): Promise<Body> => {
    for (let i = 0; i < 600; i++) {
      const body = await jobStatus(jobId, org);
      if (until(body)) return body;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`job ${jobId} never reached the expected state`);
  };
  const finished = (body: Body) => body.status === 'completed' || body.status === 'failed';

  it('fails the hostile jobs with their reasons while another organization exports and /healthz answers', {
    timeout: 120_000,
  }, async () => {
    for (const org of ['acme', 'other'])
      keys[org] = (
        await run(process.execPath, cli('keys', 'create', '--config', configFile, '--org', org))
      ).stdout.trim();
    await startServer();
    const health = watchHealth();

    const bomb = await startJob('bomb.acme.test', 'acme');
    const loop = await startJob('loop.acme.test', 'acme');
    const other = await startJob('docs.other.test', 'other');
    expect(await waitFor(other, 'other', finished)).toMatchObject({ status: 'completed', pageCount: 2 });
    expect(await waitFor(bomb, 'acme', finished)).toMatchObject({
      status: 'failed',
      error: 'the export used more than 300 MiB of memory, its limit',
    });
    // Symlinks to the root no longer loop: the site exports, the links left out with warnings.
    expect(await waitFor(loop, 'acme', finished)).toMatchObject({ status: 'completed', pageCount: 2 });

    watching = false;
    await health;
    expect(Math.max(...latencies)).toBeLessThan(1000);
  });

  it('after a kill -9 in the middle of a hostile export, the restarted server fails it again and stays up', {
    timeout: 120_000,
  }, async () => {
    const bomb = await startJob('bomb.acme.test', 'acme');
    await waitFor(bomb, 'acme', (body) => body.status === 'running');
    server?.kill('SIGKILL');
    await new Promise((r) => server?.once('exit', r));

    latencies.length = 0;
    await startServer();
    const health = watchHealth();
    const other = await startJob('docs.other.test', 'other');
    expect(await waitFor(bomb, 'acme', finished)).toMatchObject({
      status: 'failed',
      error: 'the export used more than 300 MiB of memory, its limit',
    });
    expect(await waitFor(other, 'other', finished)).toMatchObject({ status: 'completed' });
    watching = false;
    await health;
    expect(Math.max(...latencies)).toBeLessThan(1000);
  });
});
