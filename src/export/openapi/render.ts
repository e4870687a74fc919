import type { Element, ElementContent } from 'hast';
import { h } from 'hastscript';
import { NOT_SEARCHED_CLASS, type RenderContext } from '../render-context.ts';
import { OperationBudget, operationText } from './budget.ts';
import { LOCATION_TITLES, sameAsStatus, securitySummary, statusClass, statusText } from './describe.ts';
import { type CodeSample, responseSamples } from './examples.ts';
import {
  type FieldView,
  literal,
  plainStringView,
  type SchemaView,
  slug,
  uniqueId,
  type ViewState,
  viewSchema,
} from './fields.ts';
import { renderDescription } from './markdown.ts';
import { type PlaygroundOptions, playgroundPanel } from './playground.ts';
import { DEFAULT_SAMPLE_OPTIONS, requestSamples, type SampleOptions } from './samples.ts';
import type { ApiMediaType, ApiOperation, ApiParameter, ApiSecurityScheme } from './types.ts';

/**
 * The body of an API reference page as hast: endpoint, description, then sections with h2
 * headings (the page title is the h1): Authorization, Parameters, Request body, Responses, and
 * Examples. Nested fields fold into <details>, which needs no script and works with a keyboard.
 */

type Child = ElementContent | string | undefined;

function compact(children: Child[]): ElementContent[] {
  const out: ElementContent[] = [];
  for (const child of children) {
    if (typeof child === 'string') out.push({ type: 'text', value: child });
    else if (child !== undefined) out.push(child);
  }
  return out;
}

interface RenderState extends ViewState {
  ctx: RenderContext;
  descriptions: number;
}

function description(
  markdown: string | undefined,
  state: RenderState,
  headingLevel?: number,
): ElementContent[] {
  if (!markdown?.trim()) return [];
  state.descriptions++;
  const content = renderDescription(markdown, state.ctx, {
    budget: state.budget,
    idPrefix: `ds-api-d${state.descriptions}`,
    ...(headingLevel !== undefined ? { headingLevel } : {}),
  });
  return [h('div', { className: ['ds-api-description'] }, content)];
}

function section(state: RenderState, id: string, title: string, content: ElementContent[]): Element {
  const headingId = uniqueId(state, id);
  return h('section', { className: ['ds-api-section'], ariaLabelledBy: headingId }, [
    h('h2', { id: headingId }, title),
    ...content,
  ]);
}

function subheading(state: RenderState, id: string, content: ElementContent[] | string): Element {
  return h('h3', { id: uniqueId(state, id), className: ['ds-api-subheading'] }, content);
}

function pathElements(path: string): ElementContent[] {
  return path
    .split(/(\{[^}]+\})/)
    .filter((part) => part !== '')
    .map((part) =>
      part.startsWith('{')
        ? h('span', { className: ['ds-api-path-param'] }, part)
        : { type: 'text', value: part },
    );
}

function badge(kind: string, text: string): Element {
  return h('span', { className: ['ds-api-badge', `ds-api-badge-${kind}`] }, text);
}

function metaLine(label: string, values: ElementContent[]): Element {
  return h('p', { className: ['ds-api-meta'] }, [
    h('span', { className: ['ds-api-meta-label'] }, `${label}:`),
    ' ',
    ...values,
  ]);
}

/** Values as comma-separated code: literals (JSON-quoted) or, for `plain`, text as it is. */
function codeList(values: unknown[], plain = false): ElementContent[] {
  const out: ElementContent[] = [];
  values.forEach((value, i) => {
    if (i > 0) out.push({ type: 'text', value: ', ' });
    out.push(h('code', plain ? String(value) : literal(value)));
  });
  return out;
}

/** Description, default, allowed values, constraints and nested fields of one schema. */
function schemaDetails(view: SchemaView, state: RenderState, nestedFieldsOpen: boolean): ElementContent[] {
  const out: ElementContent[] = [...description(view.description, state)];
  if (view.hasDefault) out.push(metaLine('Default', [h('code', literal(view.default))]));
  if (view.enum && view.enum.length > 0)
    out.push(metaLine(view.enum.length === 1 ? 'Value' : 'Allowed values', codeList(view.enum)));
  if (view.constraints.length > 0) out.push(metaLine('Constraints', codeList(view.constraints, true)));
  if (view.fields.length > 0) {
    const list = fieldList(view.fields, state);
    if (nestedFieldsOpen) out.push(list);
    else {
      const count = view.fields.length;
      out.push(
        h('details', { className: ['ds-api-children'] }, [
          h('summary', `Show ${count} child attribute${count === 1 ? '' : 's'}`),
          list,
        ]),
      );
    }
  }
  if (view.variants.length > 0) {
    out.push(
      h('div', { className: ['ds-api-variants'] }, [
        h(
          'p',
          { className: ['ds-api-variants-label'] },
          view.variantKind === 'anyOf' ? 'Any of:' : 'One of:',
        ),
        ...view.variants.map((variant) =>
          h('details', { className: ['ds-api-variant'] }, [
            h('summary', [
              h('span', { className: ['ds-api-variant-name'] }, variant.label),
              ...(variant.type !== variant.label
                ? [' ', h('span', { className: ['ds-api-type'] }, variant.type)]
                : []),
            ]),
            ...schemaDetails(variant, state, true),
          ]),
        ),
      ]),
    );
  }
  if (view.note)
    out.push(h('p', { className: ['ds-api-note', `ds-api-note-${view.note.kind}`] }, view.note.text));
  return out;
}

function fieldHead(name: string, view: SchemaView & { required: boolean }): Element {
  return h(
    'div',
    { className: ['ds-api-field-head'] },
    compact([
      h('code', { className: ['ds-api-field-name'] }, name),
      h('span', { className: ['ds-api-type'] }, view.type),
      view.required ? badge('required', 'required') : undefined,
      view.deprecated ? badge('deprecated', 'deprecated') : undefined,
      view.readOnly ? badge('readonly', 'read-only') : undefined,
      view.writeOnly ? badge('writeonly', 'write-only') : undefined,
    ]),
  );
}

function fieldList(fields: FieldView[], state: RenderState): Element {
  return h(
    'ul',
    { className: ['ds-api-fields'] },
    fields.map((field) =>
      h('li', { className: ['ds-api-field'], id: field.id }, [
        fieldHead(field.name, field),
        ...schemaDetails(field, state, false),
      ]),
    ),
  );
}

function parameterField(parameter: ApiParameter, state: RenderState): FieldView {
  const id = uniqueId(state, `api-param-${parameter.in}-${slug(parameter.name)}`);
  const view: SchemaView = parameter.schema ? viewSchema(parameter.schema, state, id) : plainStringView();
  return {
    ...view,
    ...(parameter.description !== undefined ? { description: parameter.description } : {}),
    deprecated: parameter.deprecated || view.deprecated,
    name: parameter.name,
    id,
    required: parameter.required,
  };
}

function securityItem(scheme: ApiSecurityScheme, state: RenderState): Element {
  const summary = securitySummary(scheme);
  return h('li', { className: ['ds-api-security-scheme'] }, [
    h(
      'p',
      compact([
        h('strong', summary.text),
        summary.code ? ': ' : undefined,
        summary.code ? h('code', summary.code) : undefined,
      ]),
    ),
    ...(scheme.scopes.length > 0 ? [metaLine('Scopes', codeList(scheme.scopes, true))] : []),
    ...description(scheme.description, state),
  ]);
}

function securitySection(op: ApiOperation, state: RenderState): Element | undefined {
  if (op.security.length === 0) return undefined;
  const optional = op.security.some((r) => r.length === 0);
  const alternatives = op.security.filter((r) => r.length > 0);
  const content: ElementContent[] = [];
  if (optional) content.push(h('p', 'Authentication is optional.'));
  if (alternatives.length > 1) content.push(h('p', 'Any one of:'));
  for (const requirement of alternatives) {
    content.push(
      h(
        'ul',
        { className: ['ds-api-security'] },
        requirement.map((s) => securityItem(s, state)),
      ),
    );
  }
  return section(state, 'api-authorization', 'Authorization', content);
}

function parametersSection(op: ApiOperation, state: RenderState): Element | undefined {
  if (op.parameters.length === 0) return undefined;
  state.mode = 'request';
  const content: ElementContent[] = [];
  for (const location of ['path', 'query', 'header', 'cookie'] as const) {
    const parameters = op.parameters.filter((p) => p.in === location);
    if (parameters.length === 0) continue;
    content.push(subheading(state, `api-${location}-parameters`, LOCATION_TITLES[location]));
    content.push(
      fieldList(
        parameters.map((p) => parameterField(p, state)),
        state,
      ),
    );
  }
  return section(state, 'api-parameters', 'Parameters', content);
}

/** The schema of one media type: its type line and, expanded, its fields or alternatives. */
function mediaContent(media: ApiMediaType, state: RenderState, idBase: string): ElementContent[] {
  const out: ElementContent[] = [];
  if (!media.schema) return out;
  // The field budget bounds each body or response schema, not the page.
  state.fields = 0;
  state.truncated = false;
  const view = viewSchema(media.schema, state, idBase);
  out.push(
    h('p', { className: ['ds-api-body-type'] }, [
      h('span', { className: ['ds-api-meta-label'] }, 'Schema:'),
      ' ',
      h('span', { className: ['ds-api-type'] }, view.type),
    ]),
  );
  out.push(...schemaDetails(view, state, true));
  return out;
}

function contentTypeLine(contentType: string): Element {
  return h('p', { className: ['ds-api-content-type'] }, [
    h('span', { className: ['ds-api-meta-label'] }, 'Content type:'),
    ' ',
    h('code', contentType),
  ]);
}

function requestBodySection(op: ApiOperation, state: RenderState): Element | undefined {
  const body = op.requestBody;
  if (!body) return undefined;
  state.mode = 'request';
  const content: ElementContent[] = [];
  if (body.required) content.push(h('p', badge('required', 'required')));
  content.push(...description(body.description, state));
  const several = body.content.length > 1;
  for (const media of body.content) {
    const idBase = several ? `api-body-${slug(media.contentType)}` : 'api-body';
    if (several)
      content.push(
        subheading(state, `api-request-body-${slug(media.contentType)}`, [h('code', media.contentType)]),
      );
    else content.push(contentTypeLine(media.contentType));
    content.push(...mediaContent(media, state, idBase));
  }
  return section(state, 'api-request-body', 'Request body', content);
}

function responsesSection(op: ApiOperation, state: RenderState): Element | undefined {
  if (op.responses.length === 0) return undefined;
  state.mode = 'response';
  const content: ElementContent[] = [];
  for (const response of op.responses) {
    const id = `api-response-${slug(response.status)}`;
    const text = statusText(response.status);
    content.push(
      subheading(
        state,
        id,
        compact([
          h(
            'span',
            { className: ['ds-api-status', `ds-api-status-${statusClass(response.status)}`] },
            response.status,
          ),
          text ? ' ' : undefined,
          text ? h('span', { className: ['ds-api-status-text'] }, text) : undefined,
        ]),
      ),
    );
    if (!sameAsStatus(response.description ?? '', text))
      content.push(...description(response.description, state));
    const several = response.content.length > 1;
    for (const media of response.content) {
      content.push(contentTypeLine(media.contentType));
      content.push(...mediaContent(media, state, several ? `${id}-${slug(media.contentType)}` : id));
    }
    if (response.headers.length > 0) {
      content.push(h('p', { className: ['ds-api-meta-label'] }, 'Response headers'));
      const fields = response.headers.map((header): FieldView => {
        const fieldId = uniqueId(state, `${id}-header-${slug(header.name)}`);
        const view: SchemaView = header.schema
          ? viewSchema(header.schema, state, fieldId)
          : plainStringView();
        return {
          ...view,
          ...(header.description !== undefined ? { description: header.description } : {}),
          name: header.name,
          id: fieldId,
          required: header.required,
        };
      });
      content.push(fieldList(fields, state));
    }
  }
  return section(state, 'api-responses', 'Responses', content);
}

/**
 * A group of samples a reader chooses between (api.js adds the chooser and shows one; without
 * script every sample shows under its title). `kind` is what the choice is remembered as.
 */
function sampleGroup(
  state: RenderState,
  kind: 'request' | 'response',
  title: string,
  samples: Array<CodeSample & { key: string }>,
): Element {
  // Not searched: the same request in every language would match most searches on every API page.
  return h('div', { className: ['ds-api-samples', NOT_SEARCHED_CLASS], dataSamples: kind }, [
    subheading(state, `api-${kind}-example`, title),
    ...samples.map((sample) =>
      h('div', { className: ['ds-api-sample'], dataSample: sample.key, dataTitle: sample.title }, [
        state.ctx.codeBlock(sample.code, sample.lang, sample.title),
      ]),
    ),
  ]);
}

function examplesSection(op: ApiOperation, state: RenderState, page: ApiPageOptions): Element {
  const requests = requestSamples(op, page.samples, state.budget).map((s) => ({ ...s, key: s.language }));
  const responses = responseSamples(op, state.budget).map((s) => ({ ...s, key: s.title }));
  return section(state, 'api-examples', 'Examples', [
    sampleGroup(state, 'request', 'Request', requests),
    ...(responses.length > 0 ? [sampleGroup(state, 'response', 'Response', responses)] : []),
  ]);
}

/** How a site shows its API pages: docs.json's `api` settings and the export's playground rule. */
export interface ApiPageOptions {
  samples: SampleOptions;
  /** The "Try it" panel, or undefined for none (`playground.display: "none"`, or air-gapped without origins). */
  playground?: PlaygroundOptions;
  /** Example values already in the playground's inputs (`api.examples.prefill`). */
  prefill?: boolean;
}

export const DEFAULT_API_PAGE: ApiPageOptions = {
  samples: DEFAULT_SAMPLE_OPTIONS,
  playground: { display: 'interactive' },
};

/**
 * The reference of one operation as hast. `budget` bounds what it may render (budget.ts): an
 * ExportError names the file and the operation when a document asks for more.
 */
export function renderOperation(
  op: ApiOperation,
  ctx: RenderContext,
  budget = OperationBudget.standalone(op),
  page: ApiPageOptions = DEFAULT_API_PAGE,
): ElementContent[] {
  const warned = new Set<string>();
  budget.text(operationText(op));
  const state: RenderState = {
    ctx,
    budget,
    mode: 'request',
    fields: 0,
    ids: new Set(),
    descriptions: 0,
    onUnresolved: (reason) => {
      if (warned.has(reason)) return;
      warned.add(reason);
      ctx.warn(`${op.method} ${op.path}: ${reason}`);
    },
  };
  const method = op.method.toLowerCase();
  const server = op.servers[0]?.url.replace(/\/+$/, '');
  const endpoint = h('div', { className: ['ds-api-endpoint'] }, [
    h('span', { className: ['ds-api-method', `ds-api-method-${method}`] }, op.method),
    h(
      'code',
      { className: ['ds-api-url'] },
      compact([
        server ? h('span', { className: ['ds-api-server'] }, server) : undefined,
        ...pathElements(op.path),
      ]),
    ),
  ]);
  const main = compact([
    endpoint,
    op.deprecated
      ? h('p', { className: ['ds-api-deprecated'] }, [
          badge('deprecated', 'deprecated'),
          ' This endpoint is deprecated.',
        ])
      : undefined,
    page.playground ? playgroundPanel(op, page.playground, budget, page.prefill) : undefined,
    ...description(op.description, state, 2),
    securitySection(op, state),
    parametersSection(op, state),
    requestBodySection(op, state),
    responsesSection(op, state),
  ]);
  return [
    h('div', { className: ['ds-api', `ds-api-op-${method}`] }, [
      h('div', { className: ['ds-api-main'] }, main),
      h('div', { className: ['ds-api-side'] }, [examplesSection(op, state, page)]),
    ]),
  ];
}
