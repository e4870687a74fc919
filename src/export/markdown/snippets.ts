import { parse } from 'acorn';
import type { Nodes, Parents, Root, RootContent } from 'mdast';
import type { MdxjsEsm } from 'mdast-util-mdxjs-esm';
import { DEFAULT_BUDGETS, type ExportBudgets, formatBytes, overBudget } from '../budgets.ts';
import { ExportError } from '../errors.ts';
import { splitFrontmatter } from '../source/frontmatter.ts';
import { readPageSource } from '../source/page-source.ts';
import type { DocsRepository } from '../source/repository.ts';
import { parseBody } from './parse.ts';
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
  warn: (message: string) => void;
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
    return this.expandInto(tree, file, 0, { page: file, stack: [file], nodes, textBytes, warn });
  }

  /** Inlines the snippets `tree` (part of `file`) uses; `depth` is the nesting the tree sits in on the page. */
  private expandInto(tree: Root, file: string, depth: number, inlining: Inlining): Root {
    const { warn } = inlining;
    const imports = new Map<string, string>();
    for (const node of tree.children) {
      if (node.type !== 'mdxjsEsm') continue;
      for (const statement of esmStatements(node as MdxjsEsm, warn)) {
        if (statement.type !== 'ImportDeclaration') continue;
        const source = statement.source.value;
        for (const specifier of statement.specifiers) {
          if (specifier.type === 'ImportDefaultSpecifier' && /\.mdx?$/.test(source))
            imports.set(specifier.local.name, source);
          else
            warn(
              `import of ${specifier.local.name} from ${source}: only default imports of .mdx/.md snippets are inlined`,
            );
        }
      }
    }
    // `depth` is that of the parent of `children` (the page's tree is parsed within the budget,
    // so this recursion is bounded).
    const replace = (children: RootContent[], depth: number): RootContent[] =>
      children.flatMap((child): RootContent[] => {
        if (child.type === 'mdxJsxFlowElement' || child.type === 'mdxJsxTextElement') {
          const source =
            child.name && imports.has(child.name)
              ? imports.get(child.name)
              : child.name === 'Snippet'
                ? snippetFileAttribute(child.attributes)
                : undefined;
          if (source !== undefined)
            return this.inline(source, file, child.type === 'mdxJsxTextElement', depth, inlining);
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

  private inline(
    source: string,
    from: string,
    inline: boolean,
    depth: number,
    inlining: Inlining,
  ): RootContent[] {
    const path = this.repo.normalize(
      source.startsWith('/') || source.startsWith('.') ? source : `/snippets/${source}`,
      { file: from },
    );
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

/** Children of a parent node, for tree rewrites. */
function childrenOf(node: Nodes): RootContent[] | undefined {
  return 'children' in node ? ((node as Parents).children as RootContent[]) : undefined;
}

/** The statements of an import/export block: as the parser gave them, or parsed here with acorn. */
function esmStatements(node: MdxjsEsm, warn: (message: string) => void): ImportDeclaration[] {
  if (node.data?.estree) return node.data.estree.body as unknown as ImportDeclaration[];
  try {
    return parse(node.value, { ecmaVersion: 'latest', sourceType: 'module' })
      .body as unknown as ImportDeclaration[];
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
