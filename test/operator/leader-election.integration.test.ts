import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { CoordinationV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { StaticExport } from '../../src/contract/static-export.ts';
import { startTestApi, type TestApi } from '../api/helpers.ts';
import { Cluster, REPO, until } from './helpers.ts';

const connection = inject('kube');
const cluster = new Cluster(connection, 'sx-leader');
const LEASE = 'docsnap-operator';
let api: TestApi;

/** A `docsnap operator` process with its JSON log lines and its metrics address. */
class OperatorProcess {
  readonly child: ChildProcess;
  readonly lines: Array<Record<string, unknown>> = [];
  private buffered = '';

  constructor() {
    this.child = spawn(
      process.execPath,
      [
        join(REPO, 'src/cli/main.ts'),
        'operator',
        '--kubeconfig',
        connection.kubeconfigPath,
        '--namespace',
        cluster.namespace,
        '--leader-election-namespace',
        cluster.namespace,
        '--listen',
        '127.0.0.1:0',
        '--poll-interval',
        '300',
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    this.child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      const text = this.buffered + chunk;
      const complete = text.split('\n');
      this.buffered = complete.pop() ?? '';
      for (const line of complete) if (line.trim()) this.lines.push(JSON.parse(line));
    });
  }

  logged(message: string): boolean {
    return this.lines.some((line) => line.msg === message);
  }

  /** The port of /metrics and the probes, from the process's log. */
  private port(): number {
    const line = this.lines.find((l) => l.msg === 'serving /metrics, /healthz and /readyz');
    const address = line?.address as { port: number } | undefined;
    if (!address) throw new Error('the operator process did not log its metrics address');
    return address.port;
  }

  async metrics(): Promise<string> {
    return (await fetch(`http://127.0.0.1:${this.port()}/metrics`)).text();
  }

  async probe(path: '/healthz' | '/readyz'): Promise<number> {
    return (await fetch(`http://127.0.0.1:${this.port()}${path}`)).status;
  }

  exited(): Promise<number | null> {
    if (this.child.exitCode !== null) return Promise.resolve(this.child.exitCode);
    return new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
  }
}

const processes: OperatorProcess[] = [];
const isReady = (r: StaticExport) =>
  r.status?.phase === 'Ready' && r.status.observedGeneration === r.metadata.generation;
const metricValue = (text: string, name: string) =>
  Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN);

async function lease() {
  const coordination = cluster.kubeConfig.makeApiClient(CoordinationV1Api);
  return coordination.readNamespacedLease({ namespace: cluster.namespace, name: LEASE });
}

beforeAll(async () => {
  api = await startTestApi('links: { lifetime: 1h }\nexports: { concurrency: 2 }');
  await cluster.installCrd();
  await cluster.createSecret('admin-key', { key: api.keys.acme });
});

afterAll(async () => {
  for (const operator of processes) operator.child.kill('SIGKILL');
  await api?.close();
});

describe('two operator replicas with leader election', () => {
  let leader: OperatorProcess;
  let standby: OperatorProcess;

  it('one leads and reconciles; the standby writes nothing and is still ready', async () => {
    const first = new OperatorProcess();
    processes.push(first);
    await until('the first replica leads', async () => first.logged('became the leader'));
    const second = new OperatorProcess();
    processes.push(second);
    await until('the second replica waits', async () => second.logged('waiting to lead'));
    [leader, standby] = [first, second];

    await cluster.create('docs', {
      domain: 'docs.acme.test',
      exporter: { api: { url: api.url, adminKeySecretRef: { name: 'admin-key', key: 'key' } } },
      targets: [{ secret: { name: 'docs-values' } }],
      pollInterval: '300ms',
    });
    await cluster.waitFor('docs', isReady);

    const held = await lease();
    expect(held.spec?.leaseDurationSeconds).toBe(15);
    expect(standby.logged('became the leader')).toBe(false);
    const standbyMetrics = await standby.metrics();
    expect(metricValue(standbyMetrics, 'docsnap_operator_leader')).toBe(0);
    expect(standbyMetrics).not.toMatch(/docsnap_operator_reconciles_total\{/);
    const leaderMetrics = await leader.metrics();
    expect(metricValue(leaderMetrics, 'docsnap_operator_leader')).toBe(1);
    expect(leaderMetrics).toMatch(
      /docsnap_operator_reconciles_total\{result="(success|requeue_after)"\} [1-9]/,
    );
    expect(leaderMetrics).toMatch(/docsnap_operator_static_exports\{phase="Ready"\} 1/);
    expect(leaderMetrics).toContain(
      'docsnap_operator_exporter_calls_total{exporter="api",call="start",result="success"} 1',
    );
    expect(leaderMetrics).toMatch(
      /docsnap_operator_exporter_calls_total\{exporter="api",call="bundle",result="success"\} [1-9]/,
    );
    expect(leaderMetrics).toMatch(/docsnap_operator_reconcile_duration_seconds_count [1-9]/);
    expect(metricValue(leaderMetrics, 'docsnap_operator_link_expiry_seconds')).toBeGreaterThan(3_000);
    expect(metricValue(leaderMetrics, 'docsnap_operator_link_refresh_failures_total')).toBe(0);
    expect(leaderMetrics).toMatch(/^process_resident_memory_bytes \d+/m);
    expect(await standby.probe('/readyz')).toBe(200);
    expect(await leader.probe('/readyz')).toBe(200);
    expect(await leader.probe('/healthz')).toBe(200);
  });

  it('the leader killed, the standby takes over within the lease duration and starts no second export', async () => {
    const before = await cluster.get('docs');
    const jobsBefore = (await api.store.list('jobs/')).length;
    const lastRenewal = Date.parse(String((await lease()).spec?.renewTime));
    leader.child.kill('SIGKILL');
    await leader.exited();
    const killedAt = Date.now();

    await until('the standby leads', async () => standby.logged('became the leader'), 30_000);
    const tookOverAt = Date.now();
    const taken = await lease();
    expect(taken.spec?.leaseTransitions).toBeGreaterThanOrEqual(1);
    // The lease runs out 15 s after the last renewal; the standby tries right then. The margin
    // covers one request and this test's polling of the log.
    expect(tookOverAt - lastRenewal).toBeLessThanOrEqual(15_000 + 1_000);
    expect(tookOverAt - lastRenewal).toBeGreaterThanOrEqual(15_000 - 2_400); // it did wait for the lease
    console.log(
      `takeover ${tookOverAt - killedAt} ms after the kill, ${tookOverAt - lastRenewal} ms after the last renewal`,
    );

    // The new leader picks up where the old one was: same job, no new one.
    await cluster.patch('docs', { metadata: { labels: { touched: 'yes' } } });
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const after = await cluster.get('docs');
    expect(after.status?.jobId).toBe(before.status?.jobId);
    expect((await api.store.list('jobs/')).length).toBe(jobsBefore);
    // It does act: a spec change is exported by the new leader.
    await cluster.patch('docs', { spec: { version: 'after-takeover' } });
    const exported = await cluster.waitFor(
      'docs',
      (r) => isReady(r) && r.status?.bundle?.version === 'after-takeover',
    );
    expect(exported.status?.jobId).not.toBe(before.status?.jobId);
    expect((await api.store.list('jobs/')).length).toBe(jobsBefore + 1);
  });

  it('a leader stopped with SIGTERM hands the lease over at once', async () => {
    const next = new OperatorProcess();
    processes.push(next);
    await until('the new replica waits', async () => next.logged('waiting to lead'));
    const stoppedAt = Date.now();
    standby.child.kill('SIGTERM');
    expect(await standby.exited()).toBe(0);
    await until('the new replica leads', async () => next.logged('became the leader'), 10_000);
    expect(Date.now() - stoppedAt).toBeLessThan(6_000);
  });
});
