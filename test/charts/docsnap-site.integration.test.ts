import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { AppsV1Api, CoreV1Api, CustomObjectsApi, type V1Pod } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import { kubeConfigFor } from '../../tools/local/control-plane.ts';
import { makeWorkDir } from '../../tools/local/processes.ts';
import { chartDir, type HelmResult, type HelmTools, helm, locateHelm } from '../harness/helm.ts';
import { digest, everything, link } from './values.ts';

const run = promisify(execFile);
const connection = inject('kube');
const kc = kubeConfigFor(connection);
const core = kc.makeApiClient(CoreV1Api);
const apps = kc.makeApiClient(AppsV1Api);
const custom = kc.makeApiClient(CustomObjectsApi);

const tools = await locateHelm();
const missing = 'missing' in tools ? tools.missing : undefined;
if (missing) console.warn(`[charts] the docsnap-site install tests are skipped: ${missing}`);

// A namespace where Pod Security admission enforces (and warns about) the restricted profile.
const namespace = `site-${randomBytes(3).toString('hex')}`;
const work = makeWorkDir('chart-install');
let files = 0;

async function helmIn(args: string[], values?: object): Promise<HelmResult> {
  const extra: string[] = [];
  if (values) {
    const file = join(work, `values-${++files}.json`);
    writeFileSync(file, JSON.stringify(values)); // JSON is YAML, without YAML 1.1's surprises
    extra.push('--values', file);
  }
  return helm(
    (tools as HelmTools).helm,
    [...args, '--namespace', namespace, '--kubeconfig', connection.kubeconfigPath, ...extra],
    work, // helm's home
  );
}

async function kubectl(...args: string[]): Promise<string> {
  const { stdout } = await run(connection.kubectl, ['--kubeconfig', connection.kubeconfigPath, ...args]);
  return stdout;
}

const deploymentOf = (release: string) =>
  apps.readNamespacedDeployment({ namespace, name: `${release}-docsnap-site` });

beforeAll(async () => {
  if (missing) return;
  // The upstream HTTPRoute CRD (sigs.k8s.io/gateway-api's module zip, via tools/helm/build.sh).
  await kubectl(
    'apply',
    '--server-side',
    '-f',
    join((tools as HelmTools).gatewayApiCrds, 'gateway.networking.k8s.io_httproutes.yaml'),
  );
  await kubectl(
    'wait',
    '--for=condition=Established',
    'crd/httproutes.gateway.networking.k8s.io',
    '--timeout=60s',
  );
  await core.createNamespace({
    body: {
      metadata: {
        name: namespace,
        labels: {
          'pod-security.kubernetes.io/enforce': 'restricted',
          'pod-security.kubernetes.io/warn': 'restricted',
        },
      },
    },
  });
});

afterAll(async () => {
  rmSync(work, { recursive: true, force: true });
});

describe.skipIf(missing !== undefined)(
  `helm install of the docsnap-site chart${missing ? ' (helm missing)' : ''}`,
  () => {
    it('installs with every optional feature on: the apiserver accepts each object', async () => {
      const result = await helmIn(['install', 'full', chartDir], everything);
      expect(result.code, result.stderr).toBe(0);
      // The namespace warns about workloads breaking the restricted profile: there is none.
      expect(result.stderr).not.toMatch(/PodSecurity/);
      expect(result.stdout).toContain('STATUS: deployed');
      expect(result.stdout).toContain('Secret docs-values'); // NOTES name the Secret the pods read

      const name = 'full-docsnap-site';
      const deployment = await deploymentOf('full');
      expect(deployment.spec?.template.spec?.volumes?.[0]).toMatchObject({
        name: 'values',
        secret: { secretName: 'docs-values', items: [{ key: 'site.yaml', path: 'values.yaml' }] },
      });
      await core.readNamespacedService({ namespace, name });
      await core.readNamespacedServiceAccount({ namespace, name });
      const kinds = JSON.parse(
        await kubectl(
          'get',
          '-n',
          namespace,
          'ingress,hpa,pdb,httproutes',
          '-l',
          'app.kubernetes.io/instance=full',
          '-o',
          'json',
        ),
      ) as { items: { kind: string; metadata: { name: string } }[] };
      expect(kinds.items.map((o) => `${o.kind}/${o.metadata.name}`).sort()).toEqual([
        `HTTPRoute/${name}`,
        `HorizontalPodAutoscaler/${name}`,
        `Ingress/${name}`,
        `PodDisruptionBudget/${name}`,
      ]);
      const route = (await custom.getNamespacedCustomObject({
        group: 'gateway.networking.k8s.io',
        version: 'v1',
        namespace,
        plural: 'httproutes',
        name,
      })) as { spec: { parentRefs: unknown[]; rules: { backendRefs: unknown[] }[] } };
      expect(route.spec.parentRefs).toEqual([
        expect.objectContaining({ name: 'public', namespace: 'gateways', sectionName: 'https' }),
      ]);
      expect(route.spec.rules[0]?.backendRefs).toEqual([expect.objectContaining({ name, port: 80 })]);
    });

    it("creates a Pod from the Deployment's template under the restricted Pod Security profile", async () => {
      // No controller-manager runs, so no ReplicaSet makes pods: a Pod from the stored template,
      // created with dry-run, goes through the same PodSecurity admission.
      const template = (await deploymentOf('full')).spec?.template;
      const pod = (spec: V1Pod['spec']): V1Pod => ({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'pod-security-check', namespace, labels: template?.metadata?.labels },
        spec,
      });
      const accepted = await core.createNamespacedPod({
        namespace,
        body: pod(template?.spec),
        dryRun: 'All',
      });
      expect(accepted.metadata?.name).toBe('pod-security-check');

      // The admission is really on: the same Pod with privilege escalation allowed is refused.
      const spec = structuredClone(template?.spec);
      const container = spec?.containers[0];
      if (!container?.securityContext) throw new Error('the template has no container securityContext');
      container.securityContext.allowPrivilegeEscalation = true;
      await expect(
        core.createNamespacedPod({ namespace, body: pod(spec), dryRun: 'All' }),
      ).rejects.toMatchObject({
        code: 403,
        body: expect.stringContaining('violates PodSecurity'),
      });
    });

    it('rolls the pods for a new version and not for a new link', async () => {
      const values = (bundleUrl: string, version: string) => ({
        staticExport: { enabled: true, bundleUrl, version },
        podDisruptionBudget: { enabled: false },
      });
      const installed = await helmIn(['install', 'plain', chartDir], values(link(1), digest('a')));
      expect(installed.code, installed.stderr).toBe(0);
      expect(installed.stderr).not.toMatch(/PodSecurity/);
      const before = await deploymentOf('plain');

      const valuesFile = async () => {
        const secret = await core.readNamespacedSecret({ namespace, name: 'plain-docsnap-site-values' });
        return parse(Buffer.from(secret.data?.['values.yaml'] ?? '', 'base64').toString('utf8'));
      };
      expect(await valuesFile()).toEqual({
        staticExport: { enabled: true, bundleUrl: link(1), version: digest('a') },
      });

      // A link refresh: the Secret the pods mount changes, the Deployment's spec does not.
      const refreshed = await helmIn(['upgrade', 'plain', chartDir], values(link(2), digest('a')));
      expect(refreshed.code, refreshed.stderr).toBe(0);
      expect((await valuesFile()).staticExport.bundleUrl).toBe(link(2));
      const afterRefresh = await deploymentOf('plain');
      expect(afterRefresh.metadata?.generation).toBe(before.metadata?.generation);
      expect(afterRefresh.spec?.template).toEqual(before.spec?.template);

      // A new version: a new pod template, so a rolling update (maxUnavailable 0).
      const published = await helmIn(['upgrade', 'plain', chartDir], values(link(3), digest('c')));
      expect(published.code, published.stderr).toBe(0);
      const afterPublish = await deploymentOf('plain');
      expect(afterPublish.metadata?.generation).toBe((before.metadata?.generation ?? 0) + 1);
      expect(afterPublish.spec?.template.metadata?.annotations).toEqual({
        'docsnap.dev/static-export-version': digest('c'),
      });
      expect(afterPublish.spec?.strategy?.rollingUpdate?.maxUnavailable).toBe(0);
    });

    it('refuses a bad value at install, naming it, and creates nothing', async () => {
      const result = await helmIn(['install', 'bad', chartDir], { staticExport: { enabled: 'yes' } });
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain("at '/staticExport/enabled': got string, want boolean");
      const releases = await helmIn(['list', '--all', '--short']);
      expect(releases.stdout.split('\n')).not.toContain('bad');
    });

    it('uninstalls, removing what it created', async () => {
      const result = await helmIn(['uninstall', 'plain']);
      expect(result.code, result.stderr).toBe(0);
      await expect(deploymentOf('plain')).rejects.toMatchObject({ code: 404 });
      await expect(
        core.readNamespacedSecret({ namespace, name: 'plain-docsnap-site-values' }),
      ).rejects.toMatchObject({ code: 404 });
    });
  },
);
