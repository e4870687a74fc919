import { parseExpressionAt } from 'acorn';
import type { ElementContent } from 'hast';
import type { MdxJsxAttribute, MdxJsxExpressionAttribute } from 'mdast-util-mdx-jsx';
import { textContent } from '../components/shared.ts';
import type { ComponentProps, PropValue } from '../render-context.ts';

/** Thrown for an expression that is not a plain literal: it would need JavaScript to run. */
const NOT_LITERAL = Symbol('not a literal');

interface EstreeNode {
  type: string;
  [key: string]: unknown;
}

/**
 * Evaluates an expression's syntax tree only when it is a literal: strings, numbers, booleans,
 * null, template strings without substitutions, and arrays/objects of those. Anything else
 * (identifiers, calls, JSX) is never executed.
 */
function literal(node: EstreeNode): PropValue {
  switch (node.type) {
    case 'Literal': {
      const value = node.value;
      if (
        value === null ||
        typeof value === 'string' ||
        typeof value === 'number' ||
        typeof value === 'boolean'
      )
        return value;
      throw NOT_LITERAL;
    }
    case 'TemplateLiteral': {
      const quasis = node.quasis as Array<{ value: { cooked: string } }>;
      if ((node.expressions as unknown[]).length > 0) throw NOT_LITERAL;
      return quasis.map((q) => q.value.cooked).join('');
    }
    case 'UnaryExpression': {
      const value = literal(node.argument as EstreeNode);
      if (node.operator === '-' && typeof value === 'number') return -value;
      if (node.operator === '+' && typeof value === 'number') return value;
      if (node.operator === '!' && typeof value === 'boolean') return !value;
      throw NOT_LITERAL;
    }
    case 'ArrayExpression':
      return (node.elements as Array<EstreeNode | null>).map((e) => (e ? literal(e) : null));
    case 'ObjectExpression': {
      const result: Record<string, PropValue> = {};
      for (const property of node.properties as EstreeNode[]) {
        if (property.type !== 'Property' || property.computed) throw NOT_LITERAL;
        const key = property.key as EstreeNode;
        const name =
          key.type === 'Identifier'
            ? (key.name as string)
            : key.type === 'Literal'
              ? String(key.value)
              : undefined;
        if (name === undefined) throw NOT_LITERAL;
        result[name] = literal(property.value as EstreeNode);
      }
      return result;
    }
    case 'Identifier':
      if (node.name === 'undefined') return null;
      throw NOT_LITERAL;
    default:
      throw NOT_LITERAL;
  }
}

/**
 * The syntax tree of an `{expression}`: the one the parser attached (micromark with acorn), or
 * acorn's parse of its text (the native parser leaves that to us, and most pages have few).
 */
export function expressionTree(node: { value: string; data?: { estree?: unknown } | null }): unknown {
  if (node.data?.estree) return node.data.estree;
  const text = node.value;
  const withoutComments = text.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, '').trim();
  if (!withoutComments) return { type: 'Program', body: [] };
  try {
    const expression = parseExpressionAt(text, 0, { ecmaVersion: 'latest' });
    const rest = text
      .slice(expression.end)
      .replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, '')
      .trim();
    if (rest) return undefined;
    return { type: 'Program', body: [{ type: 'ExpressionStatement', expression }] };
  } catch {
    return undefined;
  }
}

/** The value of an `{expression}` as acorn parsed it, when it is a literal; `undefined` otherwise. */
export function literalExpression(estree: unknown): PropValue | undefined {
  const program = estree as { body?: Array<{ type: string; expression?: EstreeNode }> } | undefined;
  const statement = program?.body?.[0];
  if (!statement) return undefined; // an empty expression or a comment: `{/* … */}`
  if (statement.type !== 'ExpressionStatement' || !statement.expression) return undefined;
  try {
    return literal(statement.expression);
  } catch (error) {
    if (error === NOT_LITERAL) return undefined;
    throw error;
  }
}

/**
 * JSX attributes → props. A bare attribute (`required`) is true; `{…}` values are used when they
 * are literals and reported through `warn` otherwise (the prop is then left out).
 */
export function jsxProps(
  attributes: Array<MdxJsxAttribute | MdxJsxExpressionAttribute>,
  warn: (message: string) => void,
  element: string,
  markup?: { render(jsx: string): ElementContent[] | undefined; into: Record<string, ElementContent[]> },
): ComponentProps {
  const props: ComponentProps = {};
  for (const attribute of attributes) {
    if (attribute.type === 'mdxJsxExpressionAttribute') {
      warn(`<${element}>: spread attribute ${attribute.value} is JavaScript and was ignored`);
      continue;
    }
    const value = attribute.value;
    if (value === null || value === undefined) props[attribute.name] = true;
    else if (typeof value === 'string') props[attribute.name] = value;
    else if (markup && /^\s*</.test(value.value)) {
      // JSX as a prop's value: static markup, never code (see markupProps).
      const nodes = markup.render(value.value.trim());
      if (nodes === undefined)
        warn(`<${element} ${attribute.name}={…}>: JSX that cannot be read as static markup was ignored`);
      else {
        markup.into[attribute.name] = nodes;
        props[attribute.name] = nodes.map(textContent).join('').trim();
      }
    } else {
      const parsed = literalExpression(expressionTree(value));
      if (parsed === undefined)
        warn(
          `<${element} ${attribute.name}={${value.value}}>: not a literal value; JavaScript is not executed, so the prop was ignored`,
        );
      else props[attribute.name] = parsed;
    }
  }
  return props;
}
