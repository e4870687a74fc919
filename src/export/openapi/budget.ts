import type { Root } from 'mdast';
import { DEFAULT_BUDGETS, type ExportBudgets, formatBytes, overBudget } from '../budgets.ts';
import { measureNesting } from '../markdown/nesting.ts';
import { treeSize } from '../markdown/tree-size.ts';
import type { ApiOperation } from './types.ts';

type OperationBudgets = Pick<ExportBudgets, 'operationNodes' | 'pageHtmlBytes' | 'nestingDepth'>;

/**
 * What the API reference of one operation may render, counted as it is built: schema views
 * (fields, variants), example values, and the text they carry. A shared schema is expanded again
 * wherever it is used (every response, every field), so a small document can ask for an enormous
 * page: a 51 KB file whose responses all `$ref` one nested schema made a 184 MB page. Per-schema
 * limits (fields.ts) already shorten large schemas readably; this budget is far beyond them and is
 * only reached by a document that multiplies them, so it stops the export with an error naming
 * the file and the operation rather than publishing a page silently missing parts.
 */
export class OperationBudget {
  readonly file: string;
  readonly operation: string;
  private readonly budgets: OperationBudgets;
  private nodes = 0;
  private textBytes = 0;

  constructor(file: string, operation: Pick<ApiOperation, 'method' | 'path'>, budgets: OperationBudgets) {
    this.file = file;
    this.operation = `${operation.method} ${operation.path}`;
    this.budgets = budgets;
  }

  /** The budget of an operation rendered outside an export (tests, previews): the default limits. */
  static standalone(operation: Pick<ApiOperation, 'method' | 'path'>): OperationBudget {
    return new OperationBudget('OpenAPI document', operation, DEFAULT_BUDGETS);
  }

  /** One more field, variant or example value. */
  node(): void {
    const limit = this.budgets.operationNodes;
    if (++this.nodes > limit)
      throw overBudget(
        { file: this.file },
        `${this.operation}: the API reference renders more than ${limit} fields, variants and example values, the limit of one operation`,
        'operationNodes',
      );
  }

  /** Text the reference shows: descriptions, allowed and default values, examples. */
  text(length: number): void {
    const limit = this.budgets.pageHtmlBytes;
    this.textBytes += length;
    if (this.textBytes > limit)
      throw overBudget(
        { file: this.file },
        `${this.operation}: the API reference's text passes ${formatBytes(limit)}, the limit of a page's HTML`,
        'pageHtmlBytes',
      );
  }

  /** A Markdown description, before it is parsed (see markdown/nesting.ts). */
  checkDescription(markdown: string): void {
    const limit = this.budgets.nestingDepth;
    const { depth } = measureNesting(markdown, 'md', limit);
    if (depth > limit) throw this.tooDeep(depth);
  }

  /** A parsed description: emphasis and links nest too. */
  checkDescriptionTree(tree: Root): void {
    const { depth } = treeSize(tree);
    if (depth > this.budgets.nestingDepth) throw this.tooDeep(depth);
  }

  private tooDeep(depth: number) {
    return overBudget(
      { file: this.file },
      `${this.operation}: a description nested ${depth} deep (lists, block quotes, elements, emphasis) exceeds the limit of ${this.budgets.nestingDepth}`,
      'nestingDepth',
    );
  }
}

const weights = new WeakMap<object, number>();

/**
 * The length of a value as the reference shows it (JSON), computed once per object: documents
 * share values through `$ref`, and a shared value must not cost its size at every use.
 */
export function textWeight(value: unknown): number {
  if (typeof value === 'string') return value.length;
  if (typeof value !== 'object' || value === null) return 8;
  let weight = weights.get(value);
  if (weight === undefined) {
    try {
      weight = JSON.stringify(value)?.length ?? 0;
    } catch {
      weight = 0; // cycles are shown as "[Circular]" (schema.ts toJson)
    }
    weights.set(value, weight);
  }
  return weight;
}

/** The Markdown an operation carries outside its schemas: its own, its body's, responses' and headers' descriptions. */
export function operationText(op: ApiOperation): number {
  const descriptions = [
    op.description,
    op.requestBody?.description,
    ...op.parameters.map((p) => p.description),
    ...op.responses.flatMap((r) => [r.description, ...r.headers.map((h) => h.description)]),
    ...op.security.flatMap((requirement) => requirement.map((s) => s.description)),
    ...op.codeSamples.map((s) => s.source),
  ];
  return descriptions.reduce((sum, text) => sum + (text?.length ?? 0), 0);
}
