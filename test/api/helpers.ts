import { Writable } from 'node:stream';
import { parseApiConfig } from '../../src/api/config-file.ts';
import { type RunningApi, startApi } from '../../src/api/start.ts';
import type { ApiConfig } from '../../src/contract/api-config.ts';
import type { AgentJobRecord } from '../../src/contract/records.ts';
import { ApiKeys } from '../../src/service/api-keys.ts';
import { openObjectStore } from '../../src/storage/open-store.ts';
import { docsRepo, EXAMPLE_SITE, tempDir } from '../export/fixtures.ts';

/** An agent job record as an agent system writes it: a completed job of proj-1 unless told otherwise. */
export function agentJobRecord(overrides: Partial<AgentJobRecord> = {}): AgentJobRecord {
  return {
    projectId: 'proj-1',
    id: 'job-done',
    status: 'completed',
    source: { repository: 'https://github.com/acme/docs', ref: 'main' },
    model: 'claude-sonnet',
    prLink: 'https://github.com/acme/docs/pull/7',
    createdAt: '2026-11-01T10:00:00.000Z',
    archivedAt: null,
    ...overrides,
  };
}

/** Captures the server's log lines, to check what reaches the log. */
export class LogCapture extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: string, callback: () => void): void {
    this.text += chunk.toString();
    callback();
  }
}

/** A configuration for tests: organizations of each kind, sites for them, a local store. */
export function testConfigYaml(
  storeDir: string,
  extra = '',
  storage = `local: { dir: ${storeDir} }`,
  server = 'server: { host: 127.0.0.1, port: 0 }',
): string {
  const broken = docsRepo({ 'docs.json': '{"name": "Broken", "navigation": 42}' });
  return `
${server}
organizations:
  - { id: acme, plan: enterprise, projects: [proj-1, proj-2] }
  - { id: smallco, plan: pro, projects: [proj-small] }
  - { id: other, plan: enterprise, projects: [proj-other] }
sites:
  - { domain: docs.acme.test, organization: acme, deployment: air-gapped, source: { path: ${EXAMPLE_SITE} } }
  - { domain: broken.acme.test, organization: acme, source: { path: ${broken} } }
  - { domain: docs.smallco.test, organization: smallco, source: { path: ${EXAMPLE_SITE} } }
  - { domain: docs.other.test, organization: other, source: { path: ${EXAMPLE_SITE} } }
storage:
  ${storage}
${extra}`;
}

export interface TestApi extends RunningApi {
  keys: { acme: string; smallco: string; other: string };
  log: LogCapture;
  config: ApiConfig;
}

/** Starts `docsnap api` in-process on a loopback port with a key per organization. */
export async function startTestApi(
  extraYaml = '',
  storeDir = tempDir('docsnap-store-'),
  storageYaml?: string,
  serverYaml?: string,
): Promise<TestApi> {
  const config = parseApiConfig(testConfigYaml(storeDir, extraYaml, storageYaml, serverYaml));
  const keyStore = new ApiKeys(
    openObjectStore(config.storage, () => ''),
    config.auth.keyPrefix,
  );
  const keys = {
    acme: await keyStore.create('acme'),
    smallco: await keyStore.create('smallco'),
    other: await keyStore.create('other'),
  };
  const log = new LogCapture();
  const api = await startApi(config, { logDestination: log });
  return Object.assign(api, { keys, log, config });
}

/** A parsed JSON response body: tests check it field by field. */
// biome-ignore lint/suspicious/noExplicitAny: response bodies are asserted field by field in tests
export type Body = any;

/** One HTTP call to the server; the JSON body parsed when there is one. */
export async function call(
  api: { url: string },
  method: string,
  path: string,
  options: { key?: string; body?: unknown; headers?: Record<string, string>; rawBody?: string } = {},
): Promise<{ status: number; body: Body; headers: Headers }> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${api.url}${path}`, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {}
  return { status: response.status, body: parsed, headers: response.headers };
}

/** Polls a job until it is completed or failed. */
export async function waitForJob(api: TestApi, jobId: string, key = api.keys.acme): Promise<Body[]> {
  const seen: Body[] = [];
  for (let i = 0; i < 600; i++) {
    const { body } = await call(api, 'GET', `/v1/static-export/jobs/${jobId}`, { key });
    seen.push(body);
    if (body.status === 'completed' || body.status === 'failed') return seen;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`job ${jobId} did not finish`);
}

/**
 * Downloads a bundle link and checks it answered 200. The body is always read to the end: a
 * response left half-sent keeps its connection busy, and the server's close waits for it.
 */
export async function download(url: string): Promise<Buffer> {
  const response = await fetch(url);
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new Error(`GET ${new URL(url).pathname}: ${response.status}, expected 200`);
  }
  return Buffer.from(await response.arrayBuffer());
}
