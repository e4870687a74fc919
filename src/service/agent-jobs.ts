import { z } from 'zod';
import type { AgentJob } from '../contract/admin-api.ts';
import { describeIssues } from '../contract/issues.ts';
import { AgentJobRecord } from '../contract/records.ts';
import type { ObjectStore } from '../storage/object-store.ts';
import { ServiceRefusal } from './errors.ts';

/**
 * Agent jobs are written by an agent system (or imported by operators) as records at
 * agent-jobs/<projectId>/<id>.json; the service reads them. The spec shows no way to create one.
 */
export class AgentJobs {
  private readonly store: ObjectStore;

  constructor(store: ObjectStore) {
    this.store = store;
  }

  async get(projectId: string, id: string): Promise<AgentJob> {
    const notFound = new ServiceRefusal(
      'not-found',
      `${id.length + projectId.length <= 256 ? `no agent job ${id} in project ${projectId}` : 'no such agent job'}`,
    );
    if (
      projectId.length > 128 ||
      id.length > 128 ||
      !/^[\w.-]+$/.test(projectId) ||
      !/^[\w.-]+$/.test(id) ||
      projectId.startsWith('.') ||
      id.startsWith('.')
    )
      throw notFound;
    const raw = await this.store.getJson(`agent-jobs/${projectId}/${id}.json`);
    if (raw === undefined) throw notFound;
    const parsed = AgentJobRecord.safeParse(raw);
    if (!parsed.success) throw new Error(`stored agent job ${projectId}/${id} is not a valid record`);
    const { projectId: _project, ...job } = parsed.data;
    return job;
  }

  /** Stores records (one or a list); returns how many. Validates all before storing any. */
  async import(raw: unknown, source = 'input'): Promise<number> {
    const parsed = (Array.isArray(raw) ? z.array(AgentJobRecord) : AgentJobRecord).safeParse(raw);
    if (!parsed.success)
      throw new ServiceRefusal(
        'invalid',
        `${source} holds no valid agent job records:\n${describeIssues(parsed.error)
          .map((l) => `  ${l}`)
          .join('\n')}`,
      );
    const list = Array.isArray(parsed.data) ? parsed.data : [parsed.data];
    for (const record of list)
      await this.store.putJson(`agent-jobs/${record.projectId}/${record.id}.json`, record);
    return list.length;
  }
}
