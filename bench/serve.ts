/**
 * npm run bench:serve — the same export served by `docsnap serve` and by nginx (Debian's package),
 * in one run, under autocannon on loopback: req/s and p99 for an HTML page and for a 1 MiB asset,
 * and each server's peak RSS.
 * Target: docsnap serve at least 0.7× nginx's throughput on the HTML page, p99 at most 2× nginx's.
 *
 * nginx runs as Debian configures it for production (one worker per core, sendfile,
 * open_file_cache), serving the unpacked export with the `try_files` the export's links need.
 *
 *   npm run bench:serve [-- --seconds 10 --connections 50 --pages 300]
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { exportSite } from '../src/export/pipeline.ts';
import { peakRss } from './measure.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    pages: { type: 'string', default: '300' },
  },
});
const repo = fileURLToPath(new URL('..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'docsnap-bench-serve-'));
chmodSync(work, 0o755); // nginx's workers run as www-data
const children: ChildProcess[] = [];

/** A docs site of N pages of ordinary prose and code, and one 1 MiB download. */
function writeSite(dir: string, pages: number): void {
  const names = Array.from({ length: pages }, (_, i) => `guide/topic-${i}`);
  mkdirSync(join(dir, 'guide'), { recursive: true });
  mkdirSync(join(dir, 'files'));
  writeFileSync(
    join(dir, 'docs.json'),
    JSON.stringify({
      name: 'Bench Docs',
      colors: { primary: '#0a7' },
      navigation: { groups: [{ group: 'Guide', pages: ['index', ...names] }] },
    }),
  );
  const body = (title: string) =>
    `---\ntitle: ${title}\n---\n\n${'Configure the service with a values file. '.repeat(30)}\n\n## Install\n\n\`\`\`bash\nhelm install docs ./chart\n\`\`\`\n\n<Note>Links are refreshed before they expire.</Note>\n`;
  writeFileSync(join(dir, 'index.mdx'), body('Home'));
  for (const name of names) writeFileSync(join(dir, `${name}.mdx`), body(name));
  writeFileSync(join(dir, 'files', 'download.zip'), randomBytes(1024 * 1024));
}

/** Starts a process whose stdout goes to a file; resolves once a line matches `ready`. */
async function start(command: string, args: string[], ready: RegExp, logName: string): Promise<ChildProcess> {
  const logFile = join(work, logName);
  const out = openSync(logFile, 'w');
  const child = spawn(command, args, { stdio: ['ignore', out, out] });
  closeSync(out);
  children.push(child);
  for (let i = 0; i < 600; i++) {
    const match = ready.exec(readFileSync(logFile, 'utf8'));
    if (match) return Object.assign(child, { match });
    if (child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${command} did not start:\n${readFileSync(logFile, 'utf8')}`);
}

/** Peak RSS (VmHWM) of a process and its children, in MiB: nginx runs as a master and workers. */
function peakRssMiB(pid: number): number {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(/\s+/).filter(Boolean);
  return [pid, ...children.map(Number)].reduce((total, p) => total + (peakRss(p) ?? 0), 0);
}

async function load(url: string) {
  const probe = await fetch(url);
  await probe.arrayBuffer();
  if (probe.status !== 200) throw new Error(`${url}: ${probe.status}, expected 200`);
  const options = { url, connections: Number(values.connections), pipelining: 1 };
  await autocannon({ ...options, duration: 2 }); // warm-up
  const result = await autocannon({ ...options, duration: Number(values.seconds) });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p99: result.latency.p99 };
}

try {
  const source = join(work, 'source');
  mkdirSync(source);
  writeSite(source, Number(values.pages));
  const siteDir = join(work, 'site');
  const archivePath = join(work, 'site.tar.gz');
  const exported = await exportSite({ source, archivePath, outDir: siteDir });
  const sha256 = exported.archive?.sha256 as string;

  // The bundle link: a loopback store serving the archive, as S3 or docsnap api would.
  const archive = readFileSync(archivePath);
  const store = createServer((_request, response) =>
    response.writeHead(200, { 'content-length': archive.length }).end(archive),
  );
  await new Promise<void>((resolve) => store.listen(0, '127.0.0.1', resolve));
  const link = `http://127.0.0.1:${(store.address() as AddressInfo).port}/site.tar.gz?signature=bench`;

  const docsnap = (await start(
    process.execPath,
    [
      join(repo, 'src/cli/main.ts'),
      'serve',
      '--bundle-url',
      link,
      '--version',
      `sha256:${sha256}`,
      '--listen',
      '127.0.0.1:0',
      '--admin-listen',
      '127.0.0.1:0',
      '--cache-dir',
      join(work, 'cache'),
    ],
    /"msg":"version active"/,
    'docsnap.log',
  )) as ChildProcess;
  const docsnapUrl = /"url":"(http:\/\/[\d.:]+)"/.exec(
    readFileSync(join(work, 'docsnap.log'), 'utf8'),
  )?.[1] as string;
  store.close();

  const nginxPort = 20000 + Math.floor(Math.random() * 20000);
  const nginxConf = join(work, 'nginx.conf');
  writeFileSync(
    nginxConf,
    `daemon off;
worker_processes auto;
pid ${join(work, 'nginx.pid')};
error_log ${join(work, 'nginx-error.log')};
events { worker_connections 1024; }
http {
  include /etc/nginx/mime.types;
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 100000;
  open_file_cache max=10000 inactive=60s;
  client_body_temp_path ${work}/nginx-tmp;
  server {
    listen 127.0.0.1:${nginxPort};
    root ${siteDir};
    location / { try_files $uri $uri.html $uri/index.html =404; }
  }
}
`,
  );
  const nginx = await start('nginx', ['-c', nginxConf, '-p', work], /$/, 'nginx.log');
  await new Promise((resolve) => setTimeout(resolve, 500));
  const nginxUrl = `http://127.0.0.1:${nginxPort}`;

  const page = '/guide/topic-7';
  const asset = '/files/download.zip';
  console.log(
    `machine: ${availableParallelism()} cores; node ${process.version}; ${execFileSync('nginx', ['-v'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }) || 'nginx'}; autocannon ${values.connections} connections, ${values.seconds} s per run; ${exported.pageCount} pages`,
  );
  const rows = [];
  for (const [what, path] of [
    ['HTML page', page],
    ['1 MiB asset', asset],
  ] as const) {
    const ours = await load(`${docsnapUrl}${path}`);
    const theirs = await load(`${nginxUrl}${path}`);
    rows.push({ what, server: 'docsnap serve', 'req/s': Math.round(ours.rps), 'p99 ms': ours.p99 });
    rows.push({ what, server: 'nginx', 'req/s': Math.round(theirs.rps), 'p99 ms': theirs.p99 });
    if (what === 'HTML page') {
      const throughput = ours.rps / theirs.rps;
      const latency = ours.p99 / Math.max(theirs.p99, 1);
      console.log(
        `HTML page: throughput ${throughput.toFixed(2)}× nginx (target ≥ 0.70) ${throughput >= 0.7 ? 'MET' : 'NOT MET'}; p99 ${latency.toFixed(2)}× nginx (target ≤ 2) ${latency <= 2 ? 'MET' : 'NOT MET'}`,
      );
    }
  }
  console.table(rows);
  console.log(
    `peak RSS: docsnap serve ${peakRssMiB(docsnap.pid as number).toFixed(0)} MiB, nginx (master + workers) ${peakRssMiB(nginx.pid as number).toFixed(0)} MiB`,
  );
} finally {
  for (const child of children) child.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
}
