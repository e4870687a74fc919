import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AdminApiError, AdminClient } from '../../src/client/admin-client.ts';
import { download, startTestApi, type TestApi } from '../api/helpers.ts';
import { EXAMPLE_SITE_PAGES } from '../export/fixtures.ts';

const job = {
  jobId: 'se_0123456789abcdef',
  status: 'running',
  progress: 40,
  pageCount: 12,
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-01T10:00:01.000Z',
};

/** A server that answers each request with the next scripted reply, and records what it got. */
class ScriptedServer {
  readonly requests: Array<{ method: string; url: string; authorization?: string; at: number }> = [];
  private server!: Server;
  private script: Array<(res: ServerResponse) => void> = [];
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req: IncomingMessage, res) => {
      this.requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        authorization: req.headers.authorization,
        at: Date.now(),
      });
      const next = this.script.shift() ?? ((r: ServerResponse) => r.writeHead(500).end());
      next(res);
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  reply(...steps: Array<(res: ServerResponse) => void>): void {
    this.requests.length = 0;
    this.script = steps;
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}) =>
  (res: ServerResponse) =>
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
const hang = () => () => {}; // never answers: the client's timeout must fire

describe('AdminClient against a misbehaving server', () => {
  const server = new ScriptedServer();
  beforeAll(() => server.start());
  afterAll(() => server.stop());
  const client = () =>
    new AdminClient({
      baseUrl: server.url,
      adminKey: 'docsnap_test',
      backoffMs: 20,
      timeoutMs: 300,
      maxAttempts: 4,
    });

  it('retries 500, a timeout and 429 (waiting Retry-After), then returns the checked response', async () => {
    server.reply(
      json(500, { error: 'boom' }),
      hang(),
      json(429, { error: 'slow down' }, { 'retry-after': '1' }),
      json(200, job),
    );
    const result = await client().getExport(job.jobId);
    expect(result).toEqual(job);
    expect(server.requests).toHaveLength(4);
    expect(server.requests.every((r) => r.authorization === 'Bearer docsnap_test')).toBe(true);
    expect((server.requests[3]?.at ?? 0) - (server.requests[2]?.at ?? 0)).toBeGreaterThanOrEqual(950); // Retry-After: 1
  });

  it('does not retry other 4xx, and reports the server message and status', async () => {
    server.reply(json(409, { error: 'export job se_x is running; a bundle needs a completed job' }));
    const error = await client()
      .requestBundle(job.jobId)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AdminApiError);
    expect((error as AdminApiError).status).toBe(409);
    expect((error as Error).message).toMatch(/needs a completed job/);
    expect(server.requests).toHaveLength(1);
  });

  it('gives up after maxAttempts with the last failure', async () => {
    server.reply(
      json(503, { error: 'down' }),
      json(503, { error: 'down' }),
      json(503, { error: 'down' }),
      json(503, { error: 'down' }),
    );
    const error = await client()
      .getExport(job.jobId)
      .catch((e: unknown) => e);
    expect((error as AdminApiError).status).toBe(503);
    expect(server.requests).toHaveLength(4);
  });

  it('refuses a response that does not match the contract', async () => {
    server.reply(json(200, { ...job, status: 'exploded' }));
    await expect(client().getExport(job.jobId)).rejects.toThrow(/does not match/);
  });

  it('waitForExport polls until the job ends, reporting progress', async () => {
    server.reply(
      json(200, job),
      json(200, { ...job, progress: 80 }),
      json(200, { ...job, status: 'completed', progress: 100 }),
    );
    const progress: number[] = [];
    const done = await client().waitForExport(job.jobId, {
      intervalMs: 10,
      onProgress: (j) => progress.push(j.progress),
    });
    expect(done.status).toBe('completed');
    expect(progress).toEqual([40, 80, 100]);
  });
});

describe('AdminClient against docsnap api', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi();
  });
  afterEach(() => undefined);
  afterAll(() => api.close());

  it('starts an export, waits for it and gets a working bundle link', { timeout: 60_000 }, async () => {
    const client = new AdminClient({ baseUrl: api.url, adminKey: api.keys.acme });
    const started = await client.startExport({ domain: 'docs.acme.test' });
    const seen: number[] = [];
    const done = await client.waitForExport(started.jobId, {
      intervalMs: 100,
      onProgress: (j) => seen.push(j.progress),
    });
    expect(done).toMatchObject({ status: 'completed', progress: 100, pageCount: EXAMPLE_SITE_PAGES });
    const bundle = await client.requestBundle(started.jobId);
    expect((await download(bundle.bundleUrl)).length).toBe(bundle.sizeBytes);
  });

  it('surfaces refusals as AdminApiError with the status', async () => {
    const client = new AdminClient({ baseUrl: api.url, adminKey: api.keys.smallco });
    const error = await client.startExport({ domain: 'docs.smallco.test' }).catch((e: unknown) => e);
    expect((error as AdminApiError).status).toBe(403);
  });
});
