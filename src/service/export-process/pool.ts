import { type ChildProcess, fork } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { ExportError } from '../../export/errors.ts';
import type { ExportProgress } from '../../export/pipeline.ts';
import { ExportLimitExceeded } from '../errors.ts';
import type { ChildMessage, IsolatedExportRequest, IsolatedExportResult, ParentMessage } from './messages.ts';

/** What one export may use: it is stopped (SIGKILL) past either. */
export interface ExportProcessLimits {
  /** Resident memory of the export process, all its render threads together, in MiB. */
  memoryMiB: number;
  /** Wall-clock time of one export, in milliseconds. */
  timeoutMs: number;
}

export const DEFAULT_EXPORT_PROCESS_LIMITS: ExportProcessLimits = { memoryMiB: 2048, timeoutMs: 30 * 60_000 };

export interface ExportProcessPoolOptions {
  limits?: Partial<ExportProcessLimits>;
  log: { warn(details: object, message: string): void };
  /** Processes kept between exports, so a small export does not pay for starting one. */
  maxIdle?: number;
  /** An idle process exits after this long. */
  idleMs?: number;
}

/** Runs one export, with a way to be told of progress and to be cancelled. */
export type ExportRunner = (
  request: IsolatedExportRequest,
  control: { signal: AbortSignal; onProgress: (progress: ExportProgress) => void },
) => Promise<IsolatedExportResult>;

/** Exports a process serves before it is replaced, so no state builds up across tenants for long. */
const MAX_USES = 50;
const MEMORY_POLL_MS = 100;
const CHILD_FILE = new URL(`./child${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);

/**
 * Exports of tenant repositories run in child processes, one export at a time per process, so
 * that an export that explodes (memory, time, a parser's stack) hurts only itself: the server
 * and the other tenants' exports never notice. A process is killed when it passes its memory
 * (resident set, watched from here) or time limit, or when its export is cancelled; the export
 * then fails with the reason. Healthy processes are kept for the next export, a few at most.
 */
export class ExportProcessPool {
  private readonly limits: ExportProcessLimits;
  private readonly options: ExportProcessPoolOptions;
  private readonly idle: ExportProcess[] = [];
  private readonly all = new Set<ExportProcess>();
  private closed = false;

  constructor(options: ExportProcessPoolOptions) {
    this.options = options;
    this.limits = {
      memoryMiB: options.limits?.memoryMiB ?? DEFAULT_EXPORT_PROCESS_LIMITS.memoryMiB,
      timeoutMs: options.limits?.timeoutMs ?? DEFAULT_EXPORT_PROCESS_LIMITS.timeoutMs,
    };
  }

  readonly run: ExportRunner = async (request, control) => {
    if (this.closed) throw new Error('the export process pool is closed');
    const process = this.idle.pop() ?? this.start();
    process.keepIdle(undefined);
    try {
      return await process.run(request, control.signal, control.onProgress);
    } finally {
      this.release(process);
    }
  };

  /** Kills every process, busy or idle; their exports fail as cancelled. */
  async close(): Promise<void> {
    this.closed = true;
    this.idle.length = 0;
    await Promise.all([...this.all].map((process) => process.kill()));
  }

  private start(): ExportProcess {
    const process = new ExportProcess(this.limits, this.options.log);
    this.all.add(process);
    process.exited.then(() => {
      this.all.delete(process);
      const index = this.idle.indexOf(process);
      if (index >= 0) this.idle.splice(index, 1);
    });
    return process;
  }

  private release(process: ExportProcess): void {
    const keep =
      !this.closed &&
      process.alive &&
      process.uses < MAX_USES &&
      this.idle.length < (this.options.maxIdle ?? 2);
    if (!keep) {
      void process.kill();
      return;
    }
    this.idle.push(process);
    process.keepIdle(this.options.idleMs ?? 60_000);
  }
}

/** One child process running exports, and the watch over its limits. */
class ExportProcess {
  readonly exited: Promise<void>;
  uses = 0;
  private readonly child: ChildProcess;
  private readonly limits: ExportProcessLimits;
  private readonly log: ExportProcessPoolOptions['log'];
  private stderrTail = '';
  private idleTimer: NodeJS.Timeout | undefined;
  private exitStatus: string | undefined;

  constructor(limits: ExportProcessLimits, log: ExportProcessPoolOptions['log']) {
    this.limits = limits;
    this.log = log;
    this.child = fork(CHILD_FILE, [], {
      // The heap limit makes a runaway export fail fast inside V8; the resident-set watch below
      // covers everything else (render threads, buffers, the native parser).
      execArgv: [`--max-old-space-size=${limits.memoryMiB}`],
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      env: childEnvironment(),
      serialization: 'advanced',
    });
    this.child.stderr?.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-2000);
    });
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        this.exitStatus = signal ? `signal ${signal}` : `exit code ${code}`;
        resolve();
      });
      this.child.once('error', (error) => {
        this.exitStatus = `could not run: ${error.message}`;
        resolve();
      });
    });
  }

  get alive(): boolean {
    return this.exitStatus === undefined;
  }

  /** Exits after `ms` without work; undefined cancels the timer. */
  keepIdle(ms: number | undefined): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = ms === undefined ? undefined : setTimeout(() => void this.kill(), ms).unref();
  }

  async kill(): Promise<void> {
    clearTimeout(this.idleTimer);
    if (this.alive) this.child.kill('SIGKILL');
    // SIGKILL cannot be refused; the wait is bounded all the same, so a lost exit event never
    // holds up the shutdown of the process that owns the pool.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.exited, new Promise((resolve) => (timer = setTimeout(resolve, 5_000).unref()))]);
    clearTimeout(timer);
  }

  run(
    request: IsolatedExportRequest,
    signal: AbortSignal,
    onProgress: (progress: ExportProgress) => void,
  ): Promise<IsolatedExportResult> {
    this.uses++;
    return new Promise((resolve, reject) => {
      let stopReason: Error | undefined;
      const stop = (reason: Error) => {
        stopReason ??= reason;
        this.child.kill('SIGKILL');
      };
      const deadline = setTimeout(
        () =>
          stop(
            new ExportLimitExceeded(
              `the export ran longer than ${minutes(this.limits.timeoutMs)}, its time limit`,
            ),
          ),
        this.limits.timeoutMs,
      );
      const memoryWatch = setInterval(async () => {
        const rss = await residentMiB(this.child.pid);
        if (rss !== undefined && rss > this.limits.memoryMiB)
          stop(
            new ExportLimitExceeded(
              `the export used more than ${this.limits.memoryMiB} MiB of memory, its limit`,
            ),
          );
      }, MEMORY_POLL_MS);
      const onAbort = () => stop(new ExportError('export cancelled', []));
      signal.addEventListener('abort', onAbort, { once: true });

      let done = false;
      const settle = (outcome: () => void) => {
        if (done) return;
        done = true;
        clearTimeout(deadline);
        clearInterval(memoryWatch);
        signal.removeEventListener('abort', onAbort);
        this.child.off('message', onMessage);
        outcome();
      };
      const onMessage = (message: ChildMessage) => {
        if (message.type === 'progress') onProgress(message.progress);
        else if (message.type === 'result') settle(() => resolve(message.result));
        else if (message.error.kind === 'export') settle(() => reject(ExportError.revive(message.error)));
        else settle(() => reject(new Error(message.error.message)));
      };
      this.child.on('message', onMessage);
      // The process ending before it answered: killed by a limit or a cancel, or crashed.
      this.exited.then(() => settle(() => reject(stopReason ?? this.crash())));
      if (signal.aborted) onAbort();
      else this.child.send({ type: 'export', request } satisfies ParentMessage);
    });
  }

  /** A process that died on its own: V8's heap limit aborts it; anything else is a crash, logged. */
  private crash(): Error {
    if (/heap out of memory|Reached heap limit/i.test(this.stderrTail))
      return new ExportLimitExceeded(
        `the export used more than ${this.limits.memoryMiB} MiB of memory, its limit`,
      );
    this.log.warn(
      { status: this.exitStatus, stderr: this.stderrTail },
      'an export process stopped unexpectedly',
    );
    return new Error(`the export process stopped unexpectedly (${this.exitStatus})`);
  }
}

/**
 * The environment of an export process: none of the server's own (store credentials and keys
 * can live there, and NODE_OPTIONS sized for the server would size the export), only what
 * Node.js and the temporary directory need.
 */
function childEnvironment(): NodeJS.ProcessEnv {
  const keep = ['PATH', 'TMPDIR', 'TZ', 'LANG'];
  return Object.fromEntries(keep.flatMap((name) => (process.env[name] ? [[name, process.env[name]]] : [])));
}

/** Resident set size of a process (Linux /proc), or undefined where that cannot be read. */
async function residentMiB(pid: number | undefined): Promise<number | undefined> {
  if (pid === undefined) return undefined;
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => undefined);
  const kb = status?.match(/^VmRSS:\s+(\d+) kB/m)?.[1];
  return kb === undefined ? undefined : Number(kb) / 1024;
}

function minutes(ms: number): string {
  return ms % 60_000 === 0 ? `${ms / 60_000} min` : `${Math.round(ms / 1000)} s`;
}
