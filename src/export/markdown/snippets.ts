import type { Nodes, Parents, Root, RootContent } from 'mdast';
import type { MdxJsxFlowElement, MdxJsxTextElement } from 'mdast-util-mdx-jsx';
import type { MdxjsEsm } from 'mdast-util-mdxjs-esm';
import { DEFAULT_BUDGETS, type ExportBudgets, formatBytes, overBudget } from '../budgets.ts';
import { ExportError } from '../errors.ts';
import type { PropValue } from '../render-context.ts';
import { splitFrontmatter } from '../source/frontmatter.ts';
import { readPageSource } from '../source/page-source.ts';
import type { DocsRepository } from '../source/repository.ts';
import { snippetPath } from '../source/snippet-paths.ts';
import { chooseBranch, dedent, type Scope } from './conditionals.ts';
import { jsxProps } from './literal-props.ts';
import { parseBody } from './parse.ts';
import {
  CHILDREN_PLACEHOLDER,
  jsonLiteral,
  parseEsm,
  type SnippetExport,
  snippetExports,
  substituteProps,
} from './snippet-exports.ts';
import { nests, treeSize } from './tree-size.ts';
import { replaceVariables } from './variables.ts';

interface ImportDeclaration {
  type: 'ImportDeclaration';
  source: { value: string };
  specifiers: Array<{ type: string; local: { name: string } }>;
}

/** Where snippets are being inlined: the page, the chain of snippets, and what the page holds so far. */
interface Inlining {
  page: string;
  /** The page, then each snippet inlined into the one before. */
  stack: string[];
  nodes: number;
  textBytes: number;
  /** Branches of conditionals put into the page so far (see MAX_BRANCHES). */
  branches: number;
  warn: (message: string) => void;
}

/** Conditional branches a page may expand, as the platform limits `<MDX>` fragments in expressions. */
const MAX_BRANCHES = 500;

/** A component's props as names in scope: given, else the default its parameters declare. */
interface ComponentScope {
  props: Record<string, unknown>;
  component: Extract<SnippetExport, { kind: 'component' }>;
}

/**
 * Inlines snippets: `import Name from "/snippets/x.mdx"` followed by `<Name />` puts the parsed
 * content of x.mdx in place of the element (recursively, with a cycle check), as does the legacy
 * `<Snippet file="x.mdx" />`. Named imports of JavaScript values cannot be used without running
 * JavaScript: they are reported and left out.
 *
 * Every use is a copy, so a snippet using another one ten times, itself used ten times, … grows
 * the page tenfold per level: the page's nodes, text and depth are counted as snippets are
 * inlined, and a budget exceeded stops before the copy is made.
 */
export class SnippetResolver {
  private readonly repo: DocsRepository;
  private readonly budgets: ExportBudgets;
  private readonly variables: Readonly<Record<string, string>>;
  private readonly cache = new Map<string, Root>();

  constructor(
    repo: DocsRepository,
    budgets: ExportBudgets = DEFAULT_BUDGETS,
    variables: Readonly<Record<string, string>> = {},
  ) {
    this.repo = repo;
    this.budgets = budgets;
    this.variables = variables;
  }

  /** Inlines the snippets a page uses into its tree. */
  expand(tree: Root, file: string, warn: (message: string) => void): Root {
    const { nodes, textBytes } = treeSize(tree);
    return this.expandInto(tree, file, 0, { page: file, stack: [file], nodes, textBytes, branches: 0, warn });
  }

  /** Inlines the snippets `tree` (part of `file`) uses; `depth` is the nesting the tree sits in on the page. */
  private expandInto(
    tree: Root,
    file: string,
    depth: number,
    inlining: Inlining,
    component?: ComponentScope,
  ): Root {
    const { warn } = inlining;
    const imports = new Map<string, string>();
    // Values and components the tree can use: its own exports, and those it imports by name.
    const exported = new Map<string, SnippetExport & { file: string }>();
    for (const [name, found] of treeExports(tree, file, warn)) exported.set(name, found);
    for (const node of tree.children) {
      if (node.type !== 'mdxjsEsm') continue;
      const statements = esmStatements(node as MdxjsEsm, warn);
      for (const statement of statements) {
        if (statement.type !== 'ImportDeclaration') continue;
        const source = statement.source.value;
        for (const specifier of statement.specifiers) {
          if (specifier.type === 'ImportDefaultSpecifier' && /\.mdx?$/.test(source))
            imports.set(specifier.local.name, source);
          else if (specifier.type === 'ImportSpecifier' && /\.(?:mdx?|jsx?)$/.test(source)) {
            const name =
              (specifier as { imported?: { name?: string } }).imported?.name ?? specifier.local.name;
            const found = this.exportsOf(source, file, warn).get(name);
            if (found) exported.set(specifier.local.name, found);
            else
              warn(
                `import of ${name} from ${source}: not a value or a component the export can read without running code (export const ${name} = "…" or = ({ … }) => <…>); left out`,
              );
          } else
            warn(
              `import of ${specifier.local.name} from ${source}: only default imports of .mdx/.md snippets and named exports of values and components are used`,
            );
        }
      }
    }
    // `depth` is that of the parent of `children` (the page's tree is parsed within the budget,
    // so this recursion is bounded).
    const replace = (children: RootContent[], depth: number): RootContent[] =>
      children.flatMap((child): RootContent[] => {
        // A component used alone on its line of text (`<Feature>text</Feature>`) stands for a block.
        const lone = child.type === 'paragraph' ? loneJsx(child.children) : undefined;
        const loneComponent = lone?.name ? exported.get(lone.name) : undefined;
        if (lone && loneComponent?.kind === 'component')
          return this.expandComponent(
            { ...lone, type: 'mdxJsxFlowElement' } as MdxJsxFlowElement,
            loneComponent,
            depth,
            inlining,
          );
        if (child.type === 'mdxJsxFlowElement' || child.type === 'mdxJsxTextElement') {
          const source =
            child.name && imports.has(child.name)
              ? imports.get(child.name)
              : child.name === 'Snippet'
                ? snippetFileAttribute(child.attributes)
                : undefined;
          if (source !== undefined)
            return this.inline(source, file, child.type === 'mdxJsxTextElement', depth, inlining);
          const component = child.name ? exported.get(child.name) : undefined;
          if (component?.kind === 'component') return this.expandComponent(child, component, depth, inlining);
          substituteValueAttributes(child, exported);
        }
        if (child.type === 'mdxFlowExpression' || child.type === 'mdxTextExpression') {
          const chosen = this.conditional(child, scopeOf(exported, component), file, inlining);
          if (chosen) return replace(chosen, depth);
          const value = exported.get(child.value.trim());
          if (value?.kind === 'value' && value.value !== null && typeof value.value !== 'object')
            return [{ type: 'text', value: String(value.value) }];
        }
        const inner = childrenOf(child);
        if (inner)
          (child as { children: RootContent[] }).children = replace(
            inner,
            nests(child.type) ? depth + 1 : depth,
          );
        return [child];
      });
    tree.children = replace(tree.children, depth);
    return tree;
  }

  /** The values and components a snippet file exports (.mdx: its import/export blocks; .js/.jsx: the whole file). */
  private exportsOf(
    source: string,
    from: string,
    warn: (message: string) => void,
  ): Map<string, SnippetExport & { file: string }> {
    const path = snippetPath(this.repo, source, from);
    const found = new Map<string, SnippetExport & { file: string }>();
    if (!this.repo.exists(path)) {
      warn(`snippet ${source} does not exist; left out`);
      return found;
    }
    if (/\.mdx?$/.test(path)) return treeExports(this.parsed(path, from), path, warn);
    const text = readPageSource(this.repo, path, this.budgets.pageSourceBytes, { file: from });
    try {
      for (const [name, value] of snippetExports(text, parseEsm(text), 1))
        found.set(name, { ...value, file: path });
    } catch (error) {
      warn(`snippet ${source}: ${(error as Error).message}; its exports are left out`);
    }
    return found;
  }

  /**
   * A use of a snippet's component (`<Name a="x">children</Name>`): its JSX with the literal props
   * put in, parsed like a snippet and inlined, the use's children where `{children}` was.
   */
  private expandComponent(
    use: MdxJsxFlowElement | MdxJsxTextElement,
    component: Extract<SnippetExport, { kind: 'component' }> & { file: string },
    depth: number,
    inlining: Inlining,
  ): RootContent[] {
    const warn = (message: string) => inlining.warn(`line ${use.position?.start.line ?? '?'}: ${message}`);
    const props = jsxProps(use.attributes, warn, use.name ?? 'component');
    const { stack } = inlining;
    const key = `${component.file}#${use.name}`;
    if (stack.includes(key))
      throw ExportError.at({ file: inlining.page }, `snippet cycle: ${[...stack, key].join(' → ')}`);
    let tree: Root;
    try {
      // Blank lines first, so the parser's lines are the snippet file's.
      tree = parseBody(
        `${'\n'.repeat(Math.max(0, component.line - 1))}${substituteProps(component, props)}`,
        component.file,
        this.budgets,
      );
    } catch (error) {
      warn(
        `<${use.name}> from ${component.file} could not be expanded: ${(error as Error).message.split('\n')[0]}`,
      );
      return [];
    }
    this.spend(inlining, key, tree, depth);
    stack.push(key);
    const expanded = this.expandInto(tree, component.file, depth, inlining, { props, component });
    stack.pop();
    const withChildren = (nodes: RootContent[]): RootContent[] =>
      nodes.flatMap((node): RootContent[] => {
        if (
          (node.type === 'mdxJsxFlowElement' || node.type === 'mdxJsxTextElement') &&
          node.name === CHILDREN_PLACEHOLDER
        )
          return use.children as RootContent[];
        const inner = childrenOf(node);
        if (inner) (node as { children: RootContent[] }).children = withChildren(inner);
        return [node];
      });
    const content = withChildren(expanded.children.filter((n) => n.type !== 'mdxjsEsm'));
    if (use.type === 'mdxJsxTextElement' && content.length === 1 && content[0]?.type === 'paragraph')
      return content[0].children as RootContent[];
    return content.map(loneElementAsBlock);
  }

  /**
   * `{condition ? <A/> : <B/>}` and the like, when the condition can be worked out without running
   * code (conditionals.ts): the content of the branch it picks, parsed as MDX; undefined otherwise.
   */
  private conditional(
    expression: {
      type: 'mdxFlowExpression' | 'mdxTextExpression';
      value: string;
      position?: Root['position'];
    },
    scope: Scope,
    file: string,
    inlining: Inlining,
  ): RootContent[] | undefined {
    const branch = chooseBranch(expression.value, scope);
    if (!branch) return undefined;
    if (branch.kind === 'nothing') return [];
    if (branch.kind === 'text') return [{ type: 'text', value: branch.value }];
    const line = expression.position?.start.line ?? 1;
    const warn = (message: string) => inlining.warn(`line ${line}: ${message}`);
    if (++inlining.branches > MAX_BRANCHES) {
      warn(`more than ${MAX_BRANCHES} conditional branches on one page: this one is left out`);
      return [];
    }
    let tree: Root;
    try {
      tree = parseBody(`${'\n'.repeat(Math.max(0, line - 1))}${dedent(branch.source)}`, file, this.budgets);
    } catch (error) {
      warn(`conditional content could not be parsed: ${(error as Error).message.split('\n')[0]}`);
      return undefined;
    }
    this.spend(inlining, `${file}:${line}`, tree, 0);
    const content = tree.children;
    if (expression.type === 'mdxTextExpression' && content.length === 1 && content[0]?.type === 'paragraph')
      return content[0].children as RootContent[];
    return content.map(loneElementAsBlock);
  }

  private inline(
    source: string,
    from: string,
    inline: boolean,
    depth: number,
    inlining: Inlining,
  ): RootContent[] {
    const path = snippetPath(this.repo, source, from);
    const { stack } = inlining;
    if (stack.includes(path))
      throw ExportError.at({ file: from }, `snippet cycle: ${[...stack, path].join(' → ')}`);
    if (!this.repo.exists(path)) {
      inlining.warn(`snippet ${source} does not exist; left out`);
      return [];
    }
    const parsed = this.parsed(path, from);
    this.spend(inlining, path, parsed, depth);
    // Each use gets its own copy: the page tree is rewritten in place later.
    stack.push(path);
    const copy = this.expandInto(structuredClone(parsed), path, depth, inlining);
    stack.pop();
    const content = copy.children.filter((n) => n.type !== 'mdxjsEsm');
    if (inline && content.length === 1 && content[0]?.type === 'paragraph')
      return content[0].children as RootContent[];
    return content;
  }

  private parsed(path: string, from: string): Root {
    let parsed = this.cache.get(path);
    if (!parsed) {
      const text = readPageSource(this.repo, path, this.budgets.pageSourceBytes, { file: from });
      parsed = parseBody(
        replaceVariables(splitFrontmatter(text, path).body, this.variables),
        path,
        this.budgets,
      );
      this.cache.set(path, parsed);
    }
    return parsed;
  }

  /** Counts one more use of a snippet against the page's budgets, before it is copied. */
  private spend(inlining: Inlining, path: string, parsed: Root, depth: number): void {
    const { budgets } = this;
    const { page, stack } = inlining;
    const size = treeSize(parsed);
    if (stack.length > budgets.snippetDepth)
      throw overBudget(
        { file: page },
        `snippets inlined ${stack.length} deep exceed the limit of ${budgets.snippetDepth}: ${[...stack.slice(1), path].join(' → ')}`,
        'snippetDepth',
      );
    if (depth + size.depth > budgets.nestingDepth)
      throw overBudget(
        { file: page },
        `${path} inlined where the page is nested ${depth} deep nests it ${depth + size.depth} deep, past the limit of ${budgets.nestingDepth}`,
        'nestingDepth',
      );
    inlining.nodes += size.nodes;
    if (inlining.nodes > budgets.inlinedNodes)
      throw overBudget(
        { file: page },
        `inlining ${path} brings the page past ${budgets.inlinedNodes} nodes, the limit of a page with its snippets`,
        'inlinedNodes',
      );
    inlining.textBytes += size.textBytes;
    if (inlining.textBytes > budgets.pageHtmlBytes)
      throw overBudget(
        { file: page },
        `inlining ${path} brings the page's text past ${formatBytes(budgets.pageHtmlBytes)}, the limit of a page's HTML`,
        'pageHtmlBytes',
      );
  }
}

/** The names a conditional may read: a component's props (and `props.name`), then exported values. */
function scopeOf(exported: ReadonlyMap<string, SnippetExport>, component: ComponentScope | undefined): Scope {
  const { names, object } = component?.component.params ?? {
    names: new Map<string, PropValue | undefined>(),
  };
  const prop = (name: string) => (component?.props[name] as PropValue | undefined) ?? names.get(name);
  return {
    values: (name) => {
      if (names.has(name)) return { value: prop(name) };
      const found = exported.get(name);
      return found?.kind === 'value' ? { value: found.value } : undefined;
    },
    ...(object ? { props: { object, value: prop } } : {}),
  };
}

/** Children of a parent node, for tree rewrites. */
function childrenOf(node: Nodes): RootContent[] | undefined {
  return 'children' in node ? ((node as Parents).children as RootContent[]) : undefined;
}

/** The statements of an import/export block: as the parser gave them, or parsed here with acorn. */
const statementsOf = new WeakMap<MdxjsEsm, ImportDeclaration[]>();

function esmStatements(node: MdxjsEsm, warn: (message: string) => void): ImportDeclaration[] {
  const known = statementsOf.get(node);
  if (known) return known;
  try {
    // Parsed here even when the parser attached a tree: export values need offsets into the text.
    const statements = parseEsm(node.value) as unknown as ImportDeclaration[];
    statementsOf.set(node, statements);
    return statements;
  } catch (error) {
    warn(
      `line ${node.position?.start.line ?? '?'}: ${(error as Error).message} in ${JSON.stringify(node.value.slice(0, 80))}`,
    );
    return [];
  }
}

function snippetFileAttribute(
  attributes: Array<{ type: string; name?: string; value?: unknown }>,
): string | undefined {
  const file = attributes.find((a) => a.type === 'mdxJsxAttribute' && a.name === 'file');
  return typeof file?.value === 'string' ? file.value : undefined;
}

/** `title={name}` where `name` is an exported value: the attribute gets the value itself. */
function substituteValueAttributes(
  element: MdxJsxFlowElement | MdxJsxTextElement,
  exported: ReadonlyMap<string, SnippetExport>,
): void {
  if (exported.size === 0) return;
  for (const attribute of element.attributes) {
    if (attribute.type !== 'mdxJsxAttribute' || typeof attribute.value !== 'object' || !attribute.value)
      continue;
    const found = exported.get(attribute.value.value.trim());
    if (found?.kind !== 'value') continue;
    const value = found.value;
    if (typeof value === 'string') attribute.value = value;
    else attribute.value = { type: 'mdxJsxAttributeValueExpression', value: jsonLiteral(value) };
  }
}

/** The one JSX element a paragraph holds besides blank text, if that is all it holds. */
function loneJsx(children: readonly RootContent[]): MdxJsxTextElement | undefined {
  const content = children.filter((node) => !(node.type === 'text' && !node.value.trim()));
  const [only] = content;
  return content.length === 1 && only?.type === 'mdxJsxTextElement' ? only : undefined;
}

/** A paragraph that is one JSX element written on one line (`<p>Hello</p>`): the element, as a block. */
function loneElementAsBlock(node: RootContent): RootContent {
  if (node.type !== 'paragraph') return node;
  const lone = loneJsx(node.children);
  return lone ? ({ ...lone, type: 'mdxJsxFlowElement' } as MdxJsxFlowElement) : node;
}

/** The values and components the import/export blocks of a parsed page or snippet export. */
function treeExports(
  tree: Root,
  file: string,
  warn: (message: string) => void,
): Map<string, SnippetExport & { file: string }> {
  const found = new Map<string, SnippetExport & { file: string }>();
  for (const node of tree.children) {
    if (node.type !== 'mdxjsEsm') continue;
    const statements = esmStatements(node as MdxjsEsm, warn);
    for (const [name, value] of snippetExports(
      node.value,
      statements as never,
      node.position?.start.line ?? 1,
    ))
      found.set(name, { ...value, file });
  }
  return found;
}
