import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import { createLogger } from '../../src/api/logging.ts';
import { STATIC_EXPORT, type StaticExport } from '../../src/contract/static-export.ts';
import { type RunningController, startController } from '../../src/operator/controller.ts';
import { kubeConfigFor } from '../../tools/local/control-plane.ts';
import { LogCapture, startTestApi, type TestApi } from '../api/helpers.ts';
import { EXAMPLE_SITE_PAGES } from '../export/fixtures.ts';
import { TcpProxy } from '../harness/tcp-proxy.ts';
import { Cluster, REPO, secretAccess } from './helpers.ts';

const connection = inject('kube');
const cluster = new Cluster(connection, 'sx-core');
let api: TestApi;
let operator: RunningController;
const operatorLog = new LogCapture();
const SX = { group: STATIC_EXPORT.group, version: STATIC_EXPORT.version, plural: STATIC_EXPORT.plural };

const spec = (overrides: Record<string, unknown> = {}) => ({
  domain: 'docs.acme.test',
  exporter: { api: { url: api.url, adminKeySecretRef: { name: 'admin-key', key: 'key' } } },
  targets: [{ secret: { name: 'docs-values' } }],
  pollInterval: '300ms',
  ...overrides,
});

const valuesOf = (text: string | undefined) => parse(text ?? '')?.staticExport;
const isReady = (r: StaticExport) =>
  r.status?.phase === 'Ready' && r.status.observedGeneration === r.metadata.generation;

async function linkWorks(url: string): Promise<number> {
  const response = await fetch(url);
  await response.arrayBuffer();
  return response.status;
}

beforeAll(async () => {
  api = await startTestApi('links: { lifetime: 30s }\nexports: { concurrency: 2 }');
  await cluster.installCrd();
  await cluster.createSecret('admin-key', { key: api.keys.acme });
  operator = await startController({
    kubeConfig: cluster.kubeConfig,
    log: createLogger({ level: 'debug', destination: operatorLog }),
    namespaces: [cluster.namespace],
    settings: { failureBackoffMs: 1_000, maxFailureBackoffMs: 2_000, renewJitterMs: 1_000 },
  });
});

afterAll(async () => {
  await api?.close();
});

describe('StaticExport operator against a real kube-apiserver and docsnap api', () => {
  // Stopped before the operator process runs: nothing else may start export jobs meanwhile.
  afterAll(async () => {
    await operator?.stop();
  });

  it('refuses invalid specs when they are applied (CRD schema and CEL rules)', async () => {
    const valid = spec();
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      ['domain with a scheme', { ...valid, domain: 'https://docs.acme.test' }, /spec\.domain/],
      ['no targets', { ...valid, targets: [] }, /spec\.targets/],
      [
        'a target of two kinds',
        { ...valid, targets: [{ secret: { name: 'a' }, configMap: { name: 'b' } }] },
        /exactly one target kind must be set/,
      ],
      ['a target of no kind', { ...valid, targets: [{}] }, /exactly one target kind must be set/],
      ['no exporter', { ...valid, exporter: {} }, /exactly one exporter must be set/],
      ['a bad duration', { ...valid, bundle: { renewBefore: '20 minutes' } }, /spec\.bundle\.renewBefore/],
      [
        'a non-http API URL',
        { ...valid, exporter: { api: { ...valid.exporter.api, url: 'ftp://x' } } },
        /url/,
      ],
      ['a missing domain', { ...valid, domain: undefined }, /spec\.domain: Required value/],
      // Durations with a floor: a zero or tiny one would make the operator spin.
      [
        'renewBefore 0s',
        { ...valid, bundle: { renewBefore: '0s' } },
        /spec\.bundle\.renewBefore: .*must be at least 1s/,
      ],
      ['renewBefore 0d', { ...valid, bundle: { renewBefore: '0d' } }, /must be at least 1s/],
      [
        'pollInterval 10ms',
        { ...valid, pollInterval: '10ms' },
        /spec\.pollInterval: .*must be at least 200ms/,
      ],
      ['a re-export every 500ms', { ...valid, reexport: { interval: '500ms' } }, /must be at least 1s/],
      [
        'an embedded link lifetime of 5s',
        {
          ...valid,
          exporter: {
            embedded: {
              source: { git: { url: 'https://git.example.com/docs.git' } },
              storage: { s3: { bucket: 'bundles', credentialsSecretRef: { name: 's3' } } },
              linkLifetime: '5s',
            },
          },
        },
        /linkLifetime: .*must be at least 30s/,
      ],
    ];
    for (const [what, body, message] of cases) {
      const refused = await cluster.create(`bad-${cases.findIndex((c) => c[0] === what)}`, body).then(
        () => undefined,
        (error: { code?: number; body?: string }) => error,
      );
      expect(refused, what).toBeDefined();
      expect(refused?.code, what).toBe(422);
      expect(String(refused?.body), what).toMatch(message);
    }
  });

  it('exports, writes the bundle link to a Secret target, and reports Ready — the link nowhere else', async () => {
    await cluster.create('docs', spec());
    const phases = new Set<string>();
    const ready = await cluster.waitFor('docs', (r) => {
      if (r.status?.phase) phases.add(r.status.phase);
      return isReady(r);
    });
    expect([...phases]).toContain('Exporting');
    // The operator caches objects without managedFields; its writes leave the server's in place.
    const managed = (ready.metadata as { managedFields?: Array<{ subresource?: string }> }).managedFields;
    expect(managed?.some((m) => m.subresource === 'status')).toBe(true);
    expect(managed?.some((m) => m.subresource === undefined)).toBe(true);
    const status = ready.status ?? {};
    expect(status.jobId).toMatch(/^se_[0-9a-f]{16}$/);
    expect(status.pageCount).toBe(EXAMPLE_SITE_PAGES);
    expect(status.progress).toBe(100);
    expect(status.bundle?.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(status.bundle?.version).toBe(status.bundle?.digest);
    expect(Date.parse(status.bundle?.renewalTime ?? '')).toBeLessThan(
      Date.parse(status.bundle?.expiresAt ?? ''),
    );
    expect(status.targets).toEqual([
      expect.objectContaining({ kind: 'Secret', name: 'docs-values', key: 'values.yaml' }),
    ]);
    expect(status.conditions?.find((c) => c.type === 'Ready')).toMatchObject({
      status: 'True',
      reason: 'BundleReady',
    });

    const values = valuesOf(await cluster.secretValue('docs-values', 'values.yaml'));
    expect(values).toMatchObject({ enabled: true, version: status.bundle?.digest });
    expect(await linkWorks(values.bundleUrl)).toBe(200);
    const secret = await cluster.core.readNamespacedSecret({
      namespace: cluster.namespace,
      name: 'docs-values',
    });
    expect(secret.metadata?.labels?.['app.kubernetes.io/managed-by']).toBe('docsnap');
    expect(secret.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'StaticExport', name: 'docs' });

    // The link grants access to the bundle: not in status, events or the operator's log.
    const path = new URL(values.bundleUrl).pathname + new URL(values.bundleUrl).search;
    const events = await cluster.eventsOnce('docs', (e) => e.reason === 'BundleReady');
    expect(events.map((e) => e.reason)).toEqual(expect.arrayContaining(['ExportStarted', 'BundleReady']));
    for (const text of [JSON.stringify(ready), JSON.stringify(events), operatorLog.text]) {
      expect(text).not.toContain(path);
      expect(text).not.toMatch(/signature=/);
    }
    expect(operatorLog.text).toMatch(/"resource":"sx-core\/docs"/);

    const { stdout } = await cluster.kubectl('-n', cluster.namespace, 'get', 'sx', 'docs');
    expect(stdout).toMatch(/NAME\s+PHASE\s+PROGRESS\s+PAGES\s+WARNINGS\s+EXPIRES\s+AGE/);
    expect(stdout).toMatch(new RegExp(`docs\\s+Ready\\s+100\\s+${EXAMPLE_SITE_PAGES}\\s+0\\s`));
  });

  it('writes a ConfigMap target without touching its other keys, comments or formatting', async () => {
    const original =
      '# Values of the docs deployment\nreplicas: 2 # two for availability\nimage:\n  tag: "1.4"\n';
    await cluster.core.createNamespacedConfigMap({
      namespace: cluster.namespace,
      body: {
        metadata: { name: 'site-values', ...secretAccess('docs-cm') },
        data: { 'values.yaml': original, other: 'kept' },
      },
    });
    await cluster.create(
      'docs-cm',
      spec({ targets: [{ configMap: { name: 'site-values' } }], version: 'v7' }),
    );
    await cluster.waitFor('docs-cm', isReady);
    const configMap = await cluster.core.readNamespacedConfigMap({
      namespace: cluster.namespace,
      name: 'site-values',
    });
    const text = configMap.data?.['values.yaml'] ?? '';
    expect(text.startsWith(original)).toBe(true);
    expect(valuesOf(text)).toMatchObject({ enabled: true, version: 'v7' });
    expect(configMap.data?.other).toBe('kept');
    expect(configMap.metadata?.labels?.['app.kubernetes.io/managed-by']).toBeUndefined();
  });

  it('refreshes the link before it expires: the targets never hold an expired link', async () => {
    // Links last 30 s; renewing 25 s before expiry means a fresh link about every 5 s.
    await cluster.create(
      'docs-refresh',
      spec({ targets: [{ secret: { name: 'refresh-values' } }], bundle: { renewBefore: '25s' } }),
    );
    const ready = await cluster.waitFor('docs-refresh', isReady);
    const first = valuesOf(await cluster.secretValue('refresh-values', 'values.yaml')).bundleUrl;
    const jobId = ready.status?.jobId;
    let second: string | undefined;
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      second = valuesOf(await cluster.secretValue('refresh-values', 'values.yaml')).bundleUrl;
      if (second !== first) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(second).not.toBe(first);
    // Both links work: the old one had not expired when it was replaced.
    expect(await linkWorks(first)).toBe(200);
    expect(await linkWorks(second as string)).toBe(200);
    const refreshed = await cluster.get('docs-refresh');
    expect(refreshed.status?.jobId).toBe(jobId); // the same job, a fresh link
    expect(Date.parse(refreshed.status?.bundle?.expiresAt ?? '')).toBeGreaterThan(
      Date.parse(ready.status?.bundle?.expiresAt ?? ''),
    );
    const refreshEvents = await cluster.eventsOnce('docs-refresh', (e) => e.reason === 'LinkRefreshed');
    expect(refreshEvents.map((e) => e.reason)).toContain('LinkRefreshed');
  });

  it('shows a failed refresh in conditions and events, and recovers when the exporter answers again', async () => {
    await cluster.createSecret('flaky-key', { key: api.keys.acme });
    await cluster.create(
      'docs-flaky',
      spec({
        targets: [{ secret: { name: 'flaky-values' } }],
        bundle: { renewBefore: '27s' },
        exporter: { api: { url: api.url, adminKeySecretRef: { name: 'flaky-key', key: 'key' } } },
      }),
    );
    await cluster.waitFor('docs-flaky', isReady);
    // The admin key is revoked (replaced by an unknown one): the next refresh is refused with 401.
    const replaceKey = (key: string) =>
      cluster.core.replaceNamespacedSecret({
        namespace: cluster.namespace,
        name: 'flaky-key',
        body: { metadata: { name: 'flaky-key', ...secretAccess(['*']) }, stringData: { key } },
      });
    await replaceKey(`docsnap_${'x'.repeat(43)}`);
    const failing = await cluster.waitFor('docs-flaky', (r) =>
      Boolean(r.status?.conditions?.some((c) => c.type === 'TargetsSynced' && c.reason === 'RefreshFailed')),
    );
    expect(failing.status?.refreshError).toMatch(/refreshing the bundle link .* failed: .*unknown admin key/);
    expect(failing.status?.phase).toBe('Ready'); // the link in the targets has not expired yet
    const flakyEvents = await cluster.eventsOnce('docs-flaky', (e) => e.reason === 'RefreshFailed');
    expect(flakyEvents.map((e) => e.reason)).toContain('RefreshFailed');

    await replaceKey(api.keys.acme);
    const recovered = await cluster.waitFor('docs-flaky', (r) =>
      Boolean(r.status?.conditions?.some((c) => c.type === 'TargetsSynced' && c.status === 'True')),
    );
    expect(recovered.status?.refreshError).toBeUndefined();
    expect(
      await linkWorks(valuesOf(await cluster.secretValue('flaky-values', 'values.yaml')).bundleUrl),
    ).toBe(200);
    await cluster.custom.deleteNamespacedCustomObject({
      ...SX,
      namespace: cluster.namespace,
      name: 'docs-flaky',
    });
  });

  it('exports again when the re-export interval has passed', async () => {
    await cluster.create(
      'docs-again',
      spec({ targets: [{ secret: { name: 'again-values' } }], reexport: { interval: '2s' } }),
    );
    const first = await cluster.waitFor('docs-again', isReady);
    const second = await cluster.waitFor(
      'docs-again',
      (r) => isReady(r) && r.status?.jobId !== first.status?.jobId,
    );
    expect(second.metadata.generation).toBe(first.metadata.generation);
    await cluster.custom.deleteNamespacedCustomObject({
      ...SX,
      namespace: cluster.namespace,
      name: 'docs-again',
    });
  });

  it('exports again on a spec change and on the export-requested-at annotation', async () => {
    const before = await cluster.waitFor('docs', isReady);
    await cluster.patch('docs', { spec: { version: 'v2' } });
    const afterSpec = await cluster.waitFor(
      'docs',
      (r) => isReady(r) && r.status?.jobId !== before.status?.jobId,
    );
    expect(afterSpec.status?.jobGeneration).toBe(afterSpec.metadata.generation);
    expect(valuesOf(await cluster.secretValue('docs-values', 'values.yaml')).version).toBe('v2');

    await cluster.patch('docs', {
      metadata: { annotations: { 'docsnap.dev/export-requested-at': '2026-11-22T10:00:00Z' } },
    });
    const afterAnnotation = await cluster.waitFor(
      'docs',
      (r) => isReady(r) && r.status?.jobId !== afterSpec.status?.jobId,
    );
    expect(afterAnnotation.status?.jobRequestedAt).toBe('2026-11-22T10:00:00Z');
  });

  it('caches only the Secrets that opt in (not Helm release Secrets, not any other)', async () => {
    await cluster.core.createNamespacedSecret({
      namespace: cluster.namespace,
      body: {
        metadata: { name: 'sh.helm.release.v1.docs.v1' },
        type: 'helm.sh/release.v1',
        stringData: { release: 'x'.repeat(4096) },
      },
    });
    await cluster.createSecret('unrelated', { key: 'value' }, { for: false });
    await cluster.createSecret('plain', { key: 'value' });
    const cached = (name: string) =>
      operator.informers.some((informer) => informer.get(name, cluster.namespace) !== undefined);
    await expect.poll(() => cached('plain')).toBe(true);
    expect(cached('sh.helm.release.v1.docs.v1')).toBe(false);
    expect(cached('unrelated')).toBe(false);
  });

  it('explains a missing admin key Secret in a condition, and goes on once it exists', async () => {
    await cluster.create(
      'docs-nokey',
      spec({
        targets: [{ secret: { name: 'nokey-values' } }],
        exporter: { api: { url: api.url, adminKeySecretRef: { name: 'late-key', key: 'key' } } },
      }),
    );
    const waiting = await cluster.waitFor('docs-nokey', (r) =>
      Boolean(r.status?.conditions?.some((c) => c.reason === 'AdminKeySecretNotFound')),
    );
    expect(waiting.status?.conditions?.find((c) => c.type === 'Ready')?.message).toMatch(
      /Secret late-key .* does not exist in namespace sx-core/,
    );
    await cluster.createSecret('late-key', { key: api.keys.acme });
    await cluster.waitFor('docs-nokey', isReady);
  });

  it('reports a failed export as Failed with the reason, and recovers by itself once the cause is gone', async () => {
    const site = api.config.sites.find((s) => s.domain === 'broken.acme.test');
    const docsJson = join((site?.source as { path: string } | undefined)?.path ?? '', 'docs.json');
    const broken = readFileSync(docsJson, 'utf8');
    await cluster.create(
      'broken',
      spec({ domain: 'broken.acme.test', targets: [{ secret: { name: 'broken-values' } }] }),
    );
    const failed = await cluster.waitFor('broken', (r) => r.status?.phase === 'Failed');
    expect(failed.status?.error).toMatch(/navigation/);
    expect(failed.status?.conditions?.find((c) => c.type === 'Ready')).toMatchObject({
      status: 'False',
      reason: 'ExportFailed',
    });
    const brokenEvents = await cluster.eventsOnce('broken', (e) => e.reason === 'ExportFailed');
    expect(brokenEvents.map((e) => e.reason)).toContain('ExportFailed');

    // The site's owners fix it; the next retry (with backoff) succeeds without anyone touching the resource.
    const generation = failed.metadata.generation;
    writeFileSync(
      docsJson,
      JSON.stringify({ name: 'Fixed', navigation: { groups: [{ group: 'Start', pages: ['index'] }] } }),
    );
    writeFileSync(join(dirname(docsJson), 'index.mdx'), '---\ntitle: Home\n---\n\nFixed.\n');
    try {
      const recovered = await cluster.waitFor('broken', isReady);
      expect(recovered.status?.failures).toBeUndefined();
      expect(recovered.metadata.generation).toBe(generation);
    } finally {
      writeFileSync(docsJson, broken);
      await cluster.custom.deleteNamespacedCustomObject({
        ...SX,
        namespace: cluster.namespace,
        name: 'broken',
      });
    }
  });
});

describe('operator behind a connection that drops', () => {
  const watched = new Cluster(connection, 'sx-watch');
  let proxy: TcpProxy;
  let proxied: RunningController | undefined;
  afterAll(async () => {
    await proxied?.stop();
    await proxy?.stop();
  });

  it('restarts its watches and keeps reconciling', async () => {
    await watched.installCrd();
    await watched.createSecret('admin-key', { key: api.keys.acme });
    const server = new URL(connection.server);
    proxy = await TcpProxy.start(server.hostname, Number(server.port));
    proxied = await startController({
      kubeConfig: kubeConfigFor({ ...connection, server: `https://127.0.0.1:${proxy.port}` }),
      log: createLogger({ level: 'warn', destination: new LogCapture() }),
      namespaces: [watched.namespace],
    });
    await watched.create('docs', spec());
    const first = await watched.waitFor('docs', isReady);

    proxy.drop(); // every connection reset, reconnects refused for a while
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    proxy.restore();
    await watched.patch('docs', { spec: { version: 'after-drop' } });
    const after = await watched.waitFor('docs', (r) => isReady(r) && r.status?.jobId !== first.status?.jobId);
    expect(after.status?.bundle?.version).toBe('after-drop');
    expect(proxied.informers.reduce((total, informer) => total + informer.restarts, 0)).toBeGreaterThan(0);
  });
});

describe('docsnap operator process', () => {
  const other = new Cluster(connection, 'sx-restart');
  let child: ChildProcess | undefined;
  const startProcess = () => {
    child = spawn(
      process.execPath,
      [
        join(REPO, 'src/cli/main.ts'),
        'operator',
        '--kubeconfig',
        connection.kubeconfigPath,
        '--namespace',
        other.namespace,
        '--listen',
        '127.0.0.1:0',
        '--no-leader-elect',
      ],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
    return child;
  };
  afterAll(() => {
    child?.kill('SIGKILL');
  });

  it('killed mid-export and started again, runs exactly one export job for the generation', async () => {
    await other.installCrd();
    await other.createSecret('admin-key', { key: api.keys.acme });
    const jobsBefore = new Set(await api.store.list('jobs/'));
    startProcess();
    await other.create('docs', spec());
    const exporting = await other.waitFor('docs', (r) => Boolean(r.status?.jobId));
    child?.kill('SIGKILL');
    await new Promise((resolve) => child?.once('exit', resolve));
    startProcess();
    const ready = await other.waitFor('docs', isReady);
    expect(ready.status?.jobId).toBe(exporting.status?.jobId);
    const newJobs = (await api.store.list('jobs/')).filter((key) => !jobsBefore.has(key));
    expect(newJobs).toEqual([`jobs/${ready.status?.jobId}.json`]);
    expect(await other.secretValue('docs-values', 'values.yaml')).toContain('bundleUrl');

    // SIGTERM: a graceful stop.
    const exited = new Promise<number | null>((resolve) => child?.once('exit', resolve));
    child?.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
