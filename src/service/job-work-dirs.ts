import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Job work directories (checkout, render, archive) are named after the process that made them,
 * `docsnap-job-<pid>-<start time>-XXXXXX`, so a process starting later can tell the directories
 * of a crashed process (killed before it could remove them) from those of one still running
 * beside it on the same disk. The start time tells a new process with a reused pid from the old
 * one: a restarted container's PID 1 is not the PID 1 that crashed.
 */

const PREFIX = 'docsnap-job-';

/** `<pid>-<start time>` of a process, the start time in clock ticks since boot ('0' where /proc is absent). */
function processTag(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces), which ends at the last ')'.
    const startTime = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    return `${pid}-${startTime}`;
  } catch {
    return isAlive(pid) ? `${pid}-0` : undefined;
  }
}

/** Whether a process with this pid exists (one of another user's counts). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const ownTag = processTag(process.pid) ?? `${process.pid}-0`;

/** A new work directory for one job of this process. */
export function makeJobWorkDir(base: string): Promise<string> {
  return mkdtemp(join(base, `${PREFIX}${ownTag}-`));
}

/** Removes the job work directories under `base` whose process is gone; returns their names. */
export async function removeAbandonedJobWorkDirs(base: string): Promise<string[]> {
  const removed: string[] = [];
  for (const name of await readdir(base).catch(() => [] as string[])) {
    const match = /^docsnap-job-(\d+)-(\d+)-/.exec(name);
    if (!match) continue;
    const [, pid, startTime] = match;
    if (processTag(Number(pid)) === `${pid}-${startTime}`) continue; // its process still runs
    await rm(join(base, name), { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}
