import { stringify } from 'yaml';
import { z } from 'zod';
import { STATIC_EXPORT, StaticExportSpec, StaticExportStatus } from '../contract/static-export.ts';

type JsonSchema = { [key: string]: unknown };

/**
 * The StaticExport CustomResourceDefinition, generated from the zod contract so the resource the
 * cluster validates is the one the operator reads. `npm run manifests` writes it to crds/; a test
 * fails when the committed file differs.
 */
export function staticExportCrd() {
  const { group, version, kind, plural, singular, shortNames } = STATIC_EXPORT;
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { kind, listKind: `${kind}List`, plural, singular, shortNames: [...shortNames] },
      versions: [
        {
          name: version,
          served: true,
          storage: true,
          subresources: { status: {} },
          additionalPrinterColumns: [
            { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
            { name: 'Progress', type: 'integer', jsonPath: '.status.progress' },
            { name: 'Pages', type: 'integer', jsonPath: '.status.pageCount' },
            { name: 'Warnings', type: 'integer', jsonPath: '.status.warnings.count' },
            // A string: kubectl prints a future time of a 'date' column as <invalid>.
            { name: 'Expires', type: 'string', jsonPath: '.status.bundle.expiresAt' },
            { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
          ],
          schema: {
            openAPIV3Schema: {
              type: 'object',
              description:
                'A documentation site exported to a static bundle, whose expiring link docsnap keeps fresh in Helm values.',
              required: ['spec'],
              properties: {
                apiVersion: { type: 'string' },
                kind: { type: 'string' },
                metadata: { type: 'object' },
                spec: structural(StaticExportSpec, 'input'),
                status: structural(StaticExportStatus, 'output'),
              },
            },
          },
        },
      ],
    },
  };
}

export function staticExportCrdYaml(): string {
  return `# Generated from src/contract/static-export.ts by \`npm run manifests\`. Do not edit.\n${stringify(
    staticExportCrd(),
    { lineWidth: 0 },
  )}`;
}

/**
 * A zod schema as a Kubernetes structural schema: OpenAPI v3 without `$schema`, without
 * `additionalProperties` beside `properties` (unknown fields are pruned instead; a map, which
 * has no `properties`, keeps its `additionalProperties`), and without the JavaScript-only integer
 * bounds zod adds.
 */
function structural(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const json = z.toJSONSchema(schema, { target: 'openapi-3.0', io, unrepresentable: 'throw' }) as JsonSchema;
  return clean(json);
}

function clean(node: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$schema' || (key === 'additionalProperties' && (node.properties || value === false)))
      continue;
    if ((key === 'maximum' || key === 'minimum') && Math.abs(value as number) >= Number.MAX_SAFE_INTEGER)
      continue;
    if (key === 'properties') {
      out[key] = Object.fromEntries(
        Object.entries(value as Record<string, JsonSchema>).map(([name, child]) => [name, clean(child)]),
      );
    } else if (key === 'items' || (key === 'additionalProperties' && typeof value === 'object')) {
      out[key] = clean(value as JsonSchema);
    } else {
      out[key] = value;
    }
  }
  return out;
}
