import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { PHASES, type StaticExport } from '../../contract/static-export.ts';

export type ReconcileResultLabel = 'success' | 'requeue_after' | 'error';
export type ExporterCall = 'start' | 'status' | 'bundle' | 'revision';

/**
 * The operator's Prometheus metrics, on a registry of its own (several operators may share a
 * process in tests). Names follow controller-runtime's where they mean the same thing, so
 * dashboards for Go operators read these too.
 */
export class OperatorMetrics {
  readonly registry = new Registry();
  readonly reconciles: Counter<'result'>;
  readonly reconcileErrors: Counter;
  readonly reconcileDuration: Histogram;
  readonly refreshFailures: Counter;
  readonly exporterCalls: Counter<'exporter' | 'call' | 'result'>;
  readonly isLeader: Gauge;

  /** `resources` lists the cached StaticExports when Prometheus scrapes. */
  constructor(resources: () => StaticExport[], options: { processMetrics?: boolean } = {}) {
    const registers = [this.registry];
    if (options.processMetrics ?? true) collectDefaultMetrics({ register: this.registry });
    this.reconciles = new Counter({
      name: 'docsnap_operator_reconciles_total',
      help: 'StaticExport reconciles by result.',
      labelNames: ['result'],
      registers,
    });
    this.reconcileErrors = new Counter({
      name: 'docsnap_operator_reconcile_errors_total',
      help: 'Reconciles that failed and were retried with backoff.',
      registers,
    });
    this.reconcileDuration = new Histogram({
      name: 'docsnap_operator_reconcile_duration_seconds',
      help: 'Time one reconcile took.',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.refreshFailures = new Counter({
      name: 'docsnap_operator_link_refresh_failures_total',
      help: 'Bundle link refreshes that failed (the targets keep the old link until it expires).',
      registers,
    });
    this.exporterCalls = new Counter({
      name: 'docsnap_operator_exporter_calls_total',
      help: 'Calls to exporters (Admin API or embedded) by operation and result.',
      labelNames: ['exporter', 'call', 'result'],
      registers,
    });
    this.isLeader = new Gauge({
      name: 'docsnap_operator_leader',
      help: '1 when this replica holds the leader lease (or runs without leader election).',
      registers,
    });
    new Gauge({
      name: 'docsnap_operator_static_exports',
      help: 'StaticExports in the watched namespaces by status.phase ("" before the first reconcile).',
      labelNames: ['phase'],
      registers,
      collect() {
        this.reset();
        const counts = new Map<string, number>([...PHASES, ''].map((phase) => [phase, 0]));
        for (const resource of resources()) {
          const phase = resource.status?.phase ?? '';
          counts.set(phase, (counts.get(phase) ?? 0) + 1);
        }
        for (const [phase, count] of counts) this.set({ phase }, count);
      },
    });
    new Gauge({
      name: 'docsnap_operator_link_expiry_seconds',
      help: 'Seconds until the earliest bundle link in a target expires (negative: already expired; NaN: no link delivered yet).',
      registers,
      collect() {
        const expiries = resources()
          .map((resource) => Date.parse(resource.status?.bundle?.expiresAt ?? ''))
          .filter((time) => !Number.isNaN(time));
        this.set(expiries.length > 0 ? (Math.min(...expiries) - Date.now()) / 1000 : Number.NaN);
      },
    });
  }
}
