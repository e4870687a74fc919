import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capLine, loggableUrl } from '../../src/api/logging.ts';
import { call, startTestApi, type TestApi } from './helpers.ts';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api?.close();
});

/** The secret part of a key: what must never be in the log. */
const secretOf = (key: string) => key.slice(key.indexOf('_') + 1);

describe('secrets never reach the log', () => {
  it('redacts a key sent in any header or query parameter of a refused request', async () => {
    const key = api.keys.acme;
    await call(api, 'GET', '/v1/static-export/jobs/se_0000000000000000', {
      headers: { 'x-api-key': key, 'proxy-authorization': `Basic ${key}`, 'x-custom': `token ${key}` },
    });
    await call(api, 'GET', `/v1/static-export/jobs/se_0000000000000000?api_key=${key}`);
    await call(api, 'GET', `/v1/static-export/jobs/se_0000000000000000?anything=${encodeURIComponent(key)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(api.log.text).toContain('request refused');
    expect(api.log.text).not.toContain(secretOf(key));
    expect(api.log.text).toContain('"x-api-key":"[redacted]"');
    expect(api.log.text).toContain('api_key=[redacted]');
  });

  it('redacts link parameters whose names are percent-encoded', () => {
    const signature = 'ab'.repeat(32);
    const url = loggableUrl(
      `/downloads/bundles/x.tar.gz?expires=1&%73ignature=${signature}&X-Amz-Signature=${signature}`,
    );
    expect(url).not.toContain(signature);
    expect(url).toBe(
      '/downloads/bundles/x.tar.gz?expires=1&%73ignature=[redacted]&X-Amz-Signature=[redacted]',
    );
  });
});

describe('log lines', () => {
  it('stay under 16 KiB: a body of 500 paths gives a short line', async () => {
    const before = api.log.text.length;
    await call(api, 'POST', '/v1/static-export/jobs', {
      key: api.keys.acme,
      body: {
        domain: 'docs.acme.test',
        paths: Array.from({ length: 500 }, (_, i) => `${'p'.repeat(500)}${i}`),
      },
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const lines = api.log.text.slice(before).trim().split('\n');
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      expect(line.length).toBeLessThanOrEqual(16 * 1024);
      expect(() => JSON.parse(line)).not.toThrow();
    }
  });

  it('shortens the long strings and lists of an oversized line and keeps it JSON', () => {
    const line = `${JSON.stringify({ level: 30, msg: 'x', paths: Array.from({ length: 500 }, () => 'p'.repeat(600)) })}\n`;
    const capped = capLine(line);
    expect(capped.length).toBeLessThanOrEqual(16 * 1024);
    const parsed = JSON.parse(capped);
    expect(parsed.msg).toBe('x');
    expect(parsed.paths).toHaveLength(21);
    expect(parsed.paths[20]).toBe('… 480 more');
  });
});
