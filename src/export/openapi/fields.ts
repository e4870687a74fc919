import { type OperationBudget, textWeight } from './budget.ts';
import { canonical, isObject } from './resolve.ts';
import {
  asSchema,
  constraints,
  type ExampleMode,
  mergeAllOf,
  nonNullVariants,
  schemaName,
  schemaTypes,
  str,
  typeLabel,
  unresolvedReason,
  variantKind,
} from './schema.ts';
import type { SchemaObject } from './types.ts';

/**
 * A schema as a tree of fields to display, built once and rendered twice (HTML and Markdown).
 * Expansion stops at a cycle ("circular"), at a fixed depth, and after a fixed number of fields,
 * so a huge or recursive schema gives a bounded page.
 */

export interface SchemaView {
  type: string;
  description?: string;
  deprecated: boolean;
  readOnly: boolean;
  writeOnly: boolean;
  hasDefault: boolean;
  default?: unknown;
  enum?: unknown[];
  constraints: string[];
  /** Properties of the object (or of the array's items). */
  fields: FieldView[];
  /** oneOf/anyOf alternatives (of the value, or of the array's items). */
  variants: VariantView[];
  variantKind?: 'oneOf' | 'anyOf';
  note?: { kind: 'circular' | 'depth' | 'unresolved' | 'truncated'; text: string };
}

export interface FieldView extends SchemaView {
  name: string;
  id: string;
  required: boolean;
}

export interface VariantView extends SchemaView {
  label: string;
}

const MAX_DEPTH = 8;
const MAX_FIELDS = 600;

export interface ViewState {
  mode: ExampleMode;
  /** Counts every view built for the operation (budget.ts). */
  budget: OperationBudget;
  fields: number;
  truncated?: boolean;
  ids: Set<string>;
  /** Called once per unresolved `$ref` met while building. */
  onUnresolved?: (reason: string) => void;
}

export function slug(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9_.-]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'x'
  );
}

/** A page-unique id: the same input on the same page always yields the same id. */
export function uniqueId(state: ViewState, base: string): string {
  let id = base;
  for (let n = 1; state.ids.has(id); n++) id = `${base}-${n}`;
  state.ids.add(id);
  return id;
}

/** The view of a parameter or header that declares no schema: OpenAPI reads it as a plain string. */
export function plainStringView(): SchemaView {
  return {
    type: 'string',
    deprecated: false,
    readOnly: false,
    writeOnly: false,
    hasDefault: false,
    constraints: [],
    fields: [],
    variants: [],
  };
}

export function viewSchema(
  schema: SchemaObject,
  state: ViewState,
  idBase: string,
  inside: ReadonlySet<object> = new Set(),
  depth = 0,
): SchemaView {
  state.budget.node();
  const view: SchemaView = {
    type: typeLabel(schema, inside),
    deprecated: schema.deprecated === true,
    readOnly: schema.readOnly === true,
    writeOnly: schema.writeOnly === true,
    hasDefault: false,
    constraints: [],
    fields: [],
    variants: [],
  };
  const reason = unresolvedReason(schema);
  if (reason !== undefined) {
    state.onUnresolved?.(reason);
    view.note = { kind: 'unresolved', text: 'Schema not available: its $ref could not be resolved.' };
    return view;
  }
  const merged = mergeAllOf(schema, inside);
  const description = str(merged.description);
  if (description !== undefined) view.description = description;
  if (merged.default !== undefined) {
    view.hasDefault = true;
    view.default = merged.default;
  }
  if (Array.isArray(merged.enum)) view.enum = merged.enum;
  else if (merged.const !== undefined) view.enum = [merged.const];
  view.constraints = constraints(merged);
  state.budget.text(
    (description?.length ?? 0) +
      (view.hasDefault ? textWeight(view.default) : 0) +
      (Array.isArray(merged.enum) ? textWeight(merged.enum) : 0) +
      view.constraints.reduce((sum, text) => sum + text.length, 0),
  );
  if (merged.deprecated === true) view.deprecated = true;
  if (inside.has(canonical(schema))) {
    view.note = {
      kind: 'circular',
      text: `Circular reference to ${schemaName(schema) ?? 'an enclosing schema'}.`,
    };
    return view;
  }
  if (depth >= MAX_DEPTH) {
    view.note = { kind: 'depth', text: 'Nested further; not expanded here.' };
    return view;
  }
  const nested = new Set(inside).add(canonical(schema));
  // An array shows its items' fields and alternatives; a nested array (array of arrays) its innermost.
  let container = merged;
  for (let hops = 0; schemaTypes(container)[0] === 'array' && hops < 4; hops++) {
    const items = asSchema(container.items);
    if (!items) break;
    if (unresolvedReason(items) !== undefined) {
      state.onUnresolved?.(unresolvedReason(items) as string);
      return view;
    }
    if (nested.has(canonical(items))) {
      view.note = {
        kind: 'circular',
        text: `Circular reference to ${schemaName(items) ?? 'an enclosing schema'}.`,
      };
      return view;
    }
    nested.add(canonical(items));
    container = mergeAllOf(items, nested);
  }
  // Allowed values of an array's items are the array's allowed elements.
  if (container !== merged && view.enum === undefined && Array.isArray(container.enum))
    view.enum = container.enum;
  addFields(view, container, state, idBase, nested, depth);
  const kind = variantKind(container);
  const alternatives = nonNullVariants(container);
  // A single non-null alternative (`anyOf: [X, {type: null}]`) is just a nullable X.
  if (alternatives.length === 1 && alternatives[0] && view.fields.length === 0) {
    const inner = viewSchema(alternatives[0], state, idBase, nested, depth + 1);
    view.fields = inner.fields;
    view.variants = inner.variants;
    if (inner.variantKind) view.variantKind = inner.variantKind;
    if (inner.note) view.note = inner.note;
    if (view.description === undefined && inner.description !== undefined)
      view.description = inner.description;
    if (view.enum === undefined && inner.enum !== undefined) view.enum = inner.enum;
  } else if (kind && alternatives.length > 1) {
    view.variantKind = kind;
    alternatives.forEach((alternative, i) => {
      const label = variantLabel(alternative, i, nested);
      const inner = viewSchema(alternative, state, `${idBase}-option-${i + 1}`, nested, depth + 1);
      view.variants.push({ ...inner, label });
    });
  }
  return view;
}

function variantLabel(schema: SchemaObject, index: number, inside: ReadonlySet<object>): string {
  const name = schemaName(schema);
  if (name) return name;
  const type = typeLabel(schema, inside);
  return type === 'object' || type === 'any' ? `Option ${index + 1}` : type;
}

function addFields(
  view: SchemaView,
  schema: SchemaObject,
  state: ViewState,
  idBase: string,
  inside: ReadonlySet<object>,
  depth: number,
): void {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(
    Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === 'string') : [],
  );
  const entries: [string, SchemaObject][] = [];
  for (const [name, value] of Object.entries(properties)) {
    const property = asSchema(value);
    if (property) entries.push([name, property]);
  }
  const additional = asSchema(schema.additionalProperties);
  if (additional) entries.push(['{key}', additional]);
  for (const [name, property] of entries) {
    if (state.mode === 'request' && property.readOnly === true) continue;
    if (state.mode === 'response' && property.writeOnly === true) continue;
    if (state.fields >= MAX_FIELDS) {
      // Said once, where the cut happens; later schemas stop quietly.
      if (!state.truncated) view.note = { kind: 'truncated', text: 'More fields are not shown.' };
      state.truncated = true;
      return;
    }
    state.fields++;
    const id = uniqueId(state, `${idBase}-${slug(name === '{key}' ? 'key' : name)}`);
    const inner = viewSchema(property, state, id, inside, depth + 1);
    view.fields.push({ ...inner, name, id, required: required.has(name) });
  }
}

/** A compact rendering of a literal value (default, enum member) for display. */
export function literal(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
