import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../tools/local/processes.ts';
import { tempDir } from '../export/fixtures.ts';

const START = fileURLToPath(new URL('../../tools/local/start.ts', import.meta.url));

/** A PATH without the Go toolchains installed by hand (Debian's own go, 1.19, is too old). */
const SYSTEM_PATH = '/usr/bin:/bin';

function recentGoIn(path: string): boolean {
  const version =
    spawnSync('go', ['env', 'GOVERSION'], { encoding: 'utf8', env: { PATH: path } }).stdout ?? '';
  const [major = 0, minor = 0] = (/^go(\d+)\.(\d+)/.exec(version) ?? []).slice(1).map(Number);
  return major > 1 || (major === 1 && minor >= 26);
}

/** Free ports for the three servers, so the machine's own use of 8080–8082 does not matter. */
async function freePorts(): Promise<string[]> {
  return ['--api-port', String(await freePort()), '--operator-port', String(await freePort())];
}

/** Runs `npm start -- ARGS` (its script, on this Node) and returns how it ended. */
function start(args: string[], env: NodeJS.ProcessEnv = process.env) {
  const result = spawnSync(process.execPath, [START, ...args], { encoding: 'utf8', env, timeout: 60_000 });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe('npm start: what a newcomer can get wrong', () => {
  it('lists its options', () => {
    const { status, output } = start(['--help']);
    expect(status).toBe(0);
    for (const option of [
      '--data-dir',
      '--kubeconfig',
      '--example',
      '--api-port',
      '--site-port',
      '--operator-port',
    ])
      expect(output).toContain(option);
  });

  it('names a port another program holds, and the option that moves it', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const { status, output } = start([
        '--data-dir',
        tempDir(),
        '--site-port',
        String(port),
        ...(await freePorts()),
      ]);
      expect(status).toBe(1);
      expect(output).toContain(`port ${port} (docsnap serve) is taken by another program`);
      expect(output).toContain('--site-port N');
    } finally {
      server.close();
    }
  });

  it('refuses one port for two servers and an example that does not exist', () => {
    expect(start(['--data-dir', tempDir(), '--api-port', '18500', '--site-port', '18500']).output).toContain(
      '--site-port 18500 is the port of docsnap api too',
    );
    expect(start(['--data-dir', tempDir(), '--example', 'nope']).output).toContain('no example "nope"');
  });

  // Go is needed only to build the servers on the first start: hide it (and the cache) to see the advice.
  it.skipIf(recentGoIn(SYSTEM_PATH))(
    'tells how to install Go when the first start has to build the servers without it',
    async () => {
      const { KUBECONFIG: _, ...env } = process.env;
      const args = ['--data-dir', tempDir(), '--site-port', String(await freePort()), ...(await freePorts())];
      const { status, output } = start(args, { ...env, PATH: SYSTEM_PATH, DOCSNAP_CACHE_DIR: tempDir() });
      expect(status).toBe(1);
      expect(output).toContain('needs Go 1.26 or newer. Install it:');
      expect(output).toContain('https://go.dev/dl/go1.26');
      expect(output).toContain('npm start -- --kubeconfig FILE');
    },
  );
});
