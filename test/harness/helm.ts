import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parseAllDocuments } from 'yaml';

const run = promisify(execFile);

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
export const chartDir = `${repoRoot}charts/docsnap-site`;

export interface HelmTools {
  /** The helm binary (built from the Go module proxy by tools/helm/build.sh, or DOCSNAP_HELM). */
  helm: string;
  /** The upstream Gateway API CRDs (standard channel), one YAML file per CRD. */
  gatewayApiCrds: string;
}

/**
 * Runs tools/helm/build.sh, which builds Helm when it is missing (a few minutes on two cores, once)
 * and prints where it is; a cached binary makes it a no-op. Resolves to the tools, or to the
 * reason they are missing (the script's last words) so tests can skip saying why.
 */
export async function locateHelm(): Promise<HelmTools | { missing: string }> {
  try {
    const { stdout } = await run('bash', [`${repoRoot}tools/helm/build.sh`], {
      encoding: 'utf8',
      maxBuffer: 16 * 1024 * 1024,
    });
    const value = (key: string) => {
      const match = new RegExp(`^${key}=(.*)$`, 'm').exec(stdout);
      if (!match?.[1]) throw new Error(`tools/helm/build.sh printed no ${key}`);
      return match[1];
    };
    return { helm: value('HELM'), gatewayApiCrds: value('GATEWAY_API_CRDS') };
  } catch (error) {
    const { stderr, message } = error as { stderr?: string; message: string };
    const tail = (stderr ?? message).trim().split('\n').slice(-5).join('\n');
    return { missing: `helm could not be built by tools/helm/build.sh:\n${tail}` };
  }
}

export interface HelmResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs helm; never throws for a non-zero exit (tests look at the code and the message). `home`
 * (a test's work directory) holds Helm's configuration, data and caches and the Kubernetes
 * client's discovery cache: none of the machine's leaks in, nothing stays behind.
 */
export async function helm(binary: string, args: string[], home: string): Promise<HelmResult> {
  try {
    const { stdout, stderr } = await run(binary, args, {
      encoding: 'utf8',
      maxBuffer: 16 * 1024 * 1024,
      env: {
        PATH: process.env.PATH,
        HOME: home, // ~/.kube/cache
        HELM_CONFIG_HOME: join(home, 'helm', 'config'),
        HELM_DATA_HOME: join(home, 'helm', 'data'),
        HELM_CACHE_HOME: join(home, 'helm', 'cache'),
      },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code?: number; stdout?: string; stderr?: string };
    return {
      code: typeof code === 'number' ? code : 1,
      stdout: stdout ?? '',
      stderr: stderr ?? String(error),
    };
  }
}

/** A Kubernetes object as rendered: enough typing for assertions. */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  // biome-ignore lint/suspicious/noExplicitAny: rendered manifests are checked field by field
  spec?: any;
  // biome-ignore lint/suspicious/noExplicitAny: as above
  [field: string]: any;
}

/** The objects of a multi-document manifest (helm template output), empty documents left out. */
export function parseManifests(text: string): K8sObject[] {
  return parseAllDocuments(text)
    .map((doc) => {
      if (doc.errors.length > 0) throw new Error(`unparseable manifest: ${doc.errors[0]?.message}`);
      return doc.toJS() as K8sObject | null;
    })
    .filter((o): o is K8sObject => o !== null && typeof o === 'object');
}

/**
 * helm for one chart's tests, its home a work directory: values written as JSON (which is YAML,
 * without YAML 1.1's `yes` is true) and `render` for `helm template` into objects.
 */
export function chartHelm(binary: string, work: string, chart: string, release: string, namespace: string) {
  let files = 0;
  const valuesFile = (values: object): string => {
    const file = join(work, `values-${++files}.json`);
    writeFileSync(file, JSON.stringify(values));
    return file;
  };
  const runHelm = (args: string[]) => helm(binary, args, work);
  const render = async (values: object = {}): Promise<K8sObject[]> => {
    const result = await runHelm([
      'template',
      release,
      chart,
      '--namespace',
      namespace,
      '--values',
      valuesFile(values),
    ]);
    if (result.code !== 0) throw new Error(`helm template failed: ${result.stderr}`);
    return parseManifests(result.stdout);
  };
  return { valuesFile, runHelm, render };
}
