import type { VerifiedBundle } from './bundle-cache.ts';
import { ServedSite, type SiteHandler } from './site-handler.ts';

/**
 * Where the versions the server decides on are shown: the site handler of this process, or those
 * of the worker processes (cluster.ts). The deciding side (bundle-server.ts) only says which
 * version is active, asks which versions responses are still being sent from, and lets go of
 * versions no longer needed.
 */
export interface Sites {
  /** Serve this verified bundle from now on; requests already begun finish on theirs. */
  show(bundle: VerifiedBundle): void;
  /** Nothing to serve, and why (503 with this message). */
  unavailable(message: string): void;
  /** The versions, by archive sha256, that responses are being sent from right now. */
  busy(): Promise<Set<string>>;
  /** Drop every version but these (their files may be removed next). */
  keepOnly(sha256s: ReadonlySet<string>): void;
}

/** The versions of one process's site handler. */
export class LocalSites implements Sites {
  private readonly handler: SiteHandler;
  /** Every version requests may still be reading from, by archive sha256. */
  private readonly served = new Map<string, ServedSite>();

  constructor(handler: SiteHandler) {
    this.handler = handler;
  }

  show(bundle: VerifiedBundle): void {
    const site = this.served.get(bundle.sha256) ?? new ServedSite(bundle);
    this.served.set(bundle.sha256, site);
    this.handler.site = site;
  }

  unavailable(message: string): void {
    this.handler.site = undefined;
    this.handler.unavailable = message;
  }

  busy(): Promise<Set<string>> {
    return Promise.resolve(this.busyNow());
  }

  busyNow(): Set<string> {
    return new Set([...this.served].filter(([, site]) => site.inFlight > 0).map(([sha256]) => sha256));
  }

  keepOnly(sha256s: ReadonlySet<string>): void {
    for (const sha256 of this.served.keys()) if (!sha256s.has(sha256)) this.served.delete(sha256);
  }
}
