import { parse } from 'acorn';
import type { Nodes, Parents, Root, RootContent } from 'mdast';
import type { MdxjsEsm } from 'mdast-util-mdxjs-esm';
import { ExportError } from '../errors.ts';
import { splitFrontmatter } from '../source/frontmatter.ts';
import type { DocsRepository } from '../source/repository.ts';
import { parseBody } from './parse.ts';

interface ImportDeclaration {
  type: 'ImportDeclaration';
  source: { value: string };
  specifiers: Array<{ type: string; local: { name: string } }>;
}

/**
 * Inlines snippets: `import Name from "/snippets/x.mdx"` followed by `<Name />` puts the parsed
 * content of x.mdx in place of the element (recursively, with a cycle check), as does the legacy
 * `<Snippet file="x.mdx" />`. Named imports of JavaScript values cannot be used without running
 * JavaScript: they are reported and left out.
 */
export class SnippetResolver {
  private readonly repo: DocsRepository;
  private readonly cache = new Map<string, Root>();

  constructor(repo: DocsRepository) {
    this.repo = repo;
  }

  expand(tree: Root, file: string, warn: (message: string) => void, stack: string[] = [file]): Root {
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
    const replace = (children: RootContent[]): RootContent[] =>
      children.flatMap((child): RootContent[] => {
        if (child.type === 'mdxJsxFlowElement' || child.type === 'mdxJsxTextElement') {
          const source =
            child.name && imports.has(child.name)
              ? imports.get(child.name)
              : child.name === 'Snippet'
                ? snippetFileAttribute(child.attributes)
                : undefined;
          if (source !== undefined)
            return this.inline(source, file, child.type === 'mdxJsxTextElement', warn, stack);
        }
        const inner = childrenOf(child);
        if (inner) (child as { children: RootContent[] }).children = replace(inner);
        return [child];
      });
    tree.children = replace(tree.children);
    return tree;
  }

  private inline(
    source: string,
    from: string,
    inline: boolean,
    warn: (message: string) => void,
    stack: string[],
  ): RootContent[] {
    const path = this.repo.normalize(
      source.startsWith('/') || source.startsWith('.') ? source : `/snippets/${source}`,
      { file: from },
    );
    if (stack.includes(path))
      throw ExportError.at({ file: from }, `snippet cycle: ${[...stack, path].join(' → ')}`);
    if (!this.repo.exists(path)) {
      warn(`snippet ${source} does not exist; left out`);
      return [];
    }
    let parsed = this.cache.get(path);
    if (!parsed) {
      parsed = parseBody(splitFrontmatter(this.repo.readText(path, { file: from }), path).body, path);
      this.cache.set(path, parsed);
    }
    // Each use gets its own copy: the page tree is rewritten in place later.
    const copy = this.expand(structuredClone(parsed), path, warn, [...stack, path]);
    const content = copy.children.filter((n) => n.type !== 'mdxjsEsm');
    if (inline && content.length === 1 && content[0]?.type === 'paragraph')
      return content[0].children as RootContent[];
    return content;
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
