import type { ExporterCall, OperatorMetrics } from '../runtime/metrics.ts';
import type { Exporter } from './exporter.ts';

/** The exporter with every call counted by operation and result in the operator's metrics. */
export function instrumented(
  exporter: Exporter,
  name: 'api' | 'embedded',
  metrics?: OperatorMetrics,
): Exporter {
  if (!metrics) return exporter;
  const counted = async <T>(call: ExporterCall, operation: () => Promise<T>): Promise<T> => {
    try {
      const result = await operation();
      metrics.exporterCalls.inc({ exporter: name, call, result: 'success' });
      return result;
    } catch (error) {
      metrics.exporterCalls.inc({ exporter: name, call, result: 'error' });
      throw error;
    }
  };
  const sourceRevision = exporter.sourceRevision?.bind(exporter);
  return {
    sourcePollMs: exporter.sourcePollMs,
    start: (request, options) => counted('start', () => exporter.start(request, options)),
    status: (jobId) => counted('status', () => exporter.status(jobId)),
    bundle: (jobId) => counted('bundle', () => exporter.bundle(jobId)),
    sourceRevision: sourceRevision && (() => counted('revision', sourceRevision)),
    close: exporter.close?.bind(exporter),
  };
}
