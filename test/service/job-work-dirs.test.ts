import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeJobWorkDir, removeAbandonedJobWorkDirs } from '../../src/service/job-work-dirs.ts';

/** A pid no process has now. */
function deadPid(): number {
  for (let pid = 4_000_000; ; pid--) {
    try {
      process.kill(pid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ESRCH') return pid;
    }
  }
}

describe('job work directories', () => {
  it('of a crashed process are removed at start; those of live processes and anything else stay', async () => {
    const base = mkdtempSync(join(tmpdir(), 'docsnap-work-'));
    const own = await makeJobWorkDir(base);
    writeFileSync(join(own, 'site.tar.gz'), 'x');
    const dead = join(base, `docsnap-job-${deadPid()}-12345-abcdef`);
    // This process's pid with another start time: a process that had the pid before (a restarted container's PID 1).
    const reused = join(base, `docsnap-job-${process.pid}-1-abcdef`);
    const unrelated = join(base, 'docsnap-openapi-cache');
    for (const dir of [dead, reused, unrelated]) {
      mkdirSync(join(dir, 'checkout'), { recursive: true });
      writeFileSync(join(dir, 'checkout', 'page.mdx'), 'x');
    }
    const removed = await removeAbandonedJobWorkDirs(base);
    expect(removed.sort()).toEqual([dead, reused].map((dir) => dir.slice(base.length + 1)).sort());
    expect(existsSync(join(own, 'site.tar.gz'))).toBe(true);
    expect(readdirSync(base).sort()).toEqual([own.slice(base.length + 1), 'docsnap-openapi-cache'].sort());
  });
});
