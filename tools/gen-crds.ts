/** Writes the CRDs generated from the contract to crds/ (`npm run crds`). */
import { writeFileSync } from 'node:fs';
import { staticExportCrdYaml } from '../src/operator/crd.ts';

const path = new URL('../crds/staticexports.docsnap.dev.yaml', import.meta.url);
writeFileSync(path, staticExportCrdYaml());
console.log(`wrote ${path.pathname}`);
