import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { tempDir } from '../export/fixtures.ts';

/**
 * config/argocd/staticexport-health.lua, tested as Argo CD tests its resource customizations:
 * health_test.yaml lists objects and the health each must get, and the script runs in gopher-lua
 * (the Lua VM Argo CD uses), built from the Go module proxy by tools/argocd-health/build.sh.
 */

const run = promisify(execFile);
const repo = new URL('../..', import.meta.url).pathname;
const dir = join(repo, 'config/argocd');
let binary: string;

beforeAll(async () => {
  const { stdout } = await run('bash', [join(repo, 'tools/argocd-health/build.sh')]);
  binary = /^ARGOCD_HEALTH=(.*)$/m.exec(stdout)?.[1] as string;
}, 300_000);

interface HealthTest {
  healthStatus: { status: string; message: string };
  inputPath: string;
}

const tests = (parse(readFileSync(join(dir, 'health_test.yaml'), 'utf8')) as { tests: HealthTest[] }).tests;

describe('the Argo CD health check of StaticExport', () => {
  it('covers every phase, suspension and an unobserved spec', () => {
    const statuses = new Set(tests.map((t) => t.healthStatus.status));
    expect([...statuses].sort()).toEqual(['Degraded', 'Healthy', 'Progressing', 'Suspended']);
    expect(tests.length).toBeGreaterThanOrEqual(9);
  });

  it.each(tests)('$inputPath is $healthStatus.status', async ({ healthStatus, inputPath }) => {
    const object = join(tempDir(), 'object.json');
    writeFileSync(object, JSON.stringify(parse(readFileSync(join(dir, inputPath), 'utf8'))));
    const { stdout } = await run(binary, [join(dir, 'staticexport-health.lua'), object]);
    expect(JSON.parse(stdout)).toEqual(healthStatus);
  });
});
