import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { staticExportCrdYaml } from '../../src/operator/crd.ts';

describe('crds/', () => {
  it('holds the CRD generated from the contract (run `npm run crds` after changing it)', () => {
    const committed = readFileSync(
      new URL('../../crds/staticexports.docsnap.dev.yaml', import.meta.url),
      'utf8',
    );
    expect(committed).toBe(staticExportCrdYaml());
  });
});
