import { Parser } from 'acorn';
import jsx from 'acorn-jsx';
import type { PropValue } from '../render-context.ts';
import { literalExpression } from './literal-props.ts';

/**
 * What a snippet (or a page) exports, read from its syntax tree without running it:
 *
 * - `export const name = "…"` (any literal): a value, used as `{name}`;
 * - `export const Name = ({ a, b = "x" }) => ( <jsx using a, b and children> )` (or `(props)`
 *   with `props.a`, or a body that only returns the JSX): a component, expanded where it is used
 *   by putting its props' literal values into the JSX (`{a}` becomes `{"the value"}`) and its
 *   children where `{children}` is.
 *
 * Anything else (a function with statements, a call, a computed value) is code: it is reported
 * where it is imported, never evaluated.
 */

export type SnippetExport =
  | { kind: 'value'; value: PropValue }
  | { kind: 'component'; params: ComponentParams; body: string; line: number };

interface ComponentParams {
  /** Destructured names, with their literal defaults. */
  names: Map<string, PropValue | undefined>;
  /** `(props) => …`: props are read as `props.name`. */
  object?: string;
}

type Node = { type: string; start: number; end: number; [key: string]: unknown };

const JsxParser = Parser.extend(jsx());

/** The ESM of an import/export block parsed with JSX allowed (snippets export JSX components). */
export function parseEsm(text: string): Node[] {
  return (
    JsxParser.parse(text, { ecmaVersion: 'latest', sourceType: 'module', locations: true }) as unknown as {
      body: Node[];
    }
  ).body;
}

export function snippetExports(
  text: string,
  statements: Node[],
  firstLine: number,
): Map<string, SnippetExport> {
  const exports = new Map<string, SnippetExport>();
  for (const statement of statements) {
    if (statement.type !== 'ExportNamedDeclaration') continue;
    const declaration = statement.declaration as Node | null;
    if (declaration?.type !== 'VariableDeclaration') continue;
    for (const declarator of declaration.declarations as Node[]) {
      const id = declarator.id as Node;
      const init = declarator.init as Node | null;
      if (id.type !== 'Identifier' || !init) continue;
      const found = readExport(text, init, firstLine);
      if (found) exports.set(id.name as string, found);
    }
  }
  return exports;
}

function readExport(text: string, init: Node, firstLine: number): SnippetExport | undefined {
  if (init.type === 'ArrowFunctionExpression') {
    const params = componentParams(init.params as Node[]);
    const body = jsxBody(init.body as Node);
    if (!params || !body) return undefined;
    const line = firstLine + ((body.loc as { start: { line: number } }).start.line - 1);
    return { kind: 'component', params, body: text.slice(body.start, body.end), line };
  }
  const value = literalExpression({ body: [{ type: 'ExpressionStatement', expression: init }] });
  return value === undefined ? undefined : { kind: 'value', value };
}

/** `({ a, b = "x" })`, `(props)` or `()`; anything else (rest, nested patterns) is code. */
function componentParams(params: Node[]): ComponentParams | undefined {
  if (params.length === 0) return { names: new Map() };
  if (params.length !== 1) return undefined;
  const [param] = params as [Node];
  if (param.type === 'Identifier') return { names: new Map(), object: param.name as string };
  if (param.type !== 'ObjectPattern') return undefined;
  const names = new Map<string, PropValue | undefined>();
  for (const property of param.properties as Node[]) {
    if (property.type !== 'Property' || (property.key as Node).type !== 'Identifier') return undefined;
    const key = (property.key as Node).name as string;
    const value = property.value as Node;
    if (value.type === 'Identifier') names.set(key, undefined);
    else if (value.type === 'AssignmentPattern') {
      const fallback = literalExpression({
        body: [{ type: 'ExpressionStatement', expression: value.right as Node }],
      });
      names.set(key, fallback);
    } else return undefined;
  }
  return { names };
}

/** The JSX a component returns: its expression body, or a block that only returns it. */
function jsxBody(body: Node): Node | undefined {
  const isJsx = (node: Node | undefined) => node?.type === 'JSXElement' || node?.type === 'JSXFragment';
  if (isJsx(body)) return body;
  if (body.type === 'BlockStatement') {
    const statements = body.body as Node[];
    const only = statements.length === 1 ? statements[0] : undefined;
    const argument = only?.type === 'ReturnStatement' ? (only.argument as Node | undefined) : undefined;
    if (isJsx(argument)) return argument;
  }
  return undefined;
}

/** The element that stands for a component's `{children}` while its JSX is parsed. */
export const CHILDREN_PLACEHOLDER = 'DocsnapSnippetChildren';

/**
 * A component's JSX with its props' values in place: `{a}` and `{props.a}` become the literal
 * value (as a JSON literal the renderer reads), `{children}` the placeholder element.
 */
export function substituteProps(
  component: Extract<SnippetExport, { kind: 'component' }>,
  props: Record<string, PropValue | undefined>,
): string {
  const { names, object } = component.params;
  const literalOf = (name: string): string => {
    return jsonLiteral(props[name] ?? names.get(name) ?? null);
  };
  return component.body.replace(
    /\{\s*([A-Za-z_$][\w$]*)(?:\.([A-Za-z_$][\w$]*))?\s*\}/g,
    (written, head: string, field?: string) => {
      const name = object && head === object && field ? field : !field && names.has(head) ? head : undefined;
      if (name === 'children' || (!field && head === 'children')) return `<${CHILDREN_PLACEHOLDER} />`;
      return name === undefined ? written : `{${literalOf(name)}}`;
    },
  );
}

/**
 * A value as a JavaScript literal to put inside `{…}` in MDX, braces and angle brackets escaped:
 * the MDX parser finds an expression's end by counting braces, strings or not.
 */
export function jsonLiteral(value: PropValue): string {
  return JSON.stringify(value).replace(
    /[{}<>]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
