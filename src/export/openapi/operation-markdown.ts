import { OperationBudget, operationText } from './budget.ts';
import { LOCATION_TITLES, sameAsStatus, securitySummary, statusText } from './describe.ts';
import { type CodeSample, responseSamples } from './examples.ts';
import {
  type FieldView,
  literal,
  plainStringView,
  type SchemaView,
  slug,
  type ViewState,
  viewSchema,
} from './fields.ts';
import { stripRawHtml } from './markdown.ts';
import { DEFAULT_SAMPLE_OPTIONS, requestSamples, type SampleOptions } from './samples.ts';
import type { ApiMediaType, ApiOperation, ApiParameter } from './types.ts';

/**
 * The same content as renderOperation, as Markdown for the page's .md copy and llms-full.txt:
 * headings start at level 2 (the page title is the level-1 heading), fields are nested lists.
 */

function code(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

function fenced(sample: CodeSample): string {
  const longest = Math.max(2, ...(sample.code.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${sample.lang} ${sample.title}\n${sample.code}\n${fence}`;
}

function indent(text: string, spaces: number): string {
  const pad = ' '.repeat(spaces);
  return text
    .split('\n')
    .map((line) => (line.trim() === '' ? '' : pad + line))
    .join('\n');
}

/** Lines describing one schema below its head line: description, default, values, nested fields. */
function details(view: SchemaView, level: number, budget: OperationBudget, describe = true): string[] {
  const lines: string[] = [];
  const pad = ' '.repeat(level * 2);
  if (describe && view.description?.trim())
    lines.push(indent(stripRawHtml(view.description, budget), level * 2));
  const facts: string[] = [];
  if (view.hasDefault) facts.push(`Default: ${code(literal(view.default))}`);
  if (view.enum && view.enum.length > 0) {
    facts.push(
      `${view.enum.length === 1 ? 'Value' : 'Allowed values'}: ${view.enum.map((v) => code(literal(v))).join(', ')}`,
    );
  }
  if (view.constraints.length > 0) facts.push(`Constraints: ${view.constraints.map(code).join(', ')}`);
  if (facts.length > 0) lines.push(`${pad}${facts.join('. ')}.`);
  for (const field of view.fields) lines.push(...fieldLines(field, level, budget));
  if (view.variants.length > 0) {
    lines.push(`${pad}${view.variantKind === 'anyOf' ? 'Any of' : 'One of'}:`);
    for (const variant of view.variants) {
      const type = variant.type !== variant.label ? ` (${variant.type})` : '';
      lines.push(`${pad}- **${variant.label}**${type}`);
      lines.push(...details(variant, level + 1, budget));
    }
  }
  if (view.note) lines.push(`${pad}*${view.note.text}*`);
  return lines;
}

function fieldLines(field: FieldView, level: number, budget: OperationBudget): string[] {
  const pad = ' '.repeat(level * 2);
  const tags = [field.type];
  if (field.required) tags.push('required');
  if (field.deprecated) tags.push('deprecated');
  if (field.readOnly) tags.push('read-only');
  if (field.writeOnly) tags.push('write-only');
  // The description's first paragraph continues the item's line; later ones are indented under it.
  const [first = '', ...rest] = stripRawHtml(field.description ?? '', budget).split(/\n\s*\n/);
  const head = `${pad}- ${code(field.name)} (${tags.join(', ')})${first ? `: ${first.replace(/\n/g, ' ')}` : ''}`;
  const more = rest.flatMap((paragraph) => ['', indent(paragraph, (level + 1) * 2)]);
  return [head, ...more, ...details(field, level + 1, budget, false)];
}

function newState(budget: OperationBudget): ViewState {
  return { mode: 'request', fields: 0, ids: new Set(), budget };
}

function parameterView(parameter: ApiParameter, state: ViewState): FieldView {
  const view: SchemaView = parameter.schema
    ? viewSchema(parameter.schema, state, `p-${slug(parameter.name)}`)
    : plainStringView();
  return {
    ...view,
    ...(parameter.description !== undefined ? { description: parameter.description } : {}),
    deprecated: parameter.deprecated || view.deprecated,
    name: parameter.name,
    id: '',
    required: parameter.required,
  };
}

function media(media: ApiMediaType, state: ViewState): string[] {
  const lines = [`Content type: ${code(media.contentType)}`, ''];
  if (!media.schema) return lines;
  state.fields = 0;
  state.truncated = false;
  const view = viewSchema(media.schema, state, 'm');
  lines.push(`Schema: ${code(view.type)}`, '');
  const body = details(view, 0, state.budget);
  if (body.length > 0) lines.push(...body, '');
  return lines;
}

/** The operation as Markdown; `budget` bounds it as it does renderOperation. */
export function operationMarkdown(
  op: ApiOperation,
  budget = OperationBudget.standalone(op),
  samples: SampleOptions = DEFAULT_SAMPLE_OPTIONS,
): string {
  budget.text(operationText(op));
  const out: string[] = [];
  const server = op.servers[0]?.url.replace(/\/+$/, '') ?? '';
  out.push(`**${op.method}** ${code(`${server}${op.path}`)}`, '');
  if (op.deprecated) out.push('**Deprecated:** this endpoint is deprecated.', '');
  if (op.description?.trim()) out.push(stripRawHtml(op.description, budget), '');

  if (op.security.length > 0) {
    out.push('## Authorization', '');
    if (op.security.some((r) => r.length === 0)) out.push('Authentication is optional.', '');
    const alternatives = op.security.filter((r) => r.length > 0);
    if (alternatives.length > 1) out.push('Any one of:', '');
    for (const requirement of alternatives) {
      for (const scheme of requirement) {
        const summary = securitySummary(scheme);
        const scopes = scheme.scopes.length > 0 ? ` Scopes: ${scheme.scopes.map(code).join(', ')}.` : '';
        out.push(`- ${summary.text}${summary.code ? `: ${code(summary.code)}` : ''}.${scopes}`);
        if (scheme.description?.trim()) out.push(indent(stripRawHtml(scheme.description, budget), 2));
      }
      out.push('');
    }
  }

  const state = newState(budget);
  if (op.parameters.length > 0) {
    out.push('## Parameters', '');
    for (const location of ['path', 'query', 'header', 'cookie'] as const) {
      const parameters = op.parameters.filter((p) => p.in === location);
      if (parameters.length === 0) continue;
      out.push(`### ${LOCATION_TITLES[location]}`, '');
      for (const parameter of parameters) out.push(...fieldLines(parameterView(parameter, state), 0, budget));
      out.push('');
    }
  }

  if (op.requestBody) {
    out.push('## Request body', '');
    if (op.requestBody.required) out.push('Required.', '');
    if (op.requestBody.description?.trim()) out.push(stripRawHtml(op.requestBody.description, budget), '');
    for (const m of op.requestBody.content) out.push(...media(m, state));
  }

  if (op.responses.length > 0) {
    state.mode = 'response';
    out.push('## Responses', '');
    for (const response of op.responses) {
      const text = statusText(response.status);
      out.push(`### ${response.status}${text ? ` ${text}` : ''}`, '');
      if (response.description?.trim() && !sameAsStatus(response.description, text)) {
        out.push(stripRawHtml(response.description, budget), '');
      }
      for (const m of response.content) out.push(...media(m, state));
      if (response.headers.length > 0) {
        out.push('Response headers:', '');
        for (const header of response.headers) {
          const tags = [header.schema ? viewSchema(header.schema, state, 'h').type : 'string'];
          if (header.required) tags.push('required');
          out.push(
            `- ${code(header.name)} (${tags.join(', ')})${header.description ? `: ${stripRawHtml(header.description, budget)}` : ''}`,
          );
        }
        out.push('');
      }
    }
  }

  out.push('## Examples', '', '### Request', '');
  for (const sample of requestSamples(op, samples, budget)) out.push(fenced(sample), '');
  const responses = responseSamples(op, budget);
  if (responses.length > 0) {
    out.push('### Response', '');
    for (const sample of responses) out.push(fenced(sample), '');
  }
  return `${out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}
