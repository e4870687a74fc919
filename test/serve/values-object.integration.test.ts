import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CoreV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ensureNamespace, kubeConfigFor, mintServiceAccount } from '../../tools/local/control-plane.ts';
import { tempDir } from '../export/fixtures.ts';
import { ArchiveStore, exportedBundle, startTestServer } from './helpers.ts';

/**
 * `docsnap serve --values-secret` / `--values-configmap`: the values come from an object watched
 * through a real kube-apiserver, and a change is served as soon as the API has it, with no
 * mounted file at all.
 */

const kubeConfig = kubeConfigFor(inject('kube'));
const core = kubeConfig.makeApiClient(CoreV1Api);
const namespace = 'serve-values';
let store: ArchiveStore;
let v1: { archive: Buffer; sha256: string };
let v2: { archive: Buffer; sha256: string };
const servers: Array<Awaited<ReturnType<typeof startTestServer>>> = [];

beforeAll(async () => {
  await ensureNamespace(core, namespace);
  store = await new ArchiveStore().start();
  [v1, v2] = await Promise.all([exportedBundle('Watched one'), exportedBundle('Watched two')]);
}, 120_000);

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await store?.stop();
});

const values = (link: string, sha256: string) =>
  `staticExport:\n  enabled: true\n  bundleUrl: "${link}"\n  version: "sha256:${sha256}"\n`;

async function until(what: string, check: () => boolean, ms = 10_000): Promise<number> {
  const since = Date.now();
  while (!check()) {
    if (Date.now() - since > ms) throw new Error(`${what} did not happen within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return Date.now() - since;
}

describe('values watched through the Kubernetes API', () => {
  it('serves the version a Secret names, and the next one as soon as the Secret changes', async () => {
    const links = [store.put('/s/v1.tar.gz', v1.archive), store.put('/s/v2.tar.gz', v2.archive)];
    await core.createNamespacedSecret({
      namespace,
      body: {
        metadata: { name: 'site-values' },
        stringData: { 'site.yaml': values(links[0] as string, v1.sha256) },
      },
    });
    const server = await startTestServer({
      source: {
        valuesObject: {
          ref: { kind: 'Secret', namespace, name: 'site-values', key: 'site.yaml' },
          kubeConfig,
        },
      },
    });
    servers.push(server);
    await until('the first version', () => server.version() === `sha256:${v1.sha256}`);
    await core.replaceNamespacedSecret({
      name: 'site-values',
      namespace,
      body: {
        metadata: { name: 'site-values' },
        stringData: { 'site.yaml': values(links[1] as string, v2.sha256) },
      },
    });
    const took = await until('the swap', () => server.version() === `sha256:${v2.sha256}`, 5_000);
    expect(took).toBeLessThan(5_000);
    const page = await (await fetch(`${server.url}/`)).text();
    expect(page).toContain('Watched two');
    // The Secret's contents never reach the log: the link's signature stays out.
    expect(server.log.text).not.toContain('signature=');
  });

  it('never goes back to the older values of the mounted file kubelet has not updated yet', async () => {
    const links = [store.put('/f/v1.tar.gz', v1.archive), store.put('/f/v2.tar.gz', v2.archive)];
    const file = join(tempDir('docsnap-values-'), 'values.yaml');
    writeFileSync(file, values(links[0] as string, v1.sha256)); // the file as kubelet last wrote it
    await core.createNamespacedSecret({
      namespace,
      body: {
        metadata: { name: 'site-values-newer' },
        stringData: { 'values.yaml': values(links[1] as string, v2.sha256) },
      },
    });
    const server = await startTestServer({
      source: {
        valuesFile: file,
        valuesObject: {
          ref: { kind: 'Secret', namespace, name: 'site-values-newer', key: 'values.yaml' },
          kubeConfig,
        },
      },
    });
    servers.push(server);
    await until('the watched version', () => server.version() === `sha256:${v2.sha256}`);
    const versions = new Set<string | undefined>();
    const since = Date.now();
    while (Date.now() - since < 2_000) {
      versions.add(server.version()); // the file is read every 500 ms meanwhile
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect([...versions]).toEqual([`sha256:${v2.sha256}`]);
  });

  it('reads a ConfigMap the same way, and keeps serving through a bad edit', async () => {
    const link = store.put('/c/v1.tar.gz', v1.archive);
    await core.createNamespacedConfigMap({
      namespace,
      body: { metadata: { name: 'site-config' }, data: { 'values.yaml': values(link, v1.sha256) } },
    });
    const server = await startTestServer({
      source: {
        valuesObject: {
          ref: { kind: 'ConfigMap', namespace, name: 'site-config', key: 'values.yaml' },
          kubeConfig,
        },
      },
    });
    servers.push(server);
    await until('the first version', () => server.version() === `sha256:${v1.sha256}`);
    await core.replaceNamespacedConfigMap({
      name: 'site-config',
      namespace,
      body: {
        metadata: { name: 'site-config' },
        data: { 'values.yaml': 'staticExport: { enabled: maybe }\n' },
      },
    });
    await until('the refusal', () => /values not applied/.test(server.log.text));
    expect(server.log.text).toMatch(/ConfigMap serve-values\/site-config.*staticExport\.enabled/);
    expect(server.version()).toBe(`sha256:${v1.sha256}`);
  });

  it("works with exactly the chart's Role: read access to that one Secret", async () => {
    // The rule charts/docsnap-site/templates/values-reader.yaml grants (its chart test pins the same).
    const reader = await mintServiceAccount(inject('kube'), {
      namespace,
      name: 'site-reader',
      scope: 'namespace',
      rules: [
        {
          apiGroups: [''],
          resources: ['secrets'],
          resourceNames: ['site-values'],
          verbs: ['get', 'list', 'watch'],
        },
      ],
    });
    const server = await startTestServer({
      source: {
        valuesObject: {
          ref: { kind: 'Secret', namespace, name: 'site-values', key: 'site.yaml' },
          kubeConfig: reader.kubeConfig,
        },
      },
    });
    servers.push(server);
    await until('the version the Secret names', () => server.version() === `sha256:${v2.sha256}`);
    // Any other Secret is refused to that identity.
    await expect(
      core
        .listNamespacedSecret({ namespace, fieldSelector: 'metadata.name=other' })
        .then(() =>
          reader.kubeConfig
            .makeApiClient(CoreV1Api)
            .listNamespacedSecret({ namespace, fieldSelector: 'metadata.name=other' }),
        ),
    ).rejects.toThrow(/403|forbidden/i);
  });
});
