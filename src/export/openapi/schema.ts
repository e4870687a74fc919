import { canonical, isObject, refName, UNRESOLVED } from './resolve.ts';
import type { SchemaObject } from './types.ts';

/**
 * Reading schemas defensively: documents in the wild put strings where arrays belong, so every
 * accessor checks the shape it returns. Walks track the schema objects they are inside, because
 * resolved recursive schemas are object cycles.
 */

export function asSchema(value: unknown): SchemaObject | undefined {
  return isObject(value) ? value : undefined;
}

export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function schemaArray(value: unknown): SchemaObject[] {
  return Array.isArray(value) ? value.filter(isObject) : [];
}

export function unresolvedReason(schema: SchemaObject): string | undefined {
  return str(schema[UNRESOLVED]);
}

export function schemaName(schema: SchemaObject): string | undefined {
  return str(schema.title) ?? refName(schema);
}

const mergedCache = new WeakMap<object, SchemaObject>();
/** `allOf` inside `allOf` (through `$ref`s) is merged this deep; deeper parts are left as they are. */
const MAX_MERGE_NESTING = 64;

/**
 * Folds `allOf` into one schema: properties and required lists are united, the first value of
 * any other keyword wins, the schema's own keywords win over its parts.
 */
export function mergeAllOf(schema: SchemaObject, inside: ReadonlySet<object> = new Set()): SchemaObject {
  if (!Array.isArray(schema.allOf) || inside.size >= MAX_MERGE_NESTING) return schema;
  const cached = mergedCache.get(schema);
  if (cached) return cached;
  const seen = new Set(inside).add(schema);
  const result: Record<string, unknown> = {};
  const properties: Record<string, unknown> = {};
  const required = new Set<string>();
  const absorb = (part: SchemaObject) => {
    for (const [key, value] of Object.entries(part)) {
      if (key === 'allOf') continue;
      if (key === 'properties' && isObject(value)) {
        // A property defined by several parts must satisfy all of them.
        for (const [name, property] of Object.entries(value)) {
          const known = properties[name];
          properties[name] =
            known === undefined || known === property ? property : { allOf: [known, property] };
        }
      } else if (key === 'required' && Array.isArray(value)) {
        for (const name of value) if (typeof name === 'string') required.add(name);
      } else if (!(key in result)) result[key] = value;
    }
  };
  const own: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) if (key !== 'allOf') own[key] = value;
  absorb(own);
  for (const part of schemaArray(schema.allOf)) {
    if (seen.has(part)) continue;
    absorb(mergeAllOf(part, seen));
  }
  if (Object.keys(properties).length > 0) result.properties = properties;
  if (required.size > 0) result.required = [...required];
  if (result.type === undefined && Object.keys(properties).length > 0) result.type = 'object';
  mergedCache.set(schema, result);
  return result;
}

/** The declared types without "null" (inferred from keywords when `type` is absent). */
export function schemaTypes(schema: SchemaObject): string[] {
  const declared = Array.isArray(schema.type)
    ? schema.type.filter((t): t is string => typeof t === 'string')
    : typeof schema.type === 'string'
      ? [schema.type]
      : [];
  const types = declared.filter((t) => t !== 'null');
  if (types.length > 0 || declared.length > 0) return types;
  if (isObject(schema.properties) || schema.additionalProperties !== undefined) return ['object'];
  if (schema.items !== undefined) return ['array'];
  const literal = schema.const !== undefined ? [schema.const] : Array.isArray(schema.enum) ? schema.enum : [];
  const inferred = new Set(
    literal.filter((v) => v !== null).map((v) => (Array.isArray(v) ? 'array' : typeof v)),
  );
  return [...inferred];
}

export function isNullable(schema: SchemaObject): boolean {
  if (schema.nullable === true) return true;
  if (Array.isArray(schema.type) && schema.type.includes('null')) return true;
  if (schema.type === 'null') return true;
  return variants(schema).some((v) => v.type === 'null');
}

/** oneOf / anyOf alternatives, leaving out a bare `{type: "null"}` (shown as "nullable" instead). */
export function variants(schema: SchemaObject): SchemaObject[] {
  return [...schemaArray(schema.oneOf), ...schemaArray(schema.anyOf)];
}

export function nonNullVariants(schema: SchemaObject): SchemaObject[] {
  return variants(schema).filter((v) => v.type !== 'null');
}

export function variantKind(schema: SchemaObject): 'oneOf' | 'anyOf' | undefined {
  if (schemaArray(schema.oneOf).length > 0) return 'oneOf';
  if (schemaArray(schema.anyOf).length > 0) return 'anyOf';
  return undefined;
}

/** A short type for display: "string<uuid>", "object[]", "integer | null", "User | Team". */
export function typeLabel(input: SchemaObject, inside: ReadonlySet<object> = new Set(), depth = 0): string {
  if (unresolvedReason(input) !== undefined) return 'unresolved';
  if (inside.has(canonical(input)) || depth > 3) return schemaName(input) ?? 'object';
  const schema = mergeAllOf(input, inside);
  const nested = new Set(inside).add(canonical(input));
  const types = schemaTypes(schema);
  const nullable = isNullable(schema);
  let label: string;
  if (types.length === 0) {
    const alternatives = nonNullVariants(schema);
    if (alternatives.length === 1 && alternatives[0]) return typeLabel(alternatives[0], nested, depth + 1);
    label =
      alternatives.length > 0
        ? [...new Set(alternatives.map((v) => schemaName(v) ?? typeLabel(v, nested, depth + 1)))].join(' | ')
        : schema.type === 'null'
          ? 'null'
          : 'any';
  } else if (types.length === 1 && types[0] === 'array') {
    const items = asSchema(schema.items);
    const item = items ? typeLabel(items, nested, depth + 1) : 'any';
    label = `${item.includes(' ') ? `(${item})` : item}[]`;
  } else {
    label = types.join(' | ');
    const format = str(schema.format);
    if (types.length === 1 && format) label = `${label}<${format}>`;
    if (Array.isArray(schema.enum) && types.length === 1) label = `enum<${label}>`;
  }
  return nullable && label !== 'null' ? `${label} | null` : label;
}

/** Validation keywords worth showing, as short phrases. */
export function constraints(schema: SchemaObject): string[] {
  const out: string[] = [];
  const num = (key: string) => (typeof schema[key] === 'number' ? (schema[key] as number) : undefined);
  // OpenAPI 3.0 writes exclusiveMinimum as a boolean next to minimum; 3.1 as the bound itself.
  const bound = (key: string, exclusiveKey: string, inclusive: string, exclusive: string) => {
    const value = num(key);
    const flag = schema[exclusiveKey];
    if (typeof flag === 'number') out.push(`${exclusive} ${flag}`);
    if (value !== undefined) out.push(`${flag === true ? exclusive : inclusive} ${value}`);
  };
  bound('minimum', 'exclusiveMinimum', '>=', '>');
  bound('maximum', 'exclusiveMaximum', '<=', '<');
  const lengths: [string, string][] = [
    ['minLength', 'min length'],
    ['maxLength', 'max length'],
    ['minItems', 'min items'],
    ['maxItems', 'max items'],
    ['minProperties', 'min properties'],
    ['maxProperties', 'max properties'],
    ['multipleOf', 'multiple of'],
  ];
  for (const [key, text] of lengths) {
    const value = num(key);
    if (value !== undefined) out.push(`${text}: ${value}`);
  }
  if (schema.uniqueItems === true) out.push('unique items');
  const pattern = str(schema.pattern);
  if (pattern) out.push(`pattern: ${pattern}`);
  return out;
}

// ---- example values ------------------------------------------------------------------------------

export type ExampleMode = 'request' | 'response';

const MAX_EXAMPLE_DEPTH = 8;
const MAX_EXAMPLE_NODES = 400;

const FORMAT_EXAMPLES: Record<string, unknown> = {
  'date-time': '2024-01-15T09:30:00Z',
  date: '2024-01-15',
  time: '09:30:00Z',
  duration: 'P3D',
  uuid: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
  email: 'user@example.com',
  'idn-email': 'user@example.com',
  uri: 'https://example.com',
  url: 'https://example.com',
  'uri-reference': '/example',
  hostname: 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  byte: 'U29tZSBieXRlcw==',
  binary: '<binary>',
  password: '********',
  int32: 0,
  int64: 0,
};

/** An explicit example for a schema: `example`, the first of `examples`, `default`, `const` or the first enum value. */
export function explicitExample(schema: SchemaObject): { value: unknown } | undefined {
  if (schema.example !== undefined) return { value: schema.example };
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return { value: schema.examples[0] };
  if (schema.default !== undefined) return { value: schema.default };
  if (schema.const !== undefined) return { value: schema.const };
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return { value: schema.enum[0] };
  return undefined;
}

function clamp(schema: SchemaObject, value: number): number {
  const min = typeof schema.minimum === 'number' ? schema.minimum : undefined;
  const max = typeof schema.maximum === 'number' ? schema.maximum : undefined;
  if (min !== undefined && value < min) return min;
  if (max !== undefined && value > max) return max;
  return value;
}

/**
 * A plausible value for a schema, for request and response examples. Properties that only apply
 * in the other direction (readOnly in requests, writeOnly in responses) are left out; recursion
 * stops at a cycle or at a fixed depth, and the whole value at a fixed size. `onValue` is called
 * for every value generated (the operation's budget counts them).
 */
export function exampleFromSchema(schema: SchemaObject, mode: ExampleMode, onValue?: () => void): unknown {
  const budget = { nodes: 0, onValue };
  return generate(schema, mode, new Set(), 0, budget);
}

function generate(
  input: SchemaObject,
  mode: ExampleMode,
  inside: ReadonlySet<object>,
  depth: number,
  budget: { nodes: number; onValue?: () => void },
): unknown {
  budget.nodes++;
  budget.onValue?.();
  if (unresolvedReason(input) !== undefined) return null;
  const schema = mergeAllOf(input, inside);
  const explicit = explicitExample(schema);
  if (explicit) return explicit.value;
  const types = schemaTypes(schema);
  const nested = new Set(inside).add(canonical(input));
  const stop = inside.has(canonical(input)) || depth >= MAX_EXAMPLE_DEPTH || budget.nodes > MAX_EXAMPLE_NODES;
  if (types.length === 0) {
    const first = nonNullVariants(schema)[0];
    if (first && !stop) return generate(first, mode, nested, depth + 1, budget);
    return isNullable(schema) ? null : {};
  }
  const type = types[0];
  switch (type) {
    case 'object': {
      if (stop) return {};
      const out: Record<string, unknown> = {};
      const properties = isObject(schema.properties) ? schema.properties : {};
      for (const [name, value] of Object.entries(properties)) {
        const property = asSchema(value);
        if (!property) continue;
        if (mode === 'request' && property.readOnly === true) continue;
        if (mode === 'response' && property.writeOnly === true) continue;
        if (budget.nodes > MAX_EXAMPLE_NODES) break;
        out[name] = generate(property, mode, nested, depth + 1, budget);
      }
      const additional = asSchema(schema.additionalProperties);
      if (Object.keys(properties).length === 0 && additional) {
        out.key = generate(additional, mode, nested, depth + 1, budget);
      }
      return out;
    }
    case 'array': {
      const items = asSchema(schema.items);
      if (stop || !items) return [];
      return [generate(items, mode, nested, depth + 1, budget)];
    }
    case 'integer':
      return clamp(schema, 123);
    case 'number':
      return clamp(schema, 12.5);
    case 'boolean':
      return true;
    case 'null':
      return null;
    default: {
      const format = str(schema.format);
      if (format !== undefined && format in FORMAT_EXAMPLES) return FORMAT_EXAMPLES[format];
      return 'string';
    }
  }
}

/** JSON text that survives cycles and odd values in hand-written examples. */
export function toJson(value: unknown): string {
  const inside: object[] = [];
  const text = JSON.stringify(
    value,
    function (this: unknown, _key, current: unknown) {
      if (typeof current === 'bigint') return current.toString();
      if (typeof current !== 'object' || current === null) return current;
      while (inside.length > 0 && inside.at(-1) !== this) inside.pop();
      if (inside.includes(current)) return '[Circular]';
      inside.push(current);
      return current;
    },
    2,
  );
  return text ?? 'null';
}
