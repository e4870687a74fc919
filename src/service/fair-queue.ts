/**
 * Queued export jobs, taken round-robin between owners: an owner (a tenant) with 200 jobs queued
 * delays another's one job by one export, not by 200. Each owner's jobs keep their order.
 */
export class FairQueue {
  private readonly byOwner = new Map<string, string[]>();
  /** Owners with queued jobs, in the order their turn comes. */
  private turns: string[] = [];

  get size(): number {
    let size = 0;
    for (const jobs of this.byOwner.values()) size += jobs.length;
    return size;
  }

  /** How many jobs of `owner` wait. */
  queued(owner: string): number {
    return this.byOwner.get(owner)?.length ?? 0;
  }

  push(owner: string, jobId: string): void {
    const jobs = this.byOwner.get(owner);
    if (jobs) jobs.push(jobId);
    else {
      this.byOwner.set(owner, [jobId]);
      this.turns.push(owner);
    }
  }

  /**
   * The next job of the first owner in turn that `mayRun` allows (one below its limit of
   * running jobs); that owner's turn goes to the back of the line.
   */
  take(mayRun: (owner: string) => boolean): { owner: string; jobId: string } | undefined {
    const index = this.turns.findIndex(mayRun);
    if (index === -1) return undefined;
    const owner = this.turns[index] as string;
    const jobs = this.byOwner.get(owner) as string[];
    const jobId = jobs.shift() as string;
    this.turns.splice(index, 1);
    if (jobs.length > 0) this.turns.push(owner);
    else this.byOwner.delete(owner);
    return { owner, jobId };
  }

  clear(): void {
    this.byOwner.clear();
    this.turns = [];
  }
}
