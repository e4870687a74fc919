import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentJobRecord, download, testConfigYaml } from '../api/helpers.ts';
import { EXAMPLE_SITE_PAGES, tempDir } from '../export/fixtures.ts';

const run = promisify(execFile);
const cli = (...args: string[]) => [join(process.cwd(), 'src/cli/main.ts'), ...args];

describe('docsnap api, keys, jobs and agent-jobs commands', () => {
  const dir = tempDir();
  const config = join(dir, 'api.yaml');
  let server: ChildProcess;
  let env: NodeJS.ProcessEnv;
  let logs = '';

  beforeAll(async () => {
    writeFileSync(config, testConfigYaml(join(dir, 'store'), 'auth: { keyRefresh: 1s }'));
    const key = (
      await run(process.execPath, cli('keys', 'create', '--config', config, '--org', 'acme'))
    ).stdout.trim();
    expect(key).toMatch(/^docsnap_[\w-]{40,}$/);
    server = spawn(process.execPath, cli('api', '--config', config), { stdio: ['ignore', 'pipe', 'pipe'] });
    const url = await new Promise<string>((resolve, reject) => {
      server.stdout?.on('data', (chunk: Buffer) => {
        logs += chunk.toString();
        const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(logs);
        if (match) resolve(match[1] as string);
      });
      server.on('exit', (code) => reject(new Error(`docsnap api exited with ${code}: ${logs}`)));
    });
    env = { ...process.env, DOCSNAP_API_URL: url, DOCSNAP_ADMIN_KEY: key };
  }, 30_000);
  afterAll(() => {
    server?.kill('SIGTERM');
  });

  it('jobs start --wait follows the export and prints a working bundle link', {
    timeout: 60_000,
  }, async () => {
    const { stdout, stderr } = await run(
      process.execPath,
      cli('jobs', 'start', '--domain', 'docs.acme.test', '--wait'),
      { env },
    );
    const link = stdout.trim();
    expect(link).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/downloads\/bundles\/se_[0-9a-f]{16}\.tar\.gz\?expires=\d+&signature=[0-9a-f]{64}$/,
    );
    expect(stderr).toContain(`${EXAMPLE_SITE_PAGES} pages`);
    expect((await download(link)).length).toBeGreaterThan(0);
    const jobId = /se_[0-9a-f]{16}/.exec(link)?.[0] as string;
    const status = JSON.parse((await run(process.execPath, cli('jobs', 'status', jobId), { env })).stdout);
    expect(status).toMatchObject({
      jobId,
      status: 'completed',
      progress: 100,
      pageCount: EXAMPLE_SITE_PAGES,
    });
    const bundle = JSON.parse((await run(process.execPath, cli('jobs', 'bundle', jobId), { env })).stdout);
    expect(bundle.bundleUrl).toContain(jobId);
  });

  it('keys list shows a key by id; keys revoke stops it on the running server within auth.keyRefresh', {
    timeout: 30_000,
  }, async () => {
    const key = (
      await run(process.execPath, cli('keys', 'create', '--config', config, '--org', 'acme'))
    ).stdout.trim();
    const id = createHash('sha256').update(key).digest('hex').slice(0, 16);
    const status = async () =>
      (
        await fetch(`${env.DOCSNAP_API_URL}/v1/static-export/jobs/se_0000000000000000`, {
          headers: { authorization: `Bearer ${key}` },
        })
      ).status;
    expect(await status()).toBe(404); // authenticated: the job is unknown
    const listed = (await run(process.execPath, cli('keys', 'list', '--config', config, '--org', 'acme')))
      .stdout;
    expect(listed).toMatch(new RegExp(`^${id}  acme  \\d{4}-`, 'm'));
    expect(listed).not.toContain(key.slice(8));
    const revoked = await run(process.execPath, cli('keys', 'revoke', id, '--config', config));
    expect(revoked.stdout).toContain(`revoked ${id} (acme)`);
    const since = Date.now();
    while ((await status()) !== 401 && Date.now() - since < 5_000)
      await new Promise((r) => setTimeout(r, 100));
    expect(await status()).toBe(401);
    expect(Date.now() - since).toBeLessThan(3_000);
    const again = await run(process.execPath, cli('keys', 'revoke', id, '--config', config)).catch((e) => e);
    expect(again.stderr).toContain(`no key with id ${id}`);
  });

  it('agent-jobs import stores records; get prints the job, exit 0 when completed and 1 when failed', async () => {
    const records = join(dir, 'agent-jobs.json');
    writeFileSync(
      records,
      JSON.stringify([
        agentJobRecord({ id: 'ok', prLink: 'https://github.com/acme/docs/pull/1' }),
        agentJobRecord({ id: 'bad', status: 'failed', prLink: null }),
      ]),
    );
    const imported = await run(process.execPath, cli('agent-jobs', 'import', records, '--config', config));
    expect(imported.stdout).toContain('imported 2 agent jobs');
    const ok = await run(process.execPath, cli('agent-jobs', 'get', 'proj-1', 'ok', '--wait'), { env });
    expect(JSON.parse(ok.stdout).prLink).toBe('https://github.com/acme/docs/pull/1');
    expect(ok.stderr).toContain('pull request: https://github.com/acme/docs/pull/1');
    await expect(
      run(process.execPath, cli('agent-jobs', 'get', 'proj-1', 'bad'), { env }),
    ).rejects.toMatchObject({ code: 1 });
  });

  it('refuses a bad agent job file and a bad configuration, naming the fields', async () => {
    const bad = join(dir, 'bad-jobs.json');
    writeFileSync(bad, JSON.stringify({ projectId: 'proj-1', id: 'x', status: 'sleeping' }));
    await expect(
      run(process.execPath, cli('agent-jobs', 'import', bad, '--config', config)),
    ).rejects.toMatchObject({
      stderr: expect.stringMatching(/^ {2}status: /m),
    });
    const badConfig = join(dir, 'bad.yaml');
    writeFileSync(
      badConfig,
      'organizations: [{ id: acme, plan: platinum }]\nsites: [{ domain: "https://x", organization: nobody, source: { path: . } }]\nstorage: { local: { dir: /tmp/x } }\nlinks: { lifetime: soon }\n',
    );
    const failure = await run(process.execPath, cli('api', '--config', badConfig)).catch(
      (e: { stderr: string }) => e,
    );
    expect(failure.stderr).toContain('organizations[0].plan');
    expect(failure.stderr).toContain('sites[0].domain');
    expect(failure.stderr).toContain('links.lifetime: "soon" is not a duration');
  });

  it('reports an unreachable API clearly', { timeout: 30_000 }, async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const unreachable = { ...env, DOCSNAP_API_URL: `http://127.0.0.1:${port}` };
    const failure = (await run(process.execPath, cli('jobs', 'status', 'se_0123456789abcdef'), {
      env: unreachable,
    }).catch((e: unknown) => e)) as { stderr: string; code: number };
    expect(failure.code).toBe(1);
    expect(failure.stderr).toMatch(/GET \/v1\/static-export\/jobs\/se_0123456789abcdef: ECONNREFUSED/);
  });
});
