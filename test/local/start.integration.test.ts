import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { mintServiceAccount } from '../../tools/local/control-plane.ts';
import { freePort, isFree, locateTestServers, makeWorkDir } from '../../tools/local/processes.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

/** `npm start` in its own process group, as a terminal runs it; resolves the site URL it prints. */
function npmStart(
  dataDir: string,
  ports: Record<string, number>,
  extra: string[] = [],
): { child: ChildProcess; site: Promise<string>; output: () => string } {
  const child = spawn(
    'npm',
    [
      'start',
      '--',
      '--data-dir',
      dataDir,
      '--api-port',
      String(ports.api),
      '--site-port',
      String(ports.site),
      '--operator-port',
      String(ports.operator),
      ...extra,
    ],
    { cwd: REPO, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const site = new Promise<string>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk;
      const url = /^ {2}site: +(http\S+)/m.exec(output)?.[1];
      if (url) resolve(url);
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => reject(new Error(`npm start exited (${code}) before serving:\n${output}`)));
  });
  return { child, site, output: () => output };
}

/** Processes whose command line names the data directory: everything `npm start` ran. */
function processesOf(dataDir: string): string[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((pid) => {
      try {
        const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
        return cmdline.includes(dataDir) ? [`${pid}: ${cmdline}`] : [];
      } catch {
        return []; // gone meanwhile
      }
    });
}

/** Ctrl-C: SIGINT to the whole process group; resolves how npm ended. */
async function interrupt(child: ChildProcess): Promise<string> {
  const exited = new Promise<string>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ?? `exit ${code}`)),
  );
  process.kill(-(child.pid as number), 'SIGINT');
  return exited;
}

describe('npm start', () => {
  const dataDir = makeWorkDir('start');
  const started: ChildProcess[] = [];
  afterAll(() => {
    for (const child of started)
      if (child.exitCode === null && child.signalCode === null)
        process.kill(-(child.pid as number), 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('brings up the product, serves the example export, and Ctrl-C leaves no process and no port behind; a second start serves again', async () => {
    const ports = { api: await freePort(), site: await freePort(), operator: await freePort() };
    const kubectl = join(locateTestServers(REPO, { quiet: true }).envtestDir, 'kubectl');

    for (const round of ['first', 'second']) {
      const start = npmStart(dataDir, ports);
      started.push(start.child);
      const site = await start.site;
      expect(site, round).toBe(`http://127.0.0.1:${ports.site}/`);

      const index = await fetch(site);
      expect(index.status).toBe(200);
      expect(await index.text()).toMatch(/<title>[^<]*docsnap<\/title>/);
      const deep = await fetch(new URL('operator/static-export', site));
      expect(deep.status).toBe(200);
      expect(await deep.text()).toContain('<title>The StaticExport resource - docsnap</title>');

      const kubeconfig = /kubeconfig: +(\S+)/.exec(start.output())?.[1] as string;
      const phase = execFileSync(
        kubectl,
        [
          '--kubeconfig',
          kubeconfig,
          'get',
          'sx',
          '-n',
          'docsnap-example',
          'docs-site',
          '-o',
          'jsonpath={.status.phase}',
        ],
        { encoding: 'utf8' },
      );
      expect(phase).toBe('Ready');
      expect(processesOf(dataDir).length).toBeGreaterThanOrEqual(5); // etcd, apiserver, api, operator, serve

      // npm ends itself with the signal once its script is done, as a shell's job does.
      expect(['exit 0', 'SIGINT']).toContain(await interrupt(start.child));
      expect(start.output()).toContain('stopped: every process started here has exited');
      expect(processesOf(dataDir)).toEqual([]);
      for (const [name, port] of Object.entries(ports))
        expect(await isFree(port), `${name} port ${port}`).toBe(true);
    }
  }, 600_000);

  it('says what to do when the cluster of --kubeconfig refuses the CRD', async () => {
    const noRights = await mintServiceAccount(inject('kube'), {
      namespace: 'start-test',
      name: 'newcomer',
      rules: [],
      scope: 'namespace',
    });
    const ports = { api: await freePort(), site: await freePort(), operator: await freePort() };
    const start = npmStart(dataDir, ports, ['--kubeconfig', noRights.kubeconfigPath]);
    started.push(start.child);
    await expect(start.site).rejects.toThrow(/may not create CustomResourceDefinitions/);
    expect(start.output()).toContain('ask its admin to apply crds/ and config/rbac/');
    expect(processesOf(dataDir)).toEqual([]);
  }, 120_000);
});
