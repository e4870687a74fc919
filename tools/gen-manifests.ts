/** Writes the manifests generated from the code (`npm run manifests`): the CRDs and the operator's RBAC. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { staticExportCrdYaml } from '../src/operator/crd.ts';
import { operatorRbacYaml } from '../src/operator/rbac.ts';

export const MANIFESTS: Array<[string, () => string]> = [
  ['crds/staticexports.docsnap.dev.yaml', staticExportCrdYaml],
  ['config/rbac/operator.yaml', operatorRbacYaml],
];

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const [file, generate] of MANIFESTS) {
    const path = new URL(`../${file}`, import.meta.url);
    mkdirSync(new URL('.', path), { recursive: true });
    writeFileSync(path, generate());
    console.log(`wrote ${file}`);
  }
}
