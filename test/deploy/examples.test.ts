import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { OperatorChartValues } from '../../src/contract/operator-chart.ts';
import { StaticExportSpec } from '../../src/contract/static-export.ts';

/** The GitOps examples in examples/gitops/ hold StaticExports the CRD accepts and name the chart's values. */

const dir = new URL('../../examples/gitops/', import.meta.url).pathname;

describe('examples/gitops', () => {
  it('argocd-operator.yaml installs charts/docsnap with values its schema accepts', () => {
    const [app] = parseAllDocuments(readFileSync(join(dir, 'argocd-operator.yaml'), 'utf8')).map((d) =>
      d.toJS(),
    );
    expect(app.spec.source.path).toBe('charts/docsnap');
    const defaults = parse(
      readFileSync(new URL('../../charts/docsnap/values.yaml', import.meta.url), 'utf8'),
    );
    const values = { ...defaults, ...app.spec.source.helm.valuesObject };
    values.image = { ...defaults.image, ...app.spec.source.helm.valuesObject.image };
    values.operator = { ...defaults.operator, ...app.spec.source.helm.valuesObject.operator };
    expect(OperatorChartValues.safeParse(values).error?.issues).toBeUndefined();
  });

  for (const file of readdirSync(dir).filter((f) => f !== 'argocd-operator.yaml')) {
    it(`${file}: its StaticExport is valid and its Secret target feeds the chart's existingSecret or valuesFrom`, () => {
      const objects = parseAllDocuments(readFileSync(join(dir, file), 'utf8')).map((d) => d.toJS());
      const exports = objects.filter((o) => o.kind === 'StaticExport');
      expect(exports).toHaveLength(1);
      const spec = StaticExportSpec.parse(exports[0]?.spec);
      const target = spec.targets?.[0];
      const secret = target && 'secret' in target ? target.secret?.name : undefined;
      expect(secret).toBe('docs-values');
      expect(JSON.stringify(objects)).toMatch(
        /"existingSecret":\{"name":"docs-values"|"valuesFrom":\[\{"kind":"Secret","name":"docs-values"/,
      );
    });
  }
});
