/**
 * npm run bench:api — GET /v1/static-export/jobs/{id} of `docsnap api` (admin key, validation,
 * rate limiting, request logging) under autocannon on loopback, and in the same run a bare Fastify
 * route returning the same JSON with the plain Fastify versions of the Admin API's layers added one
 * at a time (JSON Schema validation and serialization, a key hash in an onRequest hook,
 * @fastify/rate-limit, one pino line per request), so each layer's cost shows.
 * Target: docsnap at least 0.9× the throughput of the route with all the standard layers, and p99
 * under 10 ms at 50 connections.
 *
 *   npm run bench:api [-- --seconds 15 --connections 50]
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '15' },
    connections: { type: 'string', default: '50' },
  },
});
const repo = fileURLToPath(new URL('..', import.meta.url));
const cli = join(repo, 'src/cli/main.ts');
const work = mkdtempSync(join(tmpdir(), 'docsnap-bench-api-'));
const children: ChildProcess[] = [];

/**
 * Starts a server process, its output going to a file (as a log collector would take it: the
 * load generator must not spend its CPU reading the server's log), and resolves with its URL
 * once it says where it listens.
 */
async function serve(args: string[], listening: RegExp): Promise<string> {
  const logFile = join(work, `server-${children.length}.log`);
  const out = openSync(logFile, 'w');
  const child = spawn(process.execPath, args, { stdio: ['ignore', out, 'inherit'] });
  closeSync(out);
  children.push(child);
  let exited: number | null | undefined;
  child.on('exit', (code) => {
    exited = code;
  });
  for (let i = 0; i < 600; i++) {
    const match = listening.exec(readFileSync(logFile, 'utf8'));
    if (match) return match[1] as string;
    if (exited !== undefined) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${args.join(' ')} did not start (exit ${exited}):\n${readFileSync(logFile, 'utf8')}`);
}

async function load(name: string, url: string, headers: Record<string, string>) {
  const options = { url, headers, connections: Number(values.connections), pipelining: 1 };
  await autocannon({ ...options, duration: 2 }); // warm-up: JIT, connection setup
  const result = await autocannon({ ...options, duration: Number(values.seconds) });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { name, rps: result.requests.average, p99: result.latency.p99, total: result.requests.total };
}

try {
  const config = join(work, 'api.yaml');
  writeFileSync(
    config,
    `server: { host: 127.0.0.1, port: 0 }
organizations: [{ id: bench, plan: enterprise, projects: [p] }]
sites: [{ domain: docs.bench.test, organization: bench, source: { path: ${join(repo, 'examples', 'docs-site')} } }]
storage: { local: { dir: ${join(work, 'store')} } }
rateLimits: { staticExport: { max: 1000000000, window: 1m } }
`,
  );
  const key = execFileSync(process.execPath, [cli, 'keys', 'create', '--config', config, '--org', 'bench'], {
    encoding: 'utf8',
  }).trim();
  const apiUrl = await serve([cli, 'api', '--config', config], /Server listening at (http:\/\/[\d.:]+)/);
  const env = { ...process.env, DOCSNAP_API_URL: apiUrl, DOCSNAP_ADMIN_KEY: key };
  const link = execFileSync(
    process.execPath,
    [cli, 'jobs', 'start', '--domain', 'docs.bench.test', '--wait'],
    {
      encoding: 'utf8',
      env,
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  const jobId = /se_[0-9a-f]{16}/.exec(link)?.[0] as string;
  const job = execFileSync(process.execPath, [cli, 'jobs', 'status', jobId], { encoding: 'utf8', env });
  const body = JSON.stringify(JSON.parse(job));
  const peer = (layers: string[]) =>
    serve([join(repo, 'bench/bare-fastify.ts'), body, ...layers], /listening (http:\/\/[\d.:]+)/);
  const bareUrl = await peer([]);
  const layered = [
    { name: '  + JSON Schema params and response', layers: ['schema'] },
    { name: '  + key hash in an onRequest hook', layers: ['schema', 'auth'] },
    { name: '  + @fastify/rate-limit', layers: ['schema', 'auth', 'rate-limit'] },
    {
      name: '  + one pino line per request (the standard stack)',
      layers: ['schema', 'auth', 'rate-limit', 'logging'],
    },
  ];
  const layeredUrls = await Promise.all(layered.map(({ layers }) => peer(layers)));

  console.log(
    `machine: ${availableParallelism()} cores; node ${process.version}; autocannon ${values.connections} connections, ${values.seconds} s per run`,
  );
  const path = `/v1/static-export/jobs/${jobId}`;
  const authorization = { authorization: `Bearer ${key}` };
  const docsnap = await load(
    'docsnap api (auth, validation, rate limit, logging)',
    `${apiUrl}${path}`,
    authorization,
  );
  const bare = await load('bare Fastify route', `${bareUrl}${path}`, {});
  const references = [];
  for (const [i, { name }] of layered.entries())
    references.push(await load(name, `${layeredUrls[i]}${path}`, authorization));
  console.table(
    [docsnap, bare, ...references].map((r) => ({
      server: r.name,
      'req/s': Math.round(r.rps),
      'p99 ms': r.p99,
      requests: r.total,
      'of bare': (r.rps / bare.rps).toFixed(2),
    })),
  );
  const stack = references.at(-1) as (typeof references)[number];
  const ratio = docsnap.rps / stack.rps;
  const met = ratio >= 0.9 && docsnap.p99 < 10;
  console.log(
    `docsnap / standard stack throughput: ${ratio.toFixed(2)} (target ≥ 0.90), p99 ${docsnap.p99} ms (target < 10) ${met ? 'MET' : 'NOT MET'}`,
  );
} finally {
  for (const child of children) child.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
}
