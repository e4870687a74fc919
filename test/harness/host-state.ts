import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * What a node leaves on the host outside its work directory: network namespaces, network
 * interfaces, iptables rules (kubelet's canary chains, kube-proxy's and the CNI plugins' rules),
 * pod log links and processes. Taken before the node starts and after it stops, the difference
 * is what a teardown failed to remove.
 */
export interface HostState {
  netns: string[];
  links: string[];
  /** `iptables-save` output, to restore. */
  iptables: Record<IptablesCommand, string>;
  podLogLinks: string[];
}

type IptablesCommand = 'iptables' | 'ip6tables';
const IPTABLES: IptablesCommand[] = ['iptables', 'ip6tables'];

export async function hostState(): Promise<HostState> {
  const { stdout: links } = await run('ip', ['-o', 'link', 'show']);
  const iptables = {} as Record<IptablesCommand, string>;
  for (const command of IPTABLES)
    iptables[command] = (await run(`${command}-save`).catch(() => ({ stdout: '' }))).stdout;
  return {
    netns: listDir('/run/netns'),
    links: links
      .split('\n')
      .map((line) => line.split(':')[1]?.trim().split('@')[0] ?? '')
      .filter(Boolean),
    iptables,
    podLogLinks: listDir('/var/log/containers'),
  };
}

/** What `after` has that `before` had not, one line per thing. */
export function hostLeftovers(before: HostState, after: HostState): string[] {
  const added = (a: string[], b: string[]) => b.filter((item) => !a.includes(item));
  const left = [
    ...added(before.netns, after.netns).map((ns) => `network namespace ${ns}`),
    ...added(before.links, after.links).map((link) => `network interface ${link}`),
    ...added(before.podLogLinks, after.podLogLinks).map((link) => `/var/log/containers/${link}`),
  ];
  for (const command of IPTABLES) {
    const rules = (state: HostState) => comparable(state.iptables[command]);
    left.push(...added(rules(before), rules(after)).map((rule) => `${command}: ${rule}`));
  }
  return left;
}

/**
 * Puts the iptables rules back as they were: kubelet creates its canary chains and never removes
 * them, and a CNI DEL that did not run leaves a pod's rules.
 */
export async function restoreIptables(state: HostState): Promise<void> {
  for (const command of IPTABLES) {
    const child = execFile(`${command}-restore`);
    child.stdin?.end(state.iptables[command]);
    await new Promise<void>((resolve, reject) =>
      child.once('exit', (code) =>
        code === 0 ? resolve() : reject(new Error(`${command}-restore exited ${code}`)),
      ),
    );
  }
}

/** The rules of every table, without the counters and comments that change on their own. */
function comparable(save: string): string[] {
  return save
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => line.replace(/ \[\d+:\d+\]$/, ''));
}

function listDir(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir) : [];
}

/** Mount points under `prefix`, deepest first (the order to unmount them in). */
export function mountsUnder(prefix: string): string[] {
  return readFileSync('/proc/self/mounts', 'utf8')
    .split('\n')
    .map((line) => line.split(' ')[1] ?? '')
    .filter((point) => point.startsWith(prefix))
    .sort()
    .reverse();
}
