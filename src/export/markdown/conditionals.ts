import { Parser } from 'acorn';
import jsx from 'acorn-jsx';
import type { PropValue } from '../render-context.ts';

/**
 * Conditionals an author writes around content, decided at build time without running code:
 * `{platform === "ios" ? (<MDX>…</MDX>) : (<MDX>…</MDX>)}`, `{title && <h3>{title}</h3>}` and the
 * like, where the condition reads only literals and names whose values are literals (a page's or
 * snippet's `export const`, a snippet component's props). Comparisons, `!`, `&&`, `||`, `??` and
 * `? :` are worked out on those values; anything else (a call, a member of something unknown, an
 * operator with effects) leaves the expression as it was, to be reported as JavaScript.
 */

/** What an expression comes to: markup (JSX source to parse as MDX), text, or nothing at all. */
export type Branch =
  | { kind: 'markup'; source: string }
  | { kind: 'text'; value: string }
  | { kind: 'nothing' };

/** What names stand for: values by name, and a component's `(props)` parameter read as `props.name`. */
export interface Scope {
  values: (name: string) => { value: PropValue | undefined } | undefined;
  props?: { object: string; value: (name: string) => PropValue | undefined };
}

type Node = { type: string; start: number; end: number; [key: string]: unknown };

const JsxParser = Parser.extend(jsx());
const NOT_STATIC = Symbol('needs code to run');

/** The branch a conditional expression's literal condition picks; undefined when it is not such a conditional. */
export function chooseBranch(text: string, scope: Scope): Branch | undefined {
  let expression: Node;
  try {
    expression = JsxParser.parseExpressionAt(text, 0, { ecmaVersion: 'latest' }) as unknown as Node;
    if (
      text
        .slice(expression.end)
        .replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, '')
        .trim()
    )
      return undefined;
  } catch {
    return undefined;
  }
  if (expression.type !== 'ConditionalExpression' && expression.type !== 'LogicalExpression')
    return undefined;
  try {
    return branchOf(expression, text, scope);
  } catch (error) {
    if (error === NOT_STATIC) return undefined;
    throw error;
  }
}

function branchOf(node: Node, text: string, scope: Scope): Branch {
  switch (node.type) {
    case 'ConditionalExpression':
      return branchOf(
        (truthy(operandValue(node.test as Node, scope)) ? node.consequent : node.alternate) as Node,
        text,
        scope,
      );
    case 'LogicalExpression': {
      const left = node.left as Node;
      // `a && <X/>`, `a || <X/>`, `a ?? <X/>`: the left side decides; it shows itself when it is the result.
      const value = operandValue(left, scope);
      const takesLeft =
        node.operator === '&&' ? !truthy(value) : node.operator === '||' ? truthy(value) : value !== null;
      return takesLeft ? branchOf(left, text, scope) : branchOf(node.right as Node, text, scope);
    }
    case 'JSXElement':
    case 'JSXFragment':
      return { kind: 'markup', source: text.slice(node.start, node.end) };
    default: {
      // React renders strings and numbers, and nothing for null, undefined and booleans.
      const value = operandValue(node, scope);
      if (typeof value === 'string' || typeof value === 'number')
        return { kind: 'text', value: String(value) };
      if (value === null || value === undefined || typeof value === 'boolean') return { kind: 'nothing' };
      throw NOT_STATIC;
    }
  }
}

const truthy = (value: PropValue | undefined): boolean => Boolean(value);

/** The value of a condition's operand: literals, names in scope and the operators that combine them. */
function operandValue(node: Node, scope: Scope): PropValue | undefined {
  switch (node.type) {
    case 'Literal': {
      const value = node.value;
      if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) return value as PropValue;
      throw NOT_STATIC;
    }
    case 'TemplateLiteral':
      if ((node.expressions as unknown[]).length > 0) throw NOT_STATIC;
      return (node.quasis as Array<{ value: { cooked: string } }>).map((q) => q.value.cooked).join('');
    case 'Identifier': {
      if (node.name === 'undefined') return undefined;
      const found = scope.values(node.name as string);
      if (!found) throw NOT_STATIC;
      return found.value;
    }
    case 'MemberExpression': {
      const object = node.object as Node;
      const property = node.property as Node;
      if (
        scope.props &&
        object.type === 'Identifier' &&
        object.name === scope.props.object &&
        !node.computed &&
        property.type === 'Identifier'
      )
        return scope.props.value(property.name as string);
      throw NOT_STATIC;
    }
    case 'UnaryExpression': {
      const value = operandValue(node.argument as Node, scope);
      if (node.operator === '!') return !truthy(value);
      if (node.operator === '-' && typeof value === 'number') return -value;
      throw NOT_STATIC;
    }
    case 'LogicalExpression': {
      const left = operandValue(node.left as Node, scope);
      if (node.operator === '&&') return truthy(left) ? operandValue(node.right as Node, scope) : left;
      if (node.operator === '||') return truthy(left) ? left : operandValue(node.right as Node, scope);
      return left ?? operandValue(node.right as Node, scope);
    }
    case 'BinaryExpression':
      return compare(
        node.operator as string,
        operandValue(node.left as Node, scope),
        operandValue(node.right as Node, scope),
      );
    default:
      throw NOT_STATIC;
  }
}

function compare(operator: string, left: PropValue | undefined, right: PropValue | undefined): boolean {
  const primitives = isPrimitive(left) && isPrimitive(right);
  switch (operator) {
    case '===':
      return left === right;
    case '!==':
      return left !== right;
    case '==':
    case '!=':
      if (!primitives) throw NOT_STATIC;
      // Loose equality of two primitives runs no code.
      // biome-ignore lint/suspicious/noDoubleEquals: the author wrote ==, and this is what it means.
      return (left == right) === (operator === '==');
  }
  if (typeof left === 'number' && typeof right === 'number') {
    if (operator === '<') return left < right;
    if (operator === '<=') return left <= right;
    if (operator === '>') return left > right;
    if (operator === '>=') return left >= right;
  }
  throw NOT_STATIC;
}

const isPrimitive = (value: unknown) => value === null || typeof value !== 'object';

/** A branch's JSX with the indentation its lines share taken off (after the first), so it parses as Markdown. */
export function dedent(source: string): string {
  const lines = source.split('\n');
  const indents = lines
    .slice(1)
    .filter((line) => line.trim())
    .map((line) => /^[ \t]*/.exec(line)?.[0].length ?? 0);
  const common = indents.length > 0 ? Math.min(...indents) : 0;
  return [
    lines[0],
    ...lines.slice(1).map((line) => line.slice(Math.min(common, /^[ \t]*/.exec(line)?.[0].length ?? 0))),
  ].join('\n');
}
