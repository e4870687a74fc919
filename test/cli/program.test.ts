import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { packageVersion } from '../../src/version.ts';

const run = promisify(execFile);
const cli = ['src/cli/main.ts'];

describe('docsnap CLI', () => {
  it('prints the package version', async () => {
    const { stdout } = await run(process.execPath, [...cli, '--version']);
    expect(stdout.trim()).toBe(packageVersion());
    expect(packageVersion()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('prints help naming the program', async () => {
    const { stdout } = await run(process.execPath, [...cli, '--help']);
    expect(stdout).toContain('Usage: docsnap');
    expect(stdout).toContain('--version');
  });

  it('fails with a clear message on an unknown option', async () => {
    await expect(run(process.execPath, [...cli, '--no-such-flag'])).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("unknown option '--no-such-flag'"),
    });
  });

  it('operator: documents its production flags and refuses bad values before touching a cluster', async () => {
    const { stdout } = await run(process.execPath, [...cli, 'operator', '--help']);
    for (const flag of ['--listen', '--no-leader-elect', '--leader-election-namespace', '--namespace'])
      expect(stdout).toContain(flag);
    await expect(run(process.execPath, [...cli, 'operator', '--listen', 'nowhere'])).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--listen wants host:port, got "nowhere"'),
    });
    expect(stdout).toMatch(/--concurrency <n>.*\(default: 16\)/s);
    await expect(run(process.execPath, [...cli, 'operator', '--concurrency', 'many'])).rejects.toMatchObject({
      code: 1, // Commander's own usage errors, like an unknown option
      stderr: expect.stringContaining('--concurrency wants a whole number of at least 1, got "many"'),
    });
    await expect(run(process.execPath, [...cli, 'operator', '--poll-interval', '50'])).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('--poll-interval wants a whole number of at least 200, got "50"'),
    });
  });
});
