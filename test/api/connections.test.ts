import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApi, type TestApi } from './helpers.ts';

/**
 * What the HTTP layer does with clients that misbehave below the routes: idle sockets, too many
 * connections, requests Node's parser refuses. Every answer is `{error}`.
 */

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi(
    '',
    undefined,
    undefined,
    `server:
  host: 127.0.0.1
  port: 0
  connections: { max: 100, idleTimeout: 1s, headersTimeout: 1s, requestTimeout: 2s, maxHeaderBytes: 8192 }`,
  );
});

afterAll(async () => {
  await api?.close();
});

const port = () => Number(new URL(api.url).port);

/** Sends raw bytes on a new connection and resolves with everything the server wrote before closing. */
function raw(request: string, timeoutMs = 5_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port(), '127.0.0.1');
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => {
      answer += chunk;
    });
    socket.on('close', () => resolve(answer));
    socket.on('error', () => resolve(answer));
    socket.setTimeout(timeoutMs, () => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms; got ${JSON.stringify(answer)}`));
    });
    socket.write(request);
  });
}

function statusAndBody(answer: string): { status: number; body: unknown } {
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), body: JSON.parse(body) };
}

function openIdle(count: number): Promise<Socket[]> {
  return Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<Socket>((resolve) => {
          const socket = connect(port(), '127.0.0.1', () => resolve(socket));
          socket.on('error', () => resolve(socket));
        }),
    ),
  );
}

const openConnections = () =>
  new Promise<number>((resolve, reject) =>
    api.app.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
  );

describe('connections', () => {
  it('holds no more connections than its maximum, closes idle ones, and then answers again', {
    timeout: 20_000,
  }, async () => {
    const idle = await openIdle(300);
    expect(await openConnections()).toBeLessThanOrEqual(100);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(await openConnections()).toBe(0);
    expect(idle.every((socket) => socket.destroyed || socket.readableEnded)).toBe(true);
    const { status } = await call(api, 'GET', '/healthz');
    expect(status).toBe(200);
  });

  it('closes a connection whose request headers never finish', { timeout: 10_000 }, async () => {
    const since = Date.now();
    const answer = await raw('GET /healthz HTTP/1.1\r\nhost: x\r\n', 8_000);
    expect(Date.now() - since).toBeLessThan(4_000);
    expect(answer === '' || statusAndBody(answer).status === 408).toBe(true);
  });
});

describe('requests the HTTP parser refuses get {error}', () => {
  it('431 for headers over the limit', async () => {
    const answer = await raw(`GET /healthz HTTP/1.1\r\nhost: x\r\nx-big: ${'a'.repeat(10_000)}\r\n\r\n`);
    expect(statusAndBody(answer)).toEqual({
      status: 431,
      body: { error: 'the request headers are too large' },
    });
  });

  it('400 for Content-Length with Transfer-Encoding', async () => {
    const answer = await raw(
      'POST /v1/static-export/jobs HTTP/1.1\r\nhost: x\r\ncontent-length: 5\r\ntransfer-encoding: chunked\r\n\r\n0\r\n\r\n',
    );
    const { status, body } = statusAndBody(answer);
    expect(status).toBe(400);
    expect(body).toEqual({ error: expect.any(String) });
  });

  it('400 {error} for a bad URL encoding', async () => {
    const { status, body } = await call(api, 'GET', '/v1/static-export/jobs/%E0%A4%A');
    expect(status).toBe(400);
    expect(body).toEqual({ error: expect.any(String) });
  });

  it('{error} for a very long URL', async () => {
    const { status, body } = await call(api, 'GET', `/v1/static-export/jobs/${'a'.repeat(6_000)}`);
    expect(status).toBeGreaterThanOrEqual(400);
    expect(status).toBeLessThan(500);
    expect(body).toEqual({ error: expect.any(String) });
  });
});

describe('the body limit', () => {
  it('is 1 MiB when the server block does not name one', async () => {
    const other = await startTestApi('', undefined, undefined, 'server: { host: 127.0.0.1, port: 0 }');
    try {
      expect(other.config.server.bodyLimitBytes).toBe(1024 * 1024);
      const { status } = await call(other, 'POST', '/v1/static-export/jobs', {
        key: other.keys.acme,
        body: { domain: 'docs.acme.test', padding: 'x'.repeat(200_000) },
      });
      expect(status).not.toBe(413);
    } finally {
      await other.close();
    }
  });
});
