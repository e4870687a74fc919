import { Counter, collectDefaultMetrics, Gauge, Registry } from 'prom-client';

/** Site responses by status code: counted where requests are served (this process, or each worker). */
export class ResponseMetrics {
  private readonly requests: Counter<'code'>;
  private readonly byStatus = new Map<number, Counter.Internal>();

  constructor(registry: Registry) {
    this.requests = new Counter({
      name: 'docsnap_serve_requests_total',
      help: 'Site responses by status code.',
      labelNames: ['code'],
      registers: [registry],
    });
  }

  response(status: number): void {
    let counter = this.byStatus.get(status);
    if (!counter) {
      counter = this.requests.labels(String(status));
      this.byStatus.set(status, counter);
    }
    counter.inc();
  }
}

/**
 * The bundle server's Prometheus metrics, on a registry of its own. With worker processes the
 * responses are counted in the workers (`countResponses: false` here) and summed at scrape time.
 */
export class ServeMetrics {
  readonly registry = new Registry();
  readonly fetchFailures: Counter;
  readonly verifyFailures: Counter;
  readonly swaps: Counter;
  readonly stale: Gauge;
  readonly responses: ResponseMetrics | undefined;
  private readonly version: Gauge<'version' | 'source'>;

  constructor({ countResponses = true }: { countResponses?: boolean } = {}) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.fetchFailures = new Counter({
      name: 'docsnap_serve_fetch_failures_total',
      help: 'Bundle downloads that failed (after their retries).',
      registers,
    });
    this.verifyFailures = new Counter({
      name: 'docsnap_serve_verify_failures_total',
      help: 'Bundles refused: a digest or manifest mismatch, or an unsafe or oversized archive.',
      registers,
    });
    this.swaps = new Counter({
      name: 'docsnap_serve_swaps_total',
      help: 'Times a new version replaced the one being served.',
      registers,
    });
    this.stale = new Gauge({
      name: 'docsnap_serve_stale',
      help: '1 while the last good version is served because the wanted one could not be fetched or verified.',
      registers,
    });
    this.responses = countResponses ? new ResponseMetrics(this.registry) : undefined;
    this.version = new Gauge({
      name: 'docsnap_serve_active_version_info',
      help: 'The version being served (value 1), and whether it came from a download or the cache.',
      labelNames: ['version', 'source'],
      registers,
    });
  }

  activeVersion(version: string, source: 'cache' | 'download'): void {
    this.version.reset();
    this.version.labels(version, source).set(1);
  }

  /** Seconds since the version served was verified, read when Prometheus scrapes. */
  bundleAge(read: () => number | undefined): void {
    new Gauge({
      name: 'docsnap_serve_bundle_age_seconds',
      help: 'Seconds since the version being served was verified.',
      registers: [this.registry],
      collect() {
        const age = read();
        if (age !== undefined) this.set(age);
      },
    });
  }
}
