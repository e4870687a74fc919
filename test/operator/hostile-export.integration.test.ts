import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { StaticExport } from '../../src/contract/static-export.ts';
import { OPERATOR_NODE_OPTIONS } from '../../src/operator/defaults.ts';
import { docsRepo, page } from '../export/fixtures.ts';
import { memoryBombRepo } from '../export/hostile/repos.ts';
import { createBucket } from '../harness/s3.ts';
import { Cluster, REPO } from './helpers.ts';

/**
 * A tenant's hostile docs source exported inside the operator: its StaticExport fails with the
 * reason, another namespace's reaches Ready, and the `docsnap operator` process, run with the
 * memory flags it ships with, never grows past them.
 */

const connection = inject('kube');
const s3 = inject('s3');
const poisoned = new Cluster(connection, 'sx-hostile-a');
const healthy = new Cluster(connection, 'sx-hostile-b');
const bucket = `docsnap-hostile-${Date.now()}`;
let operator: ChildProcess;
let peakRssMiB = 0;
let rssWatch: NodeJS.Timeout;

const spec = (path: string) => ({
  domain: 'docs.hostile.test',
  exporter: {
    embedded: {
      source: { path },
      storage: {
        s3: {
          bucket,
          endpoint: s3.endpoint,
          region: s3.region,
          credentialsSecretRef: { name: 's3-credentials' },
        },
      },
    },
  },
  targets: [{ secret: { name: 'values' } }],
  pollInterval: '300ms',
});

beforeAll(async () => {
  await createBucket(s3, bucket);
  await poisoned.installCrd();
  await healthy.installCrd(); // and its namespace
  for (const cluster of [poisoned, healthy])
    await cluster.createSecret('s3-credentials', {
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
    });
  operator = spawn(
    process.execPath,
    [
      join(REPO, 'src/cli/main.ts'),
      'operator',
      '--kubeconfig',
      connection.kubeconfigPath,
      '--namespace',
      `${poisoned.namespace},${healthy.namespace}`,
      '--no-leader-elect',
      '--listen',
      '',
      '--poll-interval',
      '300',
      '--export-memory-limit',
      '300',
      // Both fixture repositories are made under the temporary directory.
      '--allow-source-path',
      tmpdir(),
    ],
    { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, NODE_OPTIONS: OPERATOR_NODE_OPTIONS } },
  );
  rssWatch = setInterval(() => {
    const status = readFileSync(`/proc/${operator.pid}/status`, 'utf8');
    const kb = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0);
    peakRssMiB = Math.max(peakRssMiB, kb / 1024);
  }, 100);
});

afterAll(() => {
  clearInterval(rssWatch);
  operator?.kill('SIGKILL');
});

describe('a hostile docs source in the embedded exporter', () => {
  it('fails its own StaticExport while another namespace reaches Ready, the operator within its memory flags', {
    timeout: 120_000,
  }, async () => {
    const good = docsRepo({
      'docs.json': {
        name: 'Good',
        colors: { primary: '#0a7' },
        navigation: { groups: [{ group: 'Start', pages: ['index'] }] },
      },
      'index.mdx': page('Home'),
    });
    await poisoned.create('bomb', spec(memoryBombRepo()));
    await healthy.create('docs', spec(good));
    const ready = await healthy.waitFor('docs', (r: StaticExport) => r.status?.phase === 'Ready', 90_000);
    expect(ready.status?.pageCount).toBe(1);
    const failed = await poisoned.waitFor('bomb', (r: StaticExport) => r.status?.phase === 'Failed', 90_000);
    expect(JSON.stringify(failed.status)).toContain('the export used more than 300 MiB of memory, its limit');
    expect(operator.exitCode).toBeNull();
    // --max-old-space-size=96 bounds the heap; the whole process stays far from an export's size.
    expect(peakRssMiB).toBeGreaterThan(0);
    expect(peakRssMiB).toBeLessThan(200);
  });
});
