import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface Measurement {
  name: string;
  wallSeconds: number;
  /** Peak resident set size of the process (VmHWM), in MiB. */
  peakRssMiB: number;
  exitCode: number | null;
  output: string;
}

/** Peak RSS so far of a process, from /proc (covers all its threads). */
export function peakRss(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /VmHWM:\s+(\d+) kB/.exec(status);
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Runs a command to completion and measures its wall time and peak RSS. Both benchmarked tools
 * are measured the same way, from the outside, so neither reports on itself.
 */
export function measure(
  name: string,
  command: string,
  args: string[],
  options: { cwd?: string } = {},
): Promise<Measurement> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(command, args, { cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    let peak = 0;
    const sampler = setInterval(() => {
      peak = Math.max(peak, peakRss(child.pid ?? 0) ?? 0);
    }, 20);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearInterval(sampler);
      const wallSeconds = Number(process.hrtime.bigint() - started) / 1e9;
      resolve({ name, wallSeconds, peakRssMiB: peak, exitCode: code, output });
    });
  });
}
