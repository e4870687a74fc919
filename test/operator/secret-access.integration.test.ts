import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createLogger } from '../../src/api/logging.ts';
import type { StaticExport } from '../../src/contract/static-export.ts';
import { type RunningController, startController } from '../../src/operator/controller.ts';
import type { Exporter } from '../../src/operator/exporters/exporter.ts';
import { EventRecorder } from '../../src/operator/runtime/events.ts';
import { StaticExportReconciler } from '../../src/operator/static-export/reconciler.ts';
import { DEFAULT_TIMING } from '../../src/operator/static-export/timing.ts';
import { LogCapture, startTestApi, type TestApi } from '../api/helpers.ts';
import { Cluster } from './helpers.ts';

/**
 * What StaticExport create rights amount to: only Secrets and targets that opt in for the
 * StaticExport are used, no Secret content reaches status, events or logs, no directory of the
 * operator's pod is exported, and a link that expires at once does not make the operator spin.
 */
const cluster = new Cluster(inject('kube'), 'sx-access');
let api: TestApi;
let operator: RunningController;
const log = new LogCapture();
/** An "Admin API" of the StaticExport author's choosing: it records what it is sent. */
let collector: Server;
let collectorUrl = '';
const received: string[] = [];

const readyCondition = (r: StaticExport) => r.status?.conditions?.find((c) => c.type === 'Ready');
const spec = (
  adminKeySecret: string,
  targets: unknown[] = [{ secret: { name: `${adminKeySecret}-values` } }],
) => ({
  domain: 'docs.acme.test',
  exporter: { api: { url: api.url, adminKeySecretRef: { name: adminKeySecret, key: 'key' } } },
  targets,
  pollInterval: '300ms',
});

beforeAll(async () => {
  api = await startTestApi('links: { lifetime: 1h }');
  collector = createServer((request, response) => {
    received.push(`${request.method} ${request.url} ${request.headers.authorization ?? ''}`);
    response.writeHead(500).end();
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  collectorUrl = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
  await cluster.installCrd();
  operator = await startController({
    kubeConfig: cluster.kubeConfig,
    log: createLogger({ level: 'debug', destination: log }),
    namespaces: [cluster.namespace],
    settings: { failureBackoffMs: 1_000, maxFailureBackoffMs: 4_000, renewJitterMs: 0 },
  });
});

afterAll(async () => {
  await operator?.stop();
  await api?.close();
  collector?.close();
});

describe('Secrets a StaticExport may use', () => {
  it('never reads a Secret that does not opt in, nor sends its value anywhere', async () => {
    await cluster.createSecret('someone-elses-token', { key: 'Sup3rS3cretT0ken' }, { for: false });
    await cluster.create('thief', {
      ...spec('someone-elses-token'),
      exporter: {
        api: { url: collectorUrl, adminKeySecretRef: { name: 'someone-elses-token', key: 'key' } },
      },
    });
    const refused = await cluster.waitFor(
      'thief',
      (r) => readyCondition(r)?.reason === 'AdminKeySecretNotFound',
    );
    expect(readyCondition(refused)?.message).toContain('docsnap.dev/static-export=thief');
    expect(refused.status?.phase).toBe('Pending');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(received).toEqual([]);
    expect(JSON.stringify(await cluster.events('thief')) + log.text).not.toContain('Sup3rS3cretT0ken');
  });

  it('refuses a Secret labelled for other StaticExports, and uses one labelled with its name', async () => {
    await cluster.createSecret('blog-key', { key: api.keys.acme }, { for: ['blog', 'wiki'] });
    await cluster.create('docs-other', spec('blog-key'));
    const refused = await cluster.waitFor(
      'docs-other',
      (r) => readyCondition(r)?.reason === 'SecretNotAllowed',
    );
    expect(readyCondition(refused)?.message).toMatch(
      /does not allow this StaticExport.*docsnap\.dev\/static-exports/,
    );

    await cluster.createSecret('own-key', { key: api.keys.acme }, { for: 'docs-own' });
    await cluster.create('docs-own', spec('own-key'));
    const ready = await cluster.waitFor('docs-own', (r) => r.status?.phase === 'Ready');
    expect(readyCondition(ready)?.status).toBe('True');
    // The target it created carries the label and an owner reference: it may write it again.
    const target = await cluster.core.readNamespacedSecret({
      namespace: cluster.namespace,
      name: 'own-key-values',
    });
    expect(target.metadata?.labels?.['docsnap.dev/static-export']).toBe('docs-own');
    expect(target.metadata?.ownerReferences?.[0]?.uid).toBe(ready.metadata.uid);
  });

  it('never edits an existing Secret or ConfigMap target that does not opt in', async () => {
    await cluster.createSecret('shared-key', { key: api.keys.acme });
    await cluster.createSecret('database', { 'values.yaml': 'password: hunter2\n' }, { for: false });
    await cluster.core.createNamespacedConfigMap({
      namespace: cluster.namespace,
      body: { metadata: { name: 'app-config' }, data: { 'values.yaml': 'replicas: 3\n' } },
    });
    await cluster.create(
      'editor',
      spec('shared-key', [{ secret: { name: 'database' } }, { configMap: { name: 'app-config' } }]),
    );
    const refused = await cluster.waitFor('editor', (r) => (r.status?.targets ?? []).length === 2);
    expect(refused.status?.targets?.map((t) => t.error)).toEqual([
      expect.stringMatching(
        /^Secret database exists and does not allow this StaticExport to write it: label it docsnap\.dev\/static-export=editor/,
      ),
      expect.stringMatching(/^ConfigMap app-config exists and does not allow this StaticExport/),
    ]);
    expect([refused.status?.phase, readyCondition(refused)?.reason]).toEqual(['Failed', 'TargetWriteFailed']);
    expect(await cluster.secretValue('database', 'values.yaml')).toBe('password: hunter2\n');
    const configMap = await cluster.core.readNamespacedConfigMap({
      namespace: cluster.namespace,
      name: 'app-config',
    });
    expect(configMap.data?.['values.yaml']).toBe('replicas: 3\n');
  });

  it('reports a target holding invalid YAML by line and column, never by its content', async () => {
    await cluster.createSecret('yaml-key', { key: api.keys.acme });
    await cluster.createSecret(
      'broken-values',
      { 'values.yaml': 'tok: en: Sup3rS3cretT0ken\n' },
      { for: 'broken' },
    );
    await cluster.create('broken', spec('yaml-key', [{ secret: { name: 'broken-values' } }]));
    const failed = await cluster.waitFor('broken', (r) => Boolean(r.status?.targets?.[0]?.error));
    expect(failed.status?.targets?.[0]?.error).toMatch(/not valid YAML at line 1, column \d+ \([A-Z_]+\)/);
    const events = await cluster.eventsOnce('broken', (e) => e.reason === 'TargetWriteFailed');
    const visible = JSON.stringify(failed.status) + JSON.stringify(events) + log.text;
    expect(visible).not.toContain('Sup3rS3cretT0ken');
  });
});

describe('path sources of the embedded exporter', () => {
  it('are refused when the operator was not given directories it may export', async () => {
    await cluster.createSecret('s3', { accessKeyId: 'a', secretAccessKey: 'b' });
    await cluster.create('etc', {
      domain: 'docs.acme.test',
      exporter: {
        embedded: {
          source: { path: '/etc' },
          storage: {
            s3: { bucket: 'bundles', endpoint: 'http://127.0.0.1:1', credentialsSecretRef: { name: 's3' } },
          },
        },
      },
      targets: [{ secret: { name: 'etc-values' } }],
    });
    const refused = await cluster.waitFor('etc', (r) => readyCondition(r)?.reason === 'SourcePathNotAllowed');
    expect(readyCondition(refused)?.message).toMatch(/--allow-source-path/);
    expect(await cluster.secretValue('etc-values', 'values.yaml')).toBeUndefined();
  });
});

describe('a link that expires at once', () => {
  it('is a failure with backoff, not a loop of bundle calls and writes', { timeout: 90_000 }, async () => {
    const shortLinks = await startTestApi('links: { lifetime: 1s }');
    try {
      await cluster.createSecret('short-key', { key: shortLinks.keys.acme });
      await cluster.create('short', {
        ...spec('short-key'),
        exporter: { api: { url: shortLinks.url, adminKeySecretRef: { name: 'short-key', key: 'key' } } },
      });
      const failing = await cluster.waitFor('short', (r) => readyCondition(r)?.reason === 'BundleFailed');
      expect(failing.status?.phase).toBe('Bundling');
      expect(failing.status?.error).toMatch(/works for \d+ s, less than the 10 s needed to deliver it/);
      const bundleCalls = () =>
        (shortLinks.log.text.match(/"url":"\/v1\/static-export\/jobs\/se_[0-9a-f]+\/bundle"/g) ?? []).length;
      const before = bundleCalls();
      await new Promise((resolve) => setTimeout(resolve, 30_000));
      const during = bundleCalls() - before;
      // Backoff 1 s doubling to 4 s: about nine calls in 30 s; a loop makes hundreds.
      expect(during).toBeGreaterThan(0);
      expect(during).toBeLessThanOrEqual(12);
      expect(await cluster.secretValue('short-values', 'values.yaml')).toBeUndefined();
      console.log(`[access] bundle calls in 30 s for a link that expires at once: ${during}`);
    } finally {
      await shortLinks.close();
    }
  });
});

describe('a reconcile in flight when leadership is lost', () => {
  it('writes neither targets nor status once its signal aborts', async () => {
    await cluster.createSecret('abort-key', { key: api.keys.acme });
    // Created with the operator's own reconciles suspended, so only the one below acts on it.
    const created = await cluster.create('aborted', { ...spec('abort-key'), suspend: true });
    const leadership = new AbortController();
    let startCalled = false;
    const exporter: Exporter = {
      start: async () => {
        startCalled = true;
        leadership.abort(new Error('leadership lost'));
        return {
          jobId: 'se_0000000000000001',
          status: 'queued',
          progress: 0,
          pageCount: 0,
          createdAt: '',
          updatedAt: '',
        };
      },
      status: async () => {
        throw new Error('not called');
      },
      bundle: async () => {
        throw new Error('not called');
      },
    };
    const reconciler = new StaticExportReconciler({
      custom: cluster.custom,
      core: cluster.core,
      events: new EventRecorder(cluster.core, createLogger({ level: 'silent' })),
      log: createLogger({ level: 'silent' }),
      exporterFor: async () => exporter,
      timing: DEFAULT_TIMING,
    });
    const unsuspended = { ...created, spec: { ...created.spec, suspend: false } } as StaticExport;
    await expect(reconciler.reconcile(unsuspended, leadership.signal)).rejects.toThrow('leadership lost');
    expect(startCalled).toBe(true);
    const after = await cluster.get('aborted');
    expect(after.status?.jobId).toBeUndefined();
    expect(await cluster.secretValue('abort-key-values', 'values.yaml')).toBeUndefined();
  });
});
