import { CoreV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import { createLogger } from '../../src/api/logging.ts';
import type { StaticExport } from '../../src/contract/static-export.ts';
import { type Manager, startManager } from '../../src/operator/manager.ts';
import { LEADER_ELECTION_RULES, OPERATOR_RULES } from '../../src/operator/rbac.ts';
import { mintServiceAccount } from '../../tools/local/control-plane.ts';
import { LogCapture, startTestApi, type TestApi } from '../api/helpers.ts';
import { Cluster } from './helpers.ts';

const connection = inject('kube');
const cluster = new Cluster(connection, 'sx-rbac');
const log = new LogCapture();
let api: TestApi;
let manager: Manager;
let identity: Awaited<ReturnType<typeof mintServiceAccount>>;

const isReady = (r: StaticExport) =>
  r.status?.phase === 'Ready' && r.status.observedGeneration === r.metadata.generation;

beforeAll(async () => {
  api = await startTestApi('links: { lifetime: 1h }');
  await cluster.installCrd();
  await cluster.createSecret('admin-key', { key: api.keys.acme });
  // Exactly the rules config/rbac/operator.yaml grants, nothing more.
  identity = await mintServiceAccount(connection, {
    namespace: 'docsnap-system',
    name: 'operator',
    rules: [...OPERATOR_RULES, ...LEADER_ELECTION_RULES],
    scope: 'cluster',
  });
  manager = await startManager({
    kubeConfig: identity.kubeConfig,
    log: createLogger({ level: 'debug', destination: log }),
    namespaces: [cluster.namespace],
    leaderElection: { namespace: 'docsnap-system' },
    listen: false,
  });
});

afterAll(async () => {
  await manager?.stop();
  await api?.close();
});

describe('the operator under a ServiceAccount holding only the rules in src/operator/rbac.ts', () => {
  it('leads, exports, writes Secret and ConfigMap targets, records events', async () => {
    await cluster.create('docs', {
      domain: 'docs.acme.test',
      exporter: { api: { url: api.url, adminKeySecretRef: { name: 'admin-key', key: 'key' } } },
      targets: [{ secret: { name: 'docs-values' } }, { configMap: { name: 'docs-values' } }],
      pollInterval: '300ms',
    });
    const ready = await cluster.waitFor('docs', isReady);
    expect(ready.status?.targets?.map((t) => t.error)).toEqual([undefined, undefined]);
    expect(parse((await cluster.secretValue('docs-values', 'values.yaml')) ?? '').staticExport.enabled).toBe(
      true,
    );
    const configMap = await cluster.core.readNamespacedConfigMap({
      namespace: cluster.namespace,
      name: 'docs-values',
    });
    expect(parse(configMap.data?.['values.yaml'] ?? '').staticExport.bundleUrl).toMatch(/^http/);
    const events = await cluster.eventsOnce('docs', (e) => e.reason === 'BundleReady');
    expect(events.map((e) => e.reason)).toContain('BundleReady');
    expect(manager.leading).toBe(true);
    // Nothing was refused along the way.
    expect(log.text).not.toMatch(/forbidden/i);
  });

  it('holds no more than it needs: no deletes, no Secrets outside reads and writes it makes', async () => {
    const core = identity.kubeConfig.makeApiClient(CoreV1Api);
    await expect(
      core.deleteNamespacedSecret({ namespace: cluster.namespace, name: 'admin-key' }),
    ).rejects.toMatchObject({
      code: 403,
    });
    await expect(core.listNamespacedPod({ namespace: cluster.namespace })).rejects.toMatchObject({
      code: 403,
    });
  });
});
