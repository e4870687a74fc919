import { isDeepStrictEqual } from 'node:util';
import { parse } from 'yaml';
import type { Target } from '../../contract/static-export.ts';
import type { StaticExportValues } from './helm-values.ts';

type JsonObject = Record<string, unknown>;
export type SourceSelector = NonNullable<NonNullable<Target['argoCDApplication']>['source']>;

/** A problem with a target object itself; the message names the object and is ready for status. */
export class TargetError extends Error {}

/** An object read from the API with the values written into it (a copy), and where they went. */
export interface ValuesEdit {
  object: JsonObject;
  /** The field path of the values, for TargetStatus.key. */
  key: string;
  /** False when the object already held these values: nothing to write. */
  changed: boolean;
}

/**
 * Helm values given as an object (Argo CD's valuesObject, Flux's spec.values) with
 * staticExport.{enabled,bundleUrl,version} set; every other key, in staticExport or beside it,
 * stays as it was. `where` names the field for error messages.
 */
export function withStaticExportObject(
  current: unknown,
  values: StaticExportValues,
  where: string,
): JsonObject {
  // null is what `valuesObject:` with nothing under it reads as: the same as absent.
  const object = current ?? {};
  if (!isObject(object)) throw new TargetError(`${where} is not an object`);
  const section = object.staticExport ?? {};
  if (!isObject(section)) throw new TargetError(`${where}.staticExport is not an object`);
  const { enabled, bundleUrl, version } = values;
  return { ...object, staticExport: { ...section, enabled, bundleUrl, version } };
}

/**
 * An Argo CD Application with the values in helm.valuesObject of its source: spec.source, or
 * the one of spec.sources the selector picks (Argo CD ignores spec.source once spec.sources is
 * set). helm.values (a string) and helm.parameters are left alone.
 */
export function applicationWithValues(
  application: JsonObject,
  selector: SourceSelector | undefined,
  values: StaticExportValues,
): ValuesEdit {
  const name = nameOf(application);
  const object = structuredClone(application);
  const spec = object.spec;
  if (!isObject(spec)) throw new TargetError(`Application ${name} has no spec`);
  const { field, index } = selectSource(name, spec, selector);
  const source = (index === undefined ? spec.source : (spec.sources as unknown[])[index]) as JsonObject;
  refuseNonHelm(name, field, source);
  const helm = source.helm ?? {};
  if (!isObject(helm)) throw new TargetError(`Application ${name} ${field}.helm is not an object`);
  // Argo CD renders helm.values only while valuesObject is unset (ValuesYAML takes one or the
  // other, never a merge): adding a valuesObject would silently drop every value in the string.
  if (helm.valuesObject == null && holdsValues(helm.values))
    throw new TargetError(
      `Application ${name} ${field}.helm has values but no valuesObject; Argo CD ignores helm.values ` +
        'once helm.valuesObject is set, so writing staticExport there would drop them: move them into ' +
        'helm.valuesObject, or use a Secret target',
    );
  const key = `${field}.helm.valuesObject`;
  const updated = withStaticExportObject(helm.valuesObject, values, `Application ${name} ${key}`);
  const changed = !isDeepStrictEqual(helm.valuesObject, updated);
  source.helm = { ...helm, valuesObject: updated };
  return { object, key, changed };
}

/** A Flux HelmRelease with the values in spec.values. */
export function helmReleaseWithValues(release: JsonObject, values: StaticExportValues): ValuesEdit {
  const name = nameOf(release);
  const object = structuredClone(release);
  const spec = object.spec;
  if (!isObject(spec)) throw new TargetError(`HelmRelease ${name} has no spec`);
  const updated = withStaticExportObject(spec.values, values, `HelmRelease ${name} spec.values`);
  const changed = !isDeepStrictEqual(spec.values, updated);
  spec.values = updated;
  return { object, key: 'spec.values', changed };
}

/**
 * Which source of an Application gets the values. Every field the selector gives must match, and
 * exactly one source may match; a single-source Application's spec.source counts as index 0.
 * Without a selector, a multi-source Application must have exactly one Helm source (chart or
 * helm set): the others are typically `ref` sources of values files, or plain manifests.
 */
export function selectSource(
  name: string,
  spec: JsonObject,
  selector: SourceSelector | undefined,
): { field: string; index?: number } {
  const multi = Array.isArray(spec.sources) && spec.sources.length > 0;
  const candidates: Array<{ source: JsonObject; index: number; field: string }> = multi
    ? (spec.sources as unknown[]).map((source, index) => ({
        source: isObject(source) ? source : {},
        index,
        field: `spec.sources[${index}]`,
      }))
    : isObject(spec.source)
      ? [{ source: spec.source, index: 0, field: 'spec.source' }]
      : [];
  if (candidates.length === 0)
    throw new TargetError(`Application ${name} has neither spec.source nor spec.sources`);
  const pick = (found: (typeof candidates)[number]) =>
    multi ? { field: found.field, index: found.index } : { field: found.field };

  const given = Object.entries(selector ?? {}).filter(([, value]) => value !== undefined);
  if (given.length > 0) {
    const wanted = given.map(([field, value]) => `${field}=${JSON.stringify(value)}`).join(', ');
    const matches = candidates.filter(({ source, index }) =>
      given.every(([field, value]) => (field === 'index' ? index === value : source[field] === value)),
    );
    if (matches.length === 1 && matches[0]) return pick(matches[0]);
    if (matches.length === 0)
      throw new TargetError(
        `Application ${name}: no source matches ${wanted} (sources: ${describe(candidates)})`,
      );
    throw new TargetError(
      `Application ${name}: ${matches.length} sources match ${wanted} (${describe(matches)}); ` +
        'give more of index, name, chart or repoURL in argoCDApplication.source to pick one',
    );
  }
  if (!multi && candidates[0]) return pick(candidates[0]);
  const helmSources = candidates.filter(({ source }) => source.chart || source.helm);
  if (helmSources.length === 1 && helmSources[0]) return pick(helmSources[0]);
  throw new TargetError(
    `Application ${name} has ${candidates.length} sources, ${helmSources.length} of them Helm sources ` +
      `(${describe(candidates)}); set argoCDApplication.source (index, name, chart or repoURL) to choose one`,
  );
}

/** Writing helm into a Kustomize, directory or plugin source would make Argo CD refuse it. */
function refuseNonHelm(name: string, field: string, source: JsonObject): void {
  for (const other of ['kustomize', 'directory', 'plugin'])
    if (source[other] != null)
      throw new TargetError(`Application ${name} ${field} is a ${other} source, not a Helm source`);
  if (source.ref && !source.chart && !source.path)
    throw new TargetError(
      `Application ${name} ${field} only provides values files (ref ${source.ref}); it renders no chart`,
    );
}

/** Whether a helm.values string sets anything (comments or an empty mapping set nothing). */
function holdsValues(text: unknown): boolean {
  if (typeof text !== 'string' || text.trim() === '') return false;
  try {
    const parsed: unknown = parse(text);
    return parsed != null && !(isObject(parsed) && Object.keys(parsed).length === 0);
  } catch {
    return true; // not YAML: Argo CD would fail on it, and it is not ours to drop
  }
}

function describe(candidates: Array<{ source: JsonObject; field: string }>): string {
  return candidates
    .map(({ source, field }) => {
      const parts = ['name', 'chart', 'ref', 'path', 'repoURL']
        .filter((key) => typeof source[key] === 'string' && source[key] !== '')
        .map((key) => `${key}=${source[key]}`);
      return `${field}${parts.length > 0 ? ` ${parts.join(' ')}` : ''}`;
    })
    .join('; ');
}

function nameOf(object: JsonObject): string {
  const metadata = object.metadata;
  return isObject(metadata) && typeof metadata.name === 'string' ? metadata.name : '(unnamed)';
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
