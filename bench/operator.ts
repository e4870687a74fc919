/**
 * npm run bench:operator — `docsnap operator` reconciling many StaticExports against a real etcd +
 * kube-apiserver (the test harness's) and a real `docsnap api` serving a two-page site, and in
 * the same run the peer: a bare controller on @kubernetes/client-node that only writes
 * `phase: Ready` into each object's status (bench/bare-controller.ts), the floor the apiserver
 * allows. Each controller runs as its own process under its own ServiceAccount; the apiserver's
 * audit log (level Metadata, every request) counts their requests per verb and resource.
 *
 * Two rounds per controller: the initial one (first create → every object Ready: export, bundle
 * link, Secret target, status) and one link refresh (every object's status.bundle.expiresAt
 * replaced). Links live an hour, so no refresh falls into the initial round however long it takes;
 * the refresh round starts when the bench moves every status.bundle.renewalTime to now (a JSON
 * patch of /status, as if the clock had reached it: timing is read from status), so all links
 * are due at once. With --refresh-after N the refresh comes by the clock instead: links live N+60 s
 * with renewBefore 60s, each object refreshing about N s after it became Ready (the rounds
 * overlap when the initial one takes longer than N s). Printed per round: wall time, API requests
 * per StaticExport (reads: get/list/watch; writes: create/update/patch/delete) by resource, and
 * the controller process's peak RSS (VmHWM) and RSS at the end, sampled from /proc. The operator
 * runs as the image runs it: `node dist/cli/main.js` (built first) with the image's NODE_OPTIONS.
 * The peer runs a second time with one connection pool for its API calls (bench/reuse-kube-
 * connections.ts preloaded): @kubernetes/client-node 2.0.1 opens a new TLS connection for every
 * API call, and that row shows what it costs. --operator-reuse-connections preloads the same into
 * the operator, to measure what the fix would be worth there.
 * Targets: every object Ready within 60 s; at most 10 writes per StaticExport in the initial
 * round; operator peak RSS under 200 MiB.
 *
 *   npm run bench:operator [-- --count 1000 --keep --operator-args="--concurrency 16"
 *     --operator-reuse-connections --operator-node-options="--max-old-space-size=128" (default: the
 *     flags the operator ships with, src/operator/defaults.ts) --exports-concurrency 8
 *     --create-concurrency 32 --no-peer --no-refresh --refresh-after 90 --timeout 1800]
 */
import { execFileSync } from 'node:child_process';
import {
  closeSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  ApiextensionsV1Api,
  CoreV1Api,
  CustomObjectsApi,
  type KubeConfig,
  type KubernetesListObject,
  ListWatch,
  Watch,
} from '@kubernetes/client-node';
import { SECRET_ACCESS_ANNOTATION, SECRET_ACCESS_LABEL } from '../src/contract/static-export.ts';
import { DEFAULT_CONCURRENCY, OPERATOR_NODE_OPTIONS } from '../src/operator/defaults.ts';
import {
  ensureNamespace,
  KubeControlPlane,
  kubeConfigFor,
  mintServiceAccount,
} from '../tools/local/control-plane.ts';
import { freePort, locateTestServers, type ManagedProcess, startProcess } from '../tools/local/processes.ts';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '1000' },
    keep: { type: 'boolean', default: false },
    'operator-args': { type: 'string', default: '' },
    'operator-node-options': { type: 'string', default: OPERATOR_NODE_OPTIONS },
    'operator-reuse-connections': { type: 'boolean', default: false },
    'peer-concurrency': { type: 'string' },
    'exports-concurrency': { type: 'string', default: '8' },
    'create-concurrency': { type: 'string', default: '32' },
    'refresh-after': { type: 'string' },
    'no-peer': { type: 'boolean', default: false },
    'no-refresh': { type: 'boolean', default: false },
    timeout: { type: 'string', default: '1800' },
  },
});
const COUNT = Number(values.count);
/** Refresh by the clock (links of N+60 s, renewBefore 60s), or by moving renewalTime (links of 1 h). */
const BY_CLOCK = values['refresh-after'] !== undefined;
const RENEW_BEFORE_S = BY_CLOCK ? 60 : 1200;
const LIFETIME_S = BY_CLOCK ? Number(values['refresh-after']) + RENEW_BEFORE_S : 3600;
const ROUND_TIMEOUT_MS = Number(values.timeout) * 1000;
/** After the last object is done, requests are still counted this long (events follow status). */
const TAIL_MS = 5_000;
const TARGETS = { readySeconds: 60, writesPerObject: 10, rssMiB: 200 };
const operatorArgs = values['operator-args'].split(/\s+/).filter(Boolean);
const REUSE_CONNECTIONS = [
  '--import',
  fileURLToPath(new URL('./reuse-kube-connections.ts', import.meta.url)),
];
/** Node flags for the operator process only, e.g. "--max-old-space-size=128". */
const nodeOptions = [
  ...values['operator-node-options'].split(/\s+/).filter(Boolean),
  ...(values['operator-reuse-connections'] ? REUSE_CONNECTIONS : []),
];
const operatorConcurrency = flagValue(operatorArgs, '--concurrency') ?? String(DEFAULT_CONCURRENCY);
const peerConcurrency = values['peer-concurrency'] ?? operatorConcurrency;

const repo = fileURLToPath(new URL('..', import.meta.url));
/**
 * The peer, and beside it the same peer with one connection pool for its API calls instead of a
 * new TLS connection per call (see bench/reuse-kube-connections.ts): what the client costs.
 */
const PEERS = [
  {
    id: 'bare-controller',
    name: `bare client-node controller (concurrency ${peerConcurrency})`,
    namespace: 'bench-bare',
    nodeOptions: [] as string[],
  },
  {
    id: 'bare-controller-reuse',
    name: '  the same, connections reused',
    namespace: 'bench-bare-reuse',
    nodeOptions: REUSE_CONNECTIONS,
  },
];
/** The program as the image runs it (dist/, built at the start): type stripping at load costs ~20 MiB of RSS. */
const cli = join(repo, 'dist/cli/main.js');
const [group, version, plural] = ['docsnap.dev', 'v1alpha1', 'staticexports'];
const DOMAIN = 'tiny.bench.test';
const work = mkdtempSync(join(tmpdir(), 'docsnap-bench-operator-'));
const running: ManagedProcess[] = [];
let plane: KubeControlPlane | undefined;
/** Set on SIGINT/SIGTERM: watches failing from then on are expected. */
let stopping = false;

function flagValue(args: string[], flag: string): string | undefined {
  const i = args.findIndex((a) => a === flag || a.startsWith(`${flag}=`));
  if (i < 0) return undefined;
  const arg = args[i] as string;
  return arg.includes('=') ? arg.slice(flag.length + 1) : args[i + 1];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const say = (line: string) => process.stderr.write(`[bench:operator] ${line}\n`);

// ---------------------------------------------------------------------------------------------
// The apiserver's audit log, read as it grows: one record per request (watches log two stages).

interface Request {
  at: number;
  user: string;
  verb: string;
  resource: string;
  code: number;
}

class AuditLog {
  readonly requests: Request[] = [];
  private readonly path: string;
  private offset = 0;
  private partial = '';
  private readonly seen = new Set<string>();

  constructor(path: string) {
    this.path = path;
  }

  /** Reads what was appended since the last call. */
  read(): void {
    const fd = openSync(this.path, 'r');
    try {
      const buffer = Buffer.alloc(1 << 20);
      for (;;) {
        const n = readSync(fd, buffer, 0, buffer.length, this.offset);
        if (n <= 0) break;
        this.offset += n;
        const lines = (this.partial + buffer.toString('utf8', 0, n)).split('\n');
        this.partial = lines.pop() ?? '';
        for (const line of lines) if (line) this.add(JSON.parse(line));
      }
    } finally {
      closeSync(fd);
    }
  }

  private add(event: {
    auditID: string;
    verb: string;
    user?: { username?: string };
    objectRef?: { resource?: string; subresource?: string };
    responseStatus?: { code?: number };
    requestReceivedTimestamp: string;
  }): void {
    if (this.seen.has(event.auditID)) return;
    this.seen.add(event.auditID);
    const ref = event.objectRef;
    this.requests.push({
      at: Date.parse(event.requestReceivedTimestamp),
      user: event.user?.username ?? '',
      verb: event.verb,
      resource: ref?.resource
        ? `${ref.resource}${ref.subresource ? `/${ref.subresource}` : ''}`
        : '(non-resource)',
      code: event.responseStatus?.code ?? 0,
    });
  }

  /** Requests of one user in [from, to). */
  of(user: string, from: number, to: number): Request[] {
    this.read();
    return this.requests.filter((r) => r.user === user && r.at >= from && r.at < to);
  }

  async waitFor(what: string, match: (r: Request) => boolean, timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      this.read();
      if (this.requests.some(match)) return;
      await sleep(100);
    }
    throw new Error(`timed out waiting for ${what}`);
  }
}

const READS = new Set(['get', 'list', 'watch']);
const WRITES = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

// ---------------------------------------------------------------------------------------------
// The operator's own Prometheus metrics (when it serves them): reconciles and exporter calls.

async function scrape(url: string | undefined): Promise<Map<string, number> | undefined> {
  if (!url) return undefined;
  try {
    const text = await (await fetch(url)).text();
    const samples = new Map<string, number>();
    for (const line of text.split('\n')) {
      const match =
        /^(docsnap_\w+|nodejs_heap_size_\w+|nodejs_external_memory_bytes)(\{[^}]*\})?\s+(\S+)$/.exec(line);
      if (match) samples.set(`${match[1]}${match[2] ?? ''}`, Number(match[3]));
    }
    return samples;
  } catch {
    return undefined;
  }
}

function difference(after: Map<string, number> | undefined, before: Map<string, number> | undefined) {
  if (!after) return undefined;
  return new Map([...after].map(([key, value]) => [key, value - (before?.get(key) ?? 0)]));
}

/** "reconciles/SX 5.20 (success 1.00, requeue_after 4.20), …, exporter calls/SX: start 1.00, status 3.10, …" */
function describeMetrics(metrics: Map<string, number>, memory?: Map<string, number>): string {
  const sum = (prefix: string, label?: string) => {
    const groups = new Map<string, number>();
    for (const [key, value] of metrics) {
      if (!key.startsWith(prefix) || value === 0) continue;
      const group = label ? (new RegExp(`${label}="([^"]*)"`).exec(key)?.[1] ?? '') : '';
      groups.set(group, (groups.get(group) ?? 0) + value);
    }
    return groups;
  };
  const perObject = (groups: Map<string, number>) =>
    [...groups].map(([group, n]) => `${group} ${fixed(n / COUNT, 2)}`).join(', ');
  const reconciles = sum('docsnap_operator_reconciles_total', 'result');
  const total = [...reconciles.values()].reduce((a, b) => a + b, 0);
  const seconds = sum('docsnap_operator_reconcile_duration_seconds_sum').get('') ?? 0;
  const calls = sum('docsnap_operator_exporter_calls_total', 'call');
  const mib = (name: string) => fixed((memory?.get(name) ?? Number.NaN) / 2 ** 20);
  return (
    `operator metrics: reconciles/SX ${fixed(total / COUNT, 2)} (${perObject(reconciles)}), ` +
    `mean reconcile ${fixed((seconds / Math.max(1, total)) * 1000)} ms; exporter calls/SX: ${perObject(calls) || 'none'}` +
    (memory
      ? `; at the end: JS heap ${mib('nodejs_heap_size_used_bytes')} MiB used of ${mib('nodejs_heap_size_total_bytes')}, external ${mib('nodejs_external_memory_bytes')} MiB`
      : '')
  );
}

// ---------------------------------------------------------------------------------------------
// Memory of a process, from /proc.

/** User + system CPU time of a process so far, from /proc/PID/stat (clock ticks of 10 ms). */
function cpuSeconds(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

class RssSampler {
  peakMiB = 0;
  currentMiB = 0;
  cpuSeconds = 0;
  private readonly timer: NodeJS.Timeout;
  private readonly pid: number;

  constructor(pid: number) {
    this.pid = pid;
    this.timer = setInterval(() => this.sample(), 200);
  }

  sample(): void {
    this.cpuSeconds = cpuSeconds(this.pid) ?? this.cpuSeconds;
    try {
      const status = readFileSync(`/proc/${this.pid}/status`, 'utf8');
      const hwm = /VmHWM:\s+(\d+) kB/.exec(status);
      const rss = /VmRSS:\s+(\d+) kB/.exec(status);
      if (hwm) this.peakMiB = Math.max(this.peakMiB, Number(hwm[1]) / 1024);
      if (rss) this.currentMiB = Number(rss[1]) / 1024;
    } catch {
      // the process is gone: keep the last figures
    }
  }

  stop(): void {
    this.sample();
    clearInterval(this.timer);
  }
}

// ---------------------------------------------------------------------------------------------
// What the bench sees of the objects: a watch (admin identity) on the round's namespace.

interface Tracked {
  metadata: { name: string; namespace: string; generation: number };
  status?: {
    phase?: string;
    observedGeneration?: number;
    jobId?: string;
    error?: string;
    bundle?: { expiresAt: string; renewalTime: string };
  };
}

class Tracker {
  readonly jobAt = new Map<string, number>();
  readonly readyAt = new Map<string, number>();
  readonly firstBundle = new Map<string, { expiresAt: string; renewalTime: string }>();
  readonly refreshedAt = new Map<string, number>();
  private readonly informer: ListWatch<Tracked>;
  private stopped = false;

  constructor(kubeConfig: KubeConfig, namespace: string) {
    const custom = kubeConfig.makeApiClient(CustomObjectsApi);
    this.informer = new ListWatch<Tracked>(
      `/apis/${group}/${version}/namespaces/${namespace}/${plural}`,
      new Watch(kubeConfig),
      async () =>
        (await custom.listNamespacedCustomObject({
          group,
          version,
          plural,
          namespace,
        })) as KubernetesListObject<Tracked>,
      false,
    );
    this.informer.on('add', (r) => this.see(r));
    this.informer.on('update', (r) => this.see(r));
    this.informer.on('error', (error) => {
      if (this.stopped || stopping) return;
      // 429 "storage is (re)initializing" right after the CRD is established: retried quietly.
      if (!String(error).includes('HTTP-Code: 429'))
        say(`bench watch failed (${String(error).split('\n')[0]}); restarting it`);
      setTimeout(() => {
        if (!this.stopped) void this.informer.start();
      }, 500);
    });
  }

  start(): Promise<void> {
    return this.informer.start();
  }

  stop(): void {
    this.stopped = true;
    void this.informer.stop();
  }

  private see(r: Tracked): void {
    const name = r.metadata.name;
    const now = Date.now();
    if (r.status?.jobId && !this.jobAt.has(name)) this.jobAt.set(name, now);
    const bundle = r.status?.bundle;
    const ready = r.status?.phase === 'Ready' && r.status.observedGeneration === r.metadata.generation;
    if (ready && bundle && !this.readyAt.has(name)) {
      this.readyAt.set(name, now);
      this.firstBundle.set(name, { expiresAt: bundle.expiresAt, renewalTime: bundle.renewalTime });
    }
    const first = this.firstBundle.get(name);
    if (first && bundle && bundle.expiresAt !== first.expiresAt && !this.refreshedAt.has(name))
      this.refreshedAt.set(name, now);
  }

  /** Phases of the cached objects, for progress lines: "Exporting 120, Ready 880". */
  phases(): string {
    const counts = new Map<string, number>();
    for (const r of this.informer.list()) {
      const phase = r.status?.phase ?? '(none)';
      counts.set(phase, (counts.get(phase) ?? 0) + 1);
    }
    return [...counts].map(([phase, n]) => `${phase} ${n}`).join(', ');
  }

  errors(): string[] {
    return [...new Set(this.informer.list().flatMap((r) => (r.status?.error ? [r.status.error] : [])))];
  }
}

async function until(what: string, done: () => boolean, progress: () => string, since: number) {
  const deadline = Date.now() + ROUND_TIMEOUT_MS;
  let nextReport = Date.now() + 10_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${progress()}`);
    if (Date.now() >= nextReport) {
      say(`${((Date.now() - since) / 1000).toFixed(0)} s: ${progress()}`);
      nextReport += 10_000;
    }
    await sleep(50);
  }
}

// ---------------------------------------------------------------------------------------------
// One controller through both rounds.

interface Round {
  seconds: number;
  requests: Request[];
  /** Only the initial round: first create to the last create answered, and to the last job seen. */
  createSeconds?: number;
  jobsSeconds?: number;
  p50Seconds: number;
  /** Only the refresh round: the latest an object's refresh came after its renewalTime. */
  maxLagSeconds?: number;
  peakRssMiB: number;
  rssMiB: number;
  /** CPU time the controller process used in the round. */
  cpuSeconds: number;
  /** What the controller's own metrics counted in the round (docsnap operator only). */
  metrics?: Map<string, number>;
  /** The controller's memory metrics at the end of the round (absolute, not a difference). */
  memory?: Map<string, number>;
  overlap?: number;
}

interface Run {
  name: string;
  initial: Round;
  refresh?: Round;
}

async function runController(options: {
  name: string;
  namespace: string;
  user: string;
  admin: KubeConfig;
  audit: AuditLog;
  start: () => ManagedProcess;
  spec: (name: string) => Record<string, unknown>;
  /** The controller's Prometheus endpoint, scraped before and after each round. */
  metricsUrl?: string;
}): Promise<Run> {
  const { name, namespace, user, admin, audit } = options;
  const custom = admin.makeApiClient(CustomObjectsApi);
  const tracker = new Tracker(admin, namespace);
  await tracker.start();

  const controller = options.start();
  running.push(controller);
  const rss = new RssSampler(controller.child.pid ?? 0);
  await audit.waitFor(
    `${name} to watch StaticExports`,
    (r) => r.user === user && r.verb === 'watch' && r.resource === plural,
  );
  await sleep(1_000); // its other watches (Secrets) and the first (empty) list settle

  say(`${name}: creating ${COUNT} StaticExports in namespace ${namespace}`);
  rss.sample();
  const cpuAtStart = rss.cpuSeconds;
  const metricsAtStart = await scrape(options.metricsUrl);
  const t0 = Date.now();
  await forEachObject((objectName) =>
    custom.createNamespacedCustomObject({
      group,
      version,
      plural,
      namespace,
      body: {
        apiVersion: `${group}/${version}`,
        kind: 'StaticExport',
        metadata: { name: objectName },
        spec: options.spec(objectName),
      },
    }),
  );
  const createSeconds = (Date.now() - t0) / 1000;
  const progress = () => {
    const errors = tracker.errors();
    return (
      `${tracker.readyAt.size}/${COUNT} Ready, ${tracker.refreshedAt.size} refreshed (${tracker.phases()})` +
      (errors.length > 0 ? `; ${errors.length} distinct status errors, e.g. ${errors[0]}` : '')
    );
  };
  await until('every StaticExport to be Ready', () => tracker.readyAt.size >= COUNT, progress, t0);
  const readyAt = Math.max(...tracker.readyAt.values());
  await sleep(TAIL_MS);
  rss.sample();
  const readyTimes = [...tracker.readyAt.values()].map((t) => (t - t0) / 1000).sort((a, b) => a - b);
  const jobTimes = [...tracker.jobAt.values()];
  const initial: Round = {
    seconds: (readyAt - t0) / 1000,
    createSeconds,
    jobsSeconds: jobTimes.length >= COUNT ? (Math.max(...jobTimes) - t0) / 1000 : undefined,
    p50Seconds: readyTimes[Math.floor(readyTimes.length / 2)] ?? 0,
    requests: audit.of(user, t0, readyAt + TAIL_MS),
    peakRssMiB: rss.peakMiB,
    rssMiB: rss.currentMiB,
    cpuSeconds: rss.cpuSeconds - cpuAtStart,
    metrics: difference(await scrape(options.metricsUrl), metricsAtStart),
  };
  initial.memory = await scrape(options.metricsUrl);
  say(`${name}: all ${COUNT} Ready after ${initial.seconds.toFixed(1)} s`);

  const metricsAfterInitial = scrape(options.metricsUrl);
  let refresh: Round | undefined;
  if (!values['no-refresh']) {
    const renewals = [...tracker.firstBundle.values()].map((b) => Date.parse(b.renewalTime));
    let from = readyAt + TAIL_MS;
    let start: number;
    if (BY_CLOCK) {
      start = Math.min(...renewals);
      say(
        `${name}: waiting for the link refresh round (renewal times ${((start - Date.now()) / 1000).toFixed(0)}–${((Math.max(...renewals) - Date.now()) / 1000).toFixed(0)} s from now)`,
      );
    } else {
      say(`${name}: moving every status.bundle.renewalTime to now`);
      from = start = Date.now();
      await moveRenewalTimes(custom, namespace);
    }
    await until(
      'every bundle link to be refreshed',
      () => tracker.refreshedAt.size >= COUNT,
      progress,
      start,
    );
    const refreshedAt = Math.max(...tracker.refreshedAt.values());
    await sleep(TAIL_MS);
    rss.sample();
    const lags = [...tracker.refreshedAt].map(([n, t]) =>
      BY_CLOCK ? (t - Date.parse(tracker.firstBundle.get(n)?.renewalTime ?? '')) / 1000 : (t - start) / 1000,
    );
    refresh = {
      seconds: (refreshedAt - start) / 1000,
      p50Seconds: lags.sort((a, b) => a - b)[Math.floor(lags.length / 2)] ?? 0,
      maxLagSeconds: BY_CLOCK ? Math.max(...lags) : undefined,
      requests: audit.of(user, from, refreshedAt + TAIL_MS),
      peakRssMiB: rss.peakMiB,
      rssMiB: rss.currentMiB,
      cpuSeconds: rss.cpuSeconds - initial.cpuSeconds - cpuAtStart,
      metrics: difference(await scrape(options.metricsUrl), await metricsAfterInitial),
      memory: await scrape(options.metricsUrl),
      overlap: [...tracker.refreshedAt.values()].filter((t) => t < from).length,
    };
    say(`${name}: every link refreshed after ${refresh.seconds.toFixed(1)} s`);
  }
  tracker.stop();
  await controller.stop();
  rss.stop();
  return { name, initial, refresh };
}

/** Sets status.bundle.renewalTime of every StaticExport in the namespace to now (JSON patch). */
async function moveRenewalTimes(custom: CustomObjectsApi, namespace: string): Promise<void> {
  const now = new Date().toISOString();
  await forEachObject((name) =>
    custom.patchNamespacedCustomObjectStatus({
      group,
      version,
      plural,
      namespace,
      name,
      body: [{ op: 'replace', path: '/status/bundle/renewalTime', value: now }],
    }),
  );
}

/** Runs `work` for every object name (sx-00000, …), --create-concurrency at a time. */
async function forEachObject(work: (name: string) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Number(values['create-concurrency']) }, async () => {
      while (next < COUNT) await work(`sx-${String(next++).padStart(5, '0')}`);
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// Printing.

const fixed = (n: number | undefined, digits = 1) => (n === undefined ? '—' : n.toFixed(digits));

function counts(requests: Request[]) {
  const perObject = requests.filter((r) => r.resource !== 'leases');
  const reads = perObject.filter((r) => READS.has(r.verb)).length;
  const writes = perObject.filter((r) => WRITES.has(r.verb)).length;
  const leases = requests.length - perObject.length;
  const conflicts = requests.filter((r) => r.code === 409).length;
  return { reads, writes, leases, conflicts };
}

function summaryRow(run: Run, round: Round, kind: 'initial' | 'refresh') {
  const c = counts(round.requests);
  return {
    controller: run.name,
    [kind === 'initial' ? 'all Ready s' : 'round s']: fixed(round.seconds),
    [kind === 'initial' ? 'p50 Ready s' : BY_CLOCK ? 'p50 lag s' : 'p50 refreshed s']: fixed(
      round.p50Seconds,
    ),
    ...(kind === 'initial'
      ? { 'creates s': fixed(round.createSeconds), 'all jobs s': fixed(round.jobsSeconds) }
      : BY_CLOCK
        ? { 'max lag s': fixed(round.maxLagSeconds) }
        : {}),
    'writes/SX': fixed(c.writes / COUNT, 2),
    'reads/SX': fixed(c.reads / COUNT, 2),
    '409s': c.conflicts,
    'CPU s': fixed(round.cpuSeconds),
    'peak RSS MiB': fixed(round.peakRssMiB, 0),
    'RSS MiB': fixed(round.rssMiB, 0),
  };
}

function breakdown(round: Round) {
  const verbs = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'];
  const byResource = new Map<string, Map<string, number>>();
  for (const r of round.requests) {
    const row = byResource.get(r.resource) ?? new Map<string, number>();
    row.set(r.verb, (row.get(r.verb) ?? 0) + 1);
    byResource.set(r.resource, row);
  }
  return [...byResource]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([resource, row]) => ({
      resource,
      ...Object.fromEntries(verbs.map((v) => [v, row.has(v) ? fixed((row.get(v) ?? 0) / COUNT, 3) : ''])),
      total: [...row.values()].reduce((a, b) => a + b, 0),
    }));
}

function verdict(label: string, value: string, met: boolean): string {
  return `${label}: ${value} ${met ? 'MET' : 'NOT MET'}`;
}

/** The export jobs the backend ran: how fast it worked through them, from its job records. */
function backendSummary(storeDir: string): string {
  const dir = join(storeDir, 'jobs');
  const jobs = readdirSync(dir).map(
    (f) =>
      JSON.parse(readFileSync(join(dir, f), 'utf8')) as {
        status: string;
        createdAt: string;
        updatedAt: string;
      },
  );
  const done = jobs.filter((j) => j.status === 'completed');
  const statuses = new Map<string, number>();
  for (const job of jobs) statuses.set(job.status, (statuses.get(job.status) ?? 0) + 1);
  // Records are written after the API answers from memory: a few may still say running.
  const byStatus = [...statuses].map(([status, n]) => `${n} ${status}`).join(', ');
  const first = Math.min(...jobs.map((j) => Date.parse(j.createdAt)));
  const last = Math.max(...done.map((j) => Date.parse(j.updatedAt)));
  const turnaround = done
    .map((j) => (Date.parse(j.updatedAt) - Date.parse(j.createdAt)) / 1000)
    .sort((a, b) => a - b);
  const seconds = (last - first) / 1000;
  return (
    `docsnap api: ${jobs.length} export jobs (${byStatus}); first queued → last completed ${fixed(seconds)} s ` +
    `(${fixed(done.length / seconds)} exports/s); job turnaround p50 ${fixed(turnaround[Math.floor(turnaround.length / 2)])} s, ` +
    `max ${fixed(turnaround.at(-1))} s`
  );
}

function logSummary(file: string): string {
  const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
  const messages = new Map<string, number>();
  for (const line of lines) {
    let text = line;
    try {
      const entry = JSON.parse(line) as { level?: number; msg?: string; err?: string };
      text = `${entry.level && entry.level >= 50 ? 'error' : 'warn'}: ${entry.msg}${entry.err ? ` (${String(entry.err).slice(0, 120)})` : ''}`;
    } catch {}
    messages.set(text, (messages.get(text) ?? 0) + 1);
  }
  if (lines.length === 0) return 'operator log: empty (no warnings or errors)';
  const top = [...messages].sort((a, b) => b[1] - a[1]).slice(0, 5);
  return `operator log: ${lines.length} lines; most frequent:\n${top.map(([m, n]) => `  ${n}× ${m}`).join('\n')}`;
}

// ---------------------------------------------------------------------------------------------

async function cleanup(): Promise<void> {
  for (const process of running.splice(0).reverse()) await process.stop();
  if (values.keep && plane?.auditLogPath) {
    try {
      copyFileSync(plane.auditLogPath, join(work, 'audit.log'));
    } catch {}
  }
  await plane?.stop();
  plane = undefined;
  if (values.keep) say(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}

for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    stopping = true;
    say(`${signal}: stopping everything`);
    void cleanup().finally(() => process.exit(130));
  });

try {
  say('npm run build (the operator and api run from dist/, as in the image)');
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: repo, stdio: 'inherit' });
  const { envtestDir } = locateTestServers(repo);
  const kubeVersion = execFileSync(join(envtestDir, 'kube-apiserver'), ['--version'], {
    encoding: 'utf8',
  }).trim();
  say('starting etcd and kube-apiserver (audit log on)');
  plane = await KubeControlPlane.start(envtestDir, { auditLog: true });
  const { connection } = plane;
  const audit = new AuditLog(plane.auditLogPath as string);
  const admin = kubeConfigFor(connection);
  const core = admin.makeApiClient(CoreV1Api);

  execFileSync(connection.kubectl, [
    '--kubeconfig',
    connection.kubeconfigPath,
    'apply',
    '-f',
    join(repo, 'crds/staticexports.docsnap.dev.yaml'),
  ]);
  const extensions = admin.makeApiClient(ApiextensionsV1Api);
  for (let i = 0; ; i++) {
    const crd = await extensions.readCustomResourceDefinition({ name: `${plural}.${group}` });
    if (crd.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True')) break;
    if (i > 200) throw new Error('the StaticExport CRD was not established');
    await sleep(100);
  }
  // Every identity may do anything: the bench counts requests, it does not test RBAC.
  const everything = [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }];
  const operatorIdentity = await mintServiceAccount(connection, {
    namespace: 'bench-system',
    name: 'docsnap-operator',
    rules: everything,
    scope: 'cluster',
  });

  // The export backend: docsnap api on a two-page site, local storage, no rate limit to speak of.
  const site = join(work, 'site');
  mkdirSync(site);
  writeFileSync(
    join(site, 'docs.json'),
    JSON.stringify({
      $schema: 'https://mintlify.com/docs.json',
      theme: 'willow',
      name: 'Bench',
      colors: { primary: '#09090b' },
      navigation: { groups: [{ group: 'Start', pages: ['index', 'guide'] }] },
    }),
  );
  writeFileSync(join(site, 'index.mdx'), '---\ntitle: "Home"\n---\n\n# Hello\n\nSome text.\n');
  writeFileSync(join(site, 'guide.mdx'), '---\ntitle: "Guide"\n---\n\nA guide, back to [home](/index).\n');
  const port = await freePort();
  const storeDir = join(work, 'store');
  const apiConfig = join(work, 'api.yaml');
  // One organization exports every site, as a platform team's own docsnap api does: it may have
  // them all waiting (the default of 50 would hold the rest back with 429 and Retry-After).
  writeFileSync(
    apiConfig,
    `server: { host: 127.0.0.1, port: ${port} }
organizations: [{ id: bench, plan: enterprise, projects: [p] }]
sites: [{ domain: ${DOMAIN}, organization: bench, source: { path: ${site} } }]
storage: { local: { dir: ${storeDir} } }
links: { lifetime: ${LIFETIME_S}s }
exports: { concurrency: ${values['exports-concurrency']}, perOrganization: { queued: ${COUNT} } }
rateLimits: { staticExport: { max: 1000000000, window: 1m } }
`,
  );
  const adminKey = execFileSync(
    process.execPath,
    [cli, 'keys', 'create', '--config', apiConfig, '--org', 'bench'],
    {
      encoding: 'utf8',
    },
  ).trim();
  const apiUrl = `http://127.0.0.1:${port}`;
  const api = startProcess(
    'docsnap api',
    process.execPath,
    [cli, 'api', '--config', apiConfig, '--log-level', 'warn'],
    join(work, 'api.log'),
  );
  running.push(api);
  for (let i = 0; ; i++) {
    const ok = await fetch(`${apiUrl}/openapi.json`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (i > 300 || api.child.exitCode !== null) throw new Error(`docsnap api did not start:\n${api.tail()}`);
    await sleep(100);
  }

  const spec = (name: string) => ({
    domain: DOMAIN,
    exporter: { api: { url: apiUrl, adminKeySecretRef: { name: 'docsnap-admin-key', key: 'key' } } },
    ...(BY_CLOCK ? { bundle: { renewBefore: `${RENEW_BEFORE_S}s` } } : {}),
    targets: [{ secret: { name: `${name}-values` } }],
    pollInterval: '1s',
  });
  for (const namespace of ['bench', ...PEERS.map((peer) => peer.namespace)]) {
    await ensureNamespace(core, namespace);
    await core.createNamespacedSecret({
      namespace,
      body: {
        metadata: {
          name: 'docsnap-admin-key',
          labels: { [SECRET_ACCESS_LABEL]: 'shared' },
          annotations: { [SECRET_ACCESS_ANNOTATION]: '*' },
        },
        stringData: { key: adminKey },
      },
    });
  }

  const runs: Run[] = [];
  const operatorLog = join(work, 'operator.log');
  // Where the operator serves /metrics, when this version has --listen (default 0.0.0.0:8080).
  let metricsUrl: string | undefined;
  const help = execFileSync(process.execPath, [cli, 'operator', '--help'], { encoding: 'utf8' });
  if (help.includes('--listen') && !operatorArgs.some((a) => a.startsWith('--listen'))) {
    const metricsPort = await freePort();
    operatorArgs.push('--listen', `127.0.0.1:${metricsPort}`);
    metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
  }
  runs.push(
    await runController({
      name: `docsnap operator (concurrency ${operatorConcurrency}${values['operator-reuse-connections'] ? ', connections reused' : ''})`,
      namespace: 'bench',
      user: operatorIdentity.username,
      admin,
      audit,
      spec,
      metricsUrl,
      start: () =>
        startProcess(
          'docsnap operator',
          process.execPath,
          [
            ...nodeOptions,
            cli,
            'operator',
            '--kubeconfig',
            operatorIdentity.kubeconfigPath,
            '--log-level',
            'warn',
            ...operatorArgs,
          ],
          operatorLog,
        ),
    }),
  );
  const backend = `${backendSummary(storeDir)}; the docsnap api process used ${fixed(cpuSeconds(api.child.pid ?? 0))} CPU s`;
  const controlPlaneCpu = Object.entries(plane.pids)
    .map(([name, pid]) => `${name} ${fixed(cpuSeconds(pid ?? 0))}`)
    .join(', ');
  if (!values['no-peer'])
    for (const peer of PEERS) {
      const identity = await mintServiceAccount(connection, {
        namespace: 'bench-system',
        name: peer.id,
        rules: everything,
        scope: 'cluster',
      });
      runs.push(
        await runController({
          name: peer.name,
          namespace: peer.namespace,
          user: identity.username,
          admin,
          audit,
          spec,
          start: () =>
            startProcess(
              peer.name,
              process.execPath,
              [
                ...peer.nodeOptions,
                join(repo, 'bench/bare-controller.ts'),
                '--kubeconfig',
                identity.kubeconfigPath,
                '--namespace',
                peer.namespace,
                '--concurrency',
                peerConcurrency,
                '--lifetime-ms',
                String(LIFETIME_S * 1000),
                '--renew-before-ms',
                String(RENEW_BEFORE_S * 1000),
              ],
              join(work, `${peer.id}.log`),
            ),
        }),
      );
    }

  const docsnap = runs[0] as Run;
  const args = process.argv
    .slice(2)
    .map((arg) => (/\s/.test(arg) ? arg.replace(/^(--[\w-]+=)?(.*)$/, '$1"$2"') : arg))
    .join(' ');
  console.log(`command: npm run bench:operator${args ? ` -- ${args}` : ''}`);
  console.log(
    `machine: ${availableParallelism()} cores; node ${process.version}; ${kubeVersion} + etcd (audit log: Metadata, blocking)`,
  );
  console.log(
    `${COUNT} StaticExports per controller, one Secret target each, pollInterval 1s; links ${LIFETIME_S} s, renewBefore ${RENEW_BEFORE_S} s, ` +
      `refresh ${BY_CLOCK ? 'by the clock' : 'when the bench moves renewalTime to now'}; ` +
      `docsnap api exports.concurrency ${values['exports-concurrency']}; creates ${values['create-concurrency']} at a time`,
  );
  console.log(
    `docsnap operator: node ${nodeOptions.join(' ') || '(no flags)'}${nodeOptions.join(' ') === OPERATOR_NODE_OPTIONS ? ' (the flags it ships with)' : ''}; ${operatorArgs.join(' ') || 'default flags'}`,
  );
  console.log(
    '\nInitial round: first create → every StaticExport Ready (per SX = divided by the object count)',
  );
  console.table(runs.map((run) => summaryRow(run, run.initial, 'initial')));
  if (!values['no-refresh']) {
    console.log(
      BY_CLOCK
        ? '\nRefresh round: first renewalTime → every status.bundle.expiresAt replaced (lag: after its renewalTime)'
        : '\nRefresh round: every renewalTime moved to now → every status.bundle.expiresAt replaced',
    );
    console.table(runs.flatMap((run) => (run.refresh ? [summaryRow(run, run.refresh, 'refresh')] : [])));
  }
  for (const run of runs)
    for (const [label, round] of [
      ['initial', run.initial],
      ['refresh', run.refresh],
    ] as const) {
      if (!round) continue;
      console.log(`\n${run.name}, ${label} round: requests per StaticExport by resource and verb`);
      console.table(breakdown(round));
      const c = counts(round.requests);
      if (c.leases > 0)
        console.log(
          `leader election: ${c.leases} Lease requests in this round, left out of reads/SX and writes/SX`,
        );
      if (round.metrics) console.log(describeMetrics(round.metrics, round.memory));
      if (round.overlap)
        console.log(`note: ${round.overlap} refreshes came before the initial round's window closed`);
    }
  console.log(`\n${backend}`);
  console.log(`CPU s of the control plane after the docsnap operator's rounds: ${controlPlaneCpu}`);
  console.log(logSummary(operatorLog));

  const ready = docsnap.initial.seconds;
  const writes = counts(docsnap.initial.requests).writes / COUNT;
  const rss = Math.max(docsnap.initial.peakRssMiB, docsnap.refresh?.peakRssMiB ?? 0);
  console.log('');
  console.log(
    verdict(
      `all ${COUNT} Ready (target ≤ ${TARGETS.readySeconds} s)`,
      `${fixed(ready)} s`,
      ready <= TARGETS.readySeconds,
    ),
  );
  console.log(
    verdict(
      `writes per StaticExport, initial round (target ≤ ${TARGETS.writesPerObject})`,
      fixed(writes, 2),
      writes <= TARGETS.writesPerObject,
    ),
  );
  console.log(
    verdict(
      `operator peak RSS (target < ${TARGETS.rssMiB} MiB)`,
      `${fixed(rss, 0)} MiB`,
      rss < TARGETS.rssMiB,
    ),
  );
} finally {
  await cleanup();
}
// Keep-alive connections of the clients would hold the process open.
process.exit(0);
