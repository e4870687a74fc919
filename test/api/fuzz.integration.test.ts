import { execFile, execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentJobs } from '../../src/service/agent-jobs.ts';
import { tempDir } from '../export/fixtures.ts';
import { publishedContract } from './contract/published-contract.ts';
import { agentJobRecord, call, startTestApi, type TestApi, waitForJob } from './helpers.ts';

const run = promisify(execFile);

/** schemathesis from PyPI, installed (or found in the cache) by the same script CI runs. */
function schemathesis(): string {
  const output = execFileSync('bash', [join(process.cwd(), 'tools/schemathesis/build.sh')], {
    encoding: 'utf8',
  });
  const path = /^SCHEMATHESIS=(.+)$/m.exec(output)?.[1];
  if (!path) throw new Error(`tools/schemathesis/build.sh printed no SCHEMATHESIS= line:\n${output}`);
  return path;
}

/**
 * CPython before 3.12 has an AST bug (gh-106905) that crashes schemathesis's coverage phase; the
 * installer prefers a newer Python, and on a machine with none the other phases still run.
 */
function phasesFor(st: string): string[] {
  const config = readFileSync(join(dirname(dirname(st)), 'pyvenv.cfg'), 'utf8');
  const [major = 0, minor = 0] = (/^version\w*\s*=\s*(\d+)\.(\d+)/m.exec(config)?.slice(1) ?? []).map(Number);
  return major > 3 || (major === 3 && minor >= 12) ? [] : ['--phases', 'examples,fuzzing,stateful'];
}

describe('fuzzing docsnap api from its own OpenAPI document (schemathesis)', () => {
  let api: TestApi;
  let st: string;
  const dir = tempDir();

  beforeAll(async () => {
    st = schemathesis();
    api = await startTestApi(
      'rateLimits: { agentJobs: { max: 100000, window: 1h }, staticExport: { max: 100000, window: 1m } }',
    );
    await new AgentJobs(api.store).import(agentJobRecord());
    // A completed job, so that status and bundle calls reach real data, not only 404s.
    const { body } = await call(api, 'POST', '/v1/static-export/jobs', {
      key: api.keys.acme,
      body: { domain: 'docs.acme.test' },
    });
    await waitForJob(api, body.jobId);
    writeFileSync(
      join(dir, 'schemathesis.toml'),
      [
        '[[operations]]',
        'include-path-regex = "jobId"',
        `parameters = { jobId = "${body.jobId}" }`,
        '[[operations]]',
        'include-path-regex = "agent"',
        'parameters = { projectId = "proj-1", id = "job-done" }',
      ].join('\n'),
    );
  }, 120_000);
  afterAll(() => api?.close());

  /** schemathesis against a schema (a URL or a file), every check, a fixed seed; the failures it printed, or ''. */
  async function fuzz(
    schema: string,
    baseUrl?: string,
    checks = 'all',
  ): Promise<{ failures: string; summary: string }> {
    const result = await run(
      st,
      [
        '--config-file',
        join(dir, 'schemathesis.toml'),
        'run',
        schema,
        ...(baseUrl ? ['--url', baseUrl] : []),
        '--header',
        `Authorization: Bearer ${api.keys.acme}`,
        '--checks',
        checks,
        '--max-examples',
        '40',
        '--workers',
        '2',
        '--seed',
        '7',
        ...phasesFor(st),
      ],
      // In a scratch directory: schemathesis keeps a cache of what it found beside where it runs.
      { cwd: dir, env: { ...process.env, NO_COLOR: '1' }, maxBuffer: 64 * 1024 * 1024 },
    ).catch((error: { stdout?: string; code?: number }) => ({
      stdout: error.stdout ?? '',
      failed: error.code,
    }));
    return {
      failures: 'failed' in result ? result.stdout.slice(result.stdout.indexOf('FAILURES'), 20_000) : '',
      summary: result.stdout.slice(result.stdout.lastIndexOf('SUMMARY')),
    };
  }

  it('finds no 5xx and no response that departs from the document', { timeout: 600_000 }, async () => {
    const { failures, summary } = await fuzz(`${api.url}/openapi.json`);
    expect(failures).toBe('');
    expect(summary).toMatch(/\d+ generated, \d+ passed/);
    expect(summary).not.toMatch(/Errors:|failures/);
  });

  it("answers a client of the platform's published contract only as that contract documents", {
    timeout: 600_000,
  }, async () => {
    const contract = join(dir, 'published-contract.json');
    writeFileSync(contract, JSON.stringify(publishedContract));
    // The published schema states no constraint on a domain or a path, but the platform does refuse
    // an invalid one with its documented 400: what is checked is that every answer is documented
    // and shaped as documented, not that every schema-valid body is accepted.
    const { failures, summary } = await fuzz(
      contract,
      api.url,
      'not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance',
    );
    expect(failures).toBe('');
    expect(summary).toMatch(/\d+ generated, \d+ passed/);
    expect(summary).not.toMatch(/Errors:|failures/);
  });
});
