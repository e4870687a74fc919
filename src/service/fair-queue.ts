/**
 * Queued export jobs, taken round-robin between organizations: a tenant with 200 jobs queued
 * delays another's one job by one export, not by 200. Each organization's jobs keep their order.
 */
export class FairQueue {
  private readonly byOrganization = new Map<string, string[]>();
  /** Organizations with queued jobs, in the order their turn comes. */
  private turns: string[] = [];

  get size(): number {
    let size = 0;
    for (const jobs of this.byOrganization.values()) size += jobs.length;
    return size;
  }

  /** How many jobs of `organization` wait. */
  queued(organization: string): number {
    return this.byOrganization.get(organization)?.length ?? 0;
  }

  push(organization: string, jobId: string): void {
    const jobs = this.byOrganization.get(organization);
    if (jobs) jobs.push(jobId);
    else {
      this.byOrganization.set(organization, [jobId]);
      this.turns.push(organization);
    }
  }

  /**
   * The next job of the first organization in turn that `mayRun` allows (one below its limit of
   * running jobs); that organization's turn goes to the back of the line.
   */
  take(mayRun: (organization: string) => boolean): { organization: string; jobId: string } | undefined {
    const index = this.turns.findIndex(mayRun);
    if (index === -1) return undefined;
    const organization = this.turns[index] as string;
    const jobs = this.byOrganization.get(organization) as string[];
    const jobId = jobs.shift() as string;
    this.turns.splice(index, 1);
    if (jobs.length > 0) this.turns.push(organization);
    else this.byOrganization.delete(organization);
    return { organization, jobId };
  }

  clear(): void {
    this.byOrganization.clear();
    this.turns = [];
  }
}
