import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface GitServerOptions {
  /** Require HTTP basic auth with these credentials on every request (401 otherwise). */
  auth?: { username: string; password: string };
  /** Pass the client's `Git-Protocol` header on, as a real server does; false makes a protocol v0 server. */
  protocolV2?: boolean;
  /** The address it listens on (default 127.0.0.1; the e2e cluster's bridge address for pods). */
  host?: string;
}

/** One request the server answered, for tests that count round trips. */
export interface GitRequest {
  method: string;
  path: string;
  status: number;
}

const HTTP_BACKEND = join(
  execFileSync('git', ['--exec-path'], { encoding: 'utf8' }).trim(),
  'git-http-backend',
);

/** git with a fixed identity and no user or system config, so commits are the same on any machine. */
function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=docsnap', '-c', 'user.email=docsnap@example.com', ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
  }).trim();
}

/**
 * A real git smart-HTTP server on loopback: Node's `http` in front of `git http-backend` (CGI),
 * serving the bare repositories under a temporary directory at `${url}/<name>.git`.
 * Each repository has a work tree beside it, so tests can commit and move branches.
 */
export class GitServer {
  readonly url: string;
  readonly requests: GitRequest[] = [];
  private readonly server: Server;
  private readonly root: string;
  private readonly children = new Set<ChildProcess>();

  private constructor(server: Server, root: string, host: string, port: number) {
    this.server = server;
    this.root = root;
    this.url = `http://${host}:${port}`;
  }

  static async start(options: GitServerOptions = {}): Promise<GitServer> {
    const root = mkdtempSync(join(tmpdir(), 'docsnap-git-server-'));
    mkdirSync(join(root, 'repos'));
    let self: GitServer | undefined;
    const server = createServer((request, response) => self?.handle(request, response, options));
    const host = options.host ?? '127.0.0.1';
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    self = new GitServer(server, root, host, (server.address() as { port: number }).port);
    return self;
  }

  /** The URL of repository `name`. */
  repoUrl(name: string): string {
    return `${this.url}/${name}.git`;
  }

  /** Creates repository `name` from the files of `fromDir`, one commit on `branch`; returns its sha. */
  createRepo(name: string, fromDir: string, branch = 'main'): string {
    const work = this.workTree(name);
    cpSync(fromDir, work, { recursive: true });
    git(work, 'init', '--quiet', '--initial-branch', branch);
    const bare = join(this.root, 'repos', `${name}.git`);
    git(this.root, 'init', '--quiet', '--bare', bare);
    // Keep pushed packs as they are: fetches then reuse them instead of compressing loose objects again.
    git(bare, 'config', 'receive.unpackLimit', '1');
    git(work, 'remote', 'add', 'origin', bare);
    return this.commit(name, {}, 'initial import', branch);
  }

  /** Writes `files` (path → contents) in the work tree of `name`, commits and pushes `branch`; returns the sha. */
  commit(name: string, files: Record<string, string>, message: string, branch = 'main'): string {
    const work = this.workTree(name);
    for (const [path, contents] of Object.entries(files)) {
      mkdirSync(dirname(join(work, path)), { recursive: true });
      writeFileSync(join(work, path), contents);
    }
    git(work, 'add', '--all');
    git(work, 'commit', '--quiet', '--allow-empty', '-m', message);
    git(work, 'push', '--quiet', '--force', 'origin', `HEAD:refs/heads/${branch}`);
    return git(work, 'rev-parse', 'HEAD');
  }

  /** Tags the current commit of `name` (annotated unless `lightweight`) and pushes the tag. */
  tag(name: string, tag: string, { lightweight = false } = {}): void {
    const work = this.workTree(name);
    git(work, 'tag', ...(lightweight ? [] : ['-a', '-m', tag]), tag);
    git(work, 'push', '--quiet', 'origin', `refs/tags/${tag}`);
  }

  /** How many requests have been answered, optionally only those whose path contains `pathPart`. */
  requestCount(pathPart = ''): number {
    return this.requests.filter((request) => request.path.includes(pathPart)).length;
  }

  async stop(): Promise<void> {
    for (const child of this.children) child.kill('SIGKILL');
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
    rmSync(this.root, { recursive: true, force: true });
  }

  /** A file of repository `name` as its last commit has it. */
  readFile(name: string, path: string): string {
    return readFileSync(join(this.workTree(name), path), 'utf8');
  }

  private workTree(name: string): string {
    return join(this.root, 'work', name);
  }

  private handle(request: IncomingMessage, response: ServerResponse, options: GitServerOptions): void {
    const url = new URL(request.url ?? '/', this.url);
    const answer = (status: number) =>
      this.requests.push({ method: request.method ?? '', path: url.pathname, status });
    let user = '';
    if (options.auth) {
      const expected = Buffer.from(`${options.auth.username}:${options.auth.password}`).toString('base64');
      if (request.headers.authorization !== `Basic ${expected}`) {
        answer(401);
        response.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"' }).end();
        request.resume();
        return;
      }
      user = options.auth.username;
    }
    const header = (name: string) => request.headers[name.toLowerCase()] as string | undefined;
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      GIT_PROJECT_ROOT: join(this.root, 'repos'),
      GIT_HTTP_EXPORT_ALL: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_CONFIG_NOSYSTEM: '1',
      REQUEST_METHOD: request.method,
      PATH_INFO: decodeURIComponent(url.pathname),
      QUERY_STRING: url.search.slice(1),
      CONTENT_TYPE: header('Content-Type') ?? '',
      REMOTE_USER: user,
      REMOTE_ADDR: '127.0.0.1',
      // http-backend inflates gzip request bodies itself, and reads to EOF without a length.
      HTTP_CONTENT_ENCODING: header('Content-Encoding') ?? '',
      ...(header('Content-Length') ? { CONTENT_LENGTH: header('Content-Length') } : {}),
      ...(options.protocolV2 !== false && header('Git-Protocol')
        ? { GIT_PROTOCOL: header('Git-Protocol') }
        : {}),
    };
    // Its complaints (a missing repository) reach the client as the HTTP status.
    const child = spawn(HTTP_BACKEND, [], { env, stdio: ['pipe', 'pipe', 'ignore'] });
    this.children.add(child);
    child.once('exit', () => this.children.delete(child));
    child.once('error', () => this.children.delete(child));
    child.stdin.on('error', () => {});
    request.pipe(child.stdin);
    response.on('close', () => {
      if (child.exitCode === null) child.kill('SIGKILL');
    });

    // CGI output: header lines up to a blank line (Status: gives the code), then the body.
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end === -1) return;
      child.stdout.pause();
      child.stdout.off('data', onData);
      let status = 200;
      const headers: Record<string, string> = {};
      for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
        const colon = line.indexOf(':');
        const [name, value] = [line.slice(0, colon).trim(), line.slice(colon + 1).trim()];
        if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
        else headers[name] = value;
      }
      answer(status);
      response.writeHead(status, headers);
      response.write(head.subarray(end + 4));
      child.stdout.pipe(response);
    };
    child.stdout.on('data', onData);
    child.stdout.once('end', () => {
      if (response.headersSent) return;
      answer(502);
      response.writeHead(502).end('git http-backend wrote no headers');
    });
  }
}
