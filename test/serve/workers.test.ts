import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../export/fixtures.ts';
import { ArchiveStore, exportedBundle } from './helpers.ts';

/**
 * `docsnap serve --workers 2` as a process: the primary decides, two forked processes serve.
 * Swaps under load fail no request, the workers' responses are summed in /metrics, a worker that
 * dies is replaced, and SIGTERM stops them all with exit code 0.
 */

let store: ArchiveStore;
let v1: { archive: Buffer; sha256: string };
let v2: { archive: Buffer; sha256: string };
let serve: ChildProcess | undefined;
let logText = '';

beforeAll(async () => {
  store = await new ArchiveStore().start();
  [v1, v2] = await Promise.all([exportedBundle('Version one'), exportedBundle('Version two')]);
}, 120_000);

afterAll(async () => {
  serve?.kill('SIGKILL');
  await store?.stop();
});

const childPids = (pid: number) =>
  readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(/\s+/).filter(Boolean).map(Number);

async function until<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  ms = 15_000,
): Promise<T> {
  const since = Date.now();
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() - since > ms) throw new Error(`${what} did not happen:\n${logText.slice(-3000)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('docsnap serve --workers 2', () => {
  it('swaps ten times under load with no failed request, sums the workers in /metrics, replaces a dead worker, stops on SIGTERM', {
    timeout: 120_000,
  }, async () => {
    const file = join(tempDir(), 'values.yaml');
    const links = [store.put('/w/v1.tar.gz', v1.archive), store.put('/w/v2.tar.gz', v2.archive)];
    const setVersion = (n: number) => {
      const [link, sha] = n % 2 === 0 ? [links[0], v1.sha256] : [links[1], v2.sha256];
      writeFileSync(
        `${file}.tmp`,
        `staticExport: { enabled: true, bundleUrl: "${link}", version: "sha256:${sha}" }\n`,
      );
      renameSync(`${file}.tmp`, file); // as kubelet swaps a mounted Secret's file
      return n % 2 === 0 ? 'Version one' : 'Version two';
    };
    setVersion(0);
    serve = spawn(
      process.execPath,
      [
        join(process.cwd(), 'src/cli/main.ts'),
        'serve',
        '--values',
        file,
        '--workers',
        '2',
        '--listen',
        '127.0.0.1:0',
        '--admin-listen',
        '127.0.0.1:0',
        '--cache-dir',
        tempDir('docsnap-serve-cache-'),
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    serve.stdout?.on('data', (chunk: Buffer) => {
      logText += chunk.toString();
    });
    serve.stderr?.on('data', (chunk: Buffer) => {
      logText += chunk.toString();
    });
    const [, url, admin] = await until(
      'serving',
      () => /"url":"([^"]+)","adminUrl":"([^"]+)"/.exec(logText) ?? undefined,
    );
    const page = async (path: string) => {
      const response = await fetch(`${url}${path}`);
      return { status: response.status, text: await response.text() };
    };
    await until('the first version', async () =>
      (await page('/')).text.includes('Version one') ? true : undefined,
    );
    const pid = serve.pid as number;
    expect(childPids(pid)).toHaveLength(2);

    let stop = false;
    let ok = 0;
    const failures: string[] = [];
    const client = async () => {
      for (let i = 0; !stop; i++) {
        const path = ['/', '/guide/page-1', '/_docsnap/site.css'][i % 3] as string;
        try {
          const response = await page(path);
          if (response.status === 200 && response.text.length > 0) ok++;
          else failures.push(`${path}: ${response.status}`);
        } catch (error) {
          failures.push(`${path}: ${(error as Error).message}`);
        }
      }
    };
    const clients = Array.from({ length: 8 }, client);
    for (let n = 1; n <= 10; n++) {
      const title = setVersion(n);
      await until(`swap ${n}`, async () => ((await page('/')).text.includes(title) ? true : undefined));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    stop = true;
    await Promise.all(clients);
    expect(failures).toEqual([]);
    expect(ok).toBeGreaterThan(100);

    const metrics = await (await fetch(`${admin}/metrics`)).text();
    const served = Number(/docsnap_serve_requests_total\{code="200"\} (\d+)/.exec(metrics)?.[1]);
    expect(served).toBeGreaterThanOrEqual(ok);
    expect(metrics.match(/^# TYPE docsnap_serve_requests_total /gm)).toHaveLength(1);
    expect(metrics).toContain('docsnap_serve_swaps_total 10');

    // A serving process that dies is replaced, and told what to serve.
    const [victim] = childPids(pid);
    process.kill(victim as number, 'SIGKILL');
    await until('a new serving process', () => {
      const now = childPids(pid);
      return now.length === 2 && !now.includes(victim as number) ? true : undefined;
    });
    await until('ready again', async () =>
      (await fetch(`${admin}/readyz`)).status === 200 ? true : undefined,
    );
    for (let i = 0; i < 20; i++) expect((await page('/')).text).toContain('Version one');

    const exited = new Promise<number | null>((resolve) => serve?.once('exit', (code) => resolve(code)));
    serve.kill('SIGTERM');
    expect(await exited).toBe(0);
    serve = undefined;
  });
});
