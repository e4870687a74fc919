import type { AgentJob } from '../contract/admin-api.ts';
import { AgentJobImport, AgentJobRecord } from '../contract/records.ts';
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
    const notFound = new ServiceRefusal('not-found', `no agent job ${id} in project ${projectId}`);
    if (!/^[\w.-]+$/.test(projectId) || !/^[\w.-]+$/.test(id) || projectId.startsWith('.') || id.startsWith('.'))
      throw notFound;
    const raw = await this.store.getJson(`agent-jobs/${projectId}/${id}.json`);
    if (raw === undefined) throw notFound;
    const parsed = AgentJobRecord.safeParse(raw);
    if (!parsed.success) throw new Error(`stored agent job ${projectId}/${id} is not a valid record`);
    const { projectId: _project, ...job } = parsed.data;
    return job;
  }

  /** Stores records (one or a list); returns how many. Validates all before storing any. */
  async import(raw: unknown): Promise<number> {
    const records = AgentJobImport.parse(raw);
    const list = Array.isArray(records) ? records : [records];
    for (const record of list) await this.store.putJson(`agent-jobs/${record.projectId}/${record.id}.json`, record);
    return list.length;
  }
}
