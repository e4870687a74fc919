/**
 * Writes the files generated from the code (`npm run manifests`): the CRDs, the operator's RBAC,
 * and the Admin API's OpenAPI document in the example docs site (its API reference).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { adminApiOpenApiDocument } from '../src/api/openapi-document.ts';
import { staticExportCrdYaml } from '../src/operator/crd.ts';
import { operatorRbacYaml } from '../src/operator/rbac.ts';

/** The example site's copy names the server a reader runs with the quickstart. */
async function exampleSiteOpenApi(): Promise<string> {
  const document = await adminApiOpenApiDocument();
  const servers = [{ url: 'http://127.0.0.1:8080', description: 'docsnap api on this machine' }];
  return `${JSON.stringify({ ...document, servers }, null, 2)}\n`;
}

export const MANIFESTS: Array<[string, () => string | Promise<string>]> = [
  ['crds/staticexports.docsnap.dev.yaml', staticExportCrdYaml],
  ['config/rbac/operator.yaml', operatorRbacYaml],
  ['examples/docs-site/api-reference/openapi.json', exampleSiteOpenApi],
];

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const [file, generate] of MANIFESTS) {
    const path = new URL(`../${file}`, import.meta.url);
    mkdirSync(new URL('.', path), { recursive: true });
    writeFileSync(path, await generate());
    console.log(`wrote ${file}`);
  }
}
