import { describe, expect, it } from 'vitest';
import type { StaticExport } from '../../src/contract/static-export.ts';
import { OperatorMetrics } from '../../src/operator/runtime/metrics.ts';

const resource = (phase: string | undefined, expiresAt?: string) =>
  ({ status: { phase, bundle: expiresAt ? { expiresAt } : undefined } }) as unknown as StaticExport;

describe('OperatorMetrics', () => {
  it('counts StaticExports by phase and reports the earliest link expiry when scraped', async () => {
    const inTenMinutes = new Date(Date.now() + 600_000).toISOString();
    const inAnHour = new Date(Date.now() + 3_600_000).toISOString();
    const resources = [
      resource('Ready', inAnHour),
      resource('Ready', inTenMinutes),
      resource('Failed'),
      resource(undefined),
    ];
    const metrics = new OperatorMetrics(() => resources, { processMetrics: false });
    const text = await metrics.registry.metrics();
    expect(text).toContain('docsnap_operator_static_exports{phase="Ready"} 2');
    expect(text).toContain('docsnap_operator_static_exports{phase="Failed"} 1');
    expect(text).toContain('docsnap_operator_static_exports{phase="Exporting"} 0');
    expect(text).toContain('docsnap_operator_static_exports{phase=""} 1');
    const expiry = Number(/^docsnap_operator_link_expiry_seconds (\S+)$/m.exec(text)?.[1]);
    expect(expiry).toBeGreaterThan(590);
    expect(expiry).toBeLessThanOrEqual(600);
  });

  it('reports NaN expiry while no link was delivered, and follows the cache between scrapes', async () => {
    const resources: StaticExport[] = [resource('Exporting')];
    const metrics = new OperatorMetrics(() => resources, { processMetrics: false });
    expect(await metrics.registry.metrics()).toMatch(/^docsnap_operator_link_expiry_seconds Nan$/m);
    resources[0] = resource('Ready', new Date(Date.now() - 5_000).toISOString());
    const text = await metrics.registry.metrics();
    expect(Number(/^docsnap_operator_link_expiry_seconds (\S+)$/m.exec(text)?.[1])).toBeLessThan(0);
    expect(text).toContain('docsnap_operator_static_exports{phase="Exporting"} 0');
  });
});
