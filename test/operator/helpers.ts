import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ApiextensionsV1Api, CoreV1Api, CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';
import {
  SECRET_ACCESS_ANNOTATION,
  SECRET_ACCESS_LABEL,
  STATIC_EXPORT,
  STATIC_EXPORT_API_VERSION,
  type StaticExport,
  type StaticExportSpec,
} from '../../src/contract/static-export.ts';
import { ensureNamespace, type KubeConnection, kubeConfigFor } from '../../tools/local/control-plane.ts';

export const run = promisify(execFile);
export const REPO = new URL('../..', import.meta.url).pathname;
const { group, version, plural } = STATIC_EXPORT;

/** Admin clients for a test, and shortcuts for the StaticExport resources of one namespace. */
export class Cluster {
  readonly kubeConfig: KubeConfig;
  readonly core: CoreV1Api;
  readonly custom: CustomObjectsApi;
  readonly connection: KubeConnection;
  readonly namespace: string;

  constructor(connection: KubeConnection, namespace: string) {
    this.connection = connection;
    this.namespace = namespace;
    this.kubeConfig = kubeConfigFor(connection);
    this.core = this.kubeConfig.makeApiClient(CoreV1Api);
    this.custom = this.kubeConfig.makeApiClient(CustomObjectsApi);
  }

  kubectl(...args: string[]) {
    return run(this.connection.kubectl, ['--kubeconfig', this.connection.kubeconfigPath, ...args]);
  }

  /** Applies the committed CRD with kubectl, as a user would, and waits until it is served. */
  async installCrd(): Promise<void> {
    await this.kubectl('apply', '-f', join(REPO, 'crds'));
    await this.crdServed(`${plural}.${group}`, 'sx');
    await ensureNamespace(this.core, this.namespace);
  }

  /**
   * Applies another project's CRD (a fixture file) and waits until it is served; `resource` is
   * what kubectl calls it (plural.group).
   */
  async applyCrd(file: string, resource: string): Promise<void> {
    await this.kubectl('apply', '-f', file);
    await this.crdServed(resource, resource);
  }

  async crdExists(name: string): Promise<boolean> {
    const extensions = this.kubeConfig.makeApiClient(ApiextensionsV1Api);
    return extensions.readCustomResourceDefinition({ name }).then(
      () => true,
      () => false,
    );
  }

  private async crdServed(name: string, resource: string): Promise<void> {
    const extensions = this.kubeConfig.makeApiClient(ApiextensionsV1Api);
    await until(`the CRD ${name} to be established`, async () => {
      const crd = await extensions.readCustomResourceDefinition({ name });
      return crd.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True') ?? false;
    });
    // Discovery can lag a moment behind Established.
    await until(`kubectl to know ${resource}`, async () => {
      try {
        await this.kubectl('get', resource, '-A');
        return true;
      } catch {
        return false;
      }
    });
  }

  /**
   * A Secret that StaticExports may use: `for` names the one (its label), or lists several (the
   * annotation; "*" for all of the namespace); `false` creates one that does not opt in.
   */
  async createSecret(
    name: string,
    data: Record<string, string>,
    options: { for?: string | string[] | false } = {},
  ): Promise<void> {
    await this.core.createNamespacedSecret({
      namespace: this.namespace,
      body: { metadata: { name, ...secretAccess(options.for ?? ['*']) }, stringData: data },
    });
  }

  async secretValue(name: string, key: string): Promise<string | undefined> {
    try {
      const secret = await this.core.readNamespacedSecret({ namespace: this.namespace, name });
      const value = secret.data?.[key];
      return value === undefined ? undefined : Buffer.from(value, 'base64').toString('utf8');
    } catch {
      return undefined;
    }
  }

  async create(name: string, spec: StaticExportSpec | Record<string, unknown>): Promise<StaticExport> {
    return (await this.custom.createNamespacedCustomObject({
      group,
      version,
      plural,
      namespace: this.namespace,
      body: { apiVersion: STATIC_EXPORT_API_VERSION, kind: STATIC_EXPORT.kind, metadata: { name }, spec },
    })) as StaticExport;
  }

  async get(name: string): Promise<StaticExport> {
    return (await this.custom.getNamespacedCustomObject({
      group,
      version,
      plural,
      namespace: this.namespace,
      name,
    })) as StaticExport;
  }

  /** A JSON merge patch of the resource (spec or metadata). */
  async patch(name: string, patch: Record<string, unknown>): Promise<void> {
    await this.kubectl(
      '-n',
      this.namespace,
      'patch',
      'sx',
      name,
      '--type=merge',
      '-p',
      JSON.stringify(patch),
    );
  }

  /** Polls the resource until the check passes; returns the resource that passed. */
  async waitFor(
    name: string,
    check: (resource: StaticExport) => boolean,
    timeout = 60_000,
  ): Promise<StaticExport> {
    const deadline = Date.now() + timeout;
    let last: StaticExport | undefined;
    while (Date.now() < deadline) {
      last = await this.get(name);
      if (check(last)) return last;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(`${name} did not reach the expected state; last status: ${JSON.stringify(last?.status)}`);
  }

  /**
   * The resource's events once one of them matches: events are written after the status write
   * they explain, so a test that has just seen the status waits for them.
   */
  async eventsOnce(
    name: string,
    match: (event: { reason?: string; message?: string }) => boolean,
    timeout = 10_000,
  ): Promise<Array<{ reason?: string; message?: string; type?: string }>> {
    const deadline = Date.now() + timeout;
    for (;;) {
      const events = await this.events(name);
      if (events.some(match) || Date.now() > deadline) return events;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  async events(name: string): Promise<Array<{ reason?: string; message?: string; type?: string }>> {
    const list = await this.core.listNamespacedEvent({
      namespace: this.namespace,
      fieldSelector: `involvedObject.name=${name}`,
    });
    return list.items;
  }
}

/** Polls until the check holds (beforeAll hooks cannot use expect.poll). */
/** The labels and annotations that let StaticExports use an object (SECRET_ACCESS_LABEL). */
export function secretAccess(allowed: string | string[] | false): {
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
} {
  if (allowed === false) return {};
  if (typeof allowed === 'string') return { labels: { [SECRET_ACCESS_LABEL]: allowed } };
  return {
    labels: { [SECRET_ACCESS_LABEL]: 'shared' },
    annotations: { [SECRET_ACCESS_ANNOTATION]: allowed.join(',') },
  };
}

export async function until(what: string, check: () => Promise<boolean>, timeout = 20_000): Promise<void> {
  const deadline = Date.now() + timeout;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}
