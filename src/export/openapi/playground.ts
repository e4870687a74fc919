import type { Element, ElementContent } from 'hast';
import { h } from 'hastscript';
import { NOT_SEARCHED_CLASS } from '../render-context.ts';
import type { OperationBudget } from './budget.ts';
import { mediaExamples, parameterValue, preferredMedia, scalarText } from './examples.ts';
import { isObject } from './resolve.ts';
import { asSchema, toJson } from './schema.ts';
import type { ApiMediaType, ApiOperation, ApiParameter, ApiSecurityScheme } from './types.ts';

/**
 * The "Try it" panel of an operation page: a form built at build time (servers, credentials,
 * parameters, body seeded with the example) that the API pages' script (assets/api.js) sends with
 * `fetch` from the reader's browser when, and only when, the reader presses Send. The form names
 * where it may send: any http(s) origin, or (air-gapped) only the origins the export was given;
 * the page's Content-Security-Policy says the same.
 */

export interface PlaygroundOptions {
  /** `interactive`: every input; `simple`: the endpoint, credentials and Send only (docs.json `api.playground.display`). */
  display: 'interactive' | 'simple';
  /** Origins requests may go to; undefined: any http(s) origin. */
  origins?: readonly string[];
}

let fieldCount = 0;
/** Ids for the form's inputs and labels, unique in a page (one panel per page). */
const fieldId = (kind: string) => `ds-try-${kind}-${++fieldCount}`;

function input(
  label: string,
  attributes: Record<string, string | boolean | undefined>,
  note?: string,
): Element {
  const id = fieldId('field');
  return h('div', { className: ['ds-try-field'] }, [
    h('label', { for: id }, [
      label,
      ...(attributes.required ? [h('span', { className: ['ds-try-required'] }, ' required')] : []),
    ]),
    h('input', { id, ...attributes }),
    ...(note ? [h('span', { className: ['ds-try-note'] }, note)] : []),
  ]);
}

function group(legend: string, fields: ElementContent[]): Element[] {
  return fields.length === 0
    ? []
    : [h('fieldset', { className: ['ds-try-group'] }, [h('legend', legend), ...fields])];
}

function serverFields(op: ApiOperation): ElementContent[] {
  const servers = op.servers.map((server) => server.url.replace(/\/+$/, ''));
  const base = input('Base URL', {
    type: 'url',
    name: 'base',
    value: servers[0] ?? '',
    placeholder: 'https://api.example.com',
    required: true,
    dataTry: 'base',
  });
  if (servers.length < 2) return [base];
  const id = fieldId('server');
  return [
    h('div', { className: ['ds-try-field'] }, [
      h('label', { for: id }, 'Server'),
      h(
        'select',
        { id, dataTry: 'server' },
        servers.map((url) => h('option', { value: url }, url)),
      ),
    ]),
    base,
  ];
}

function credentialFields(scheme: ApiSecurityScheme): ElementContent[] {
  const data = { dataTry: 'auth', dataScheme: scheme.name };
  if (scheme.type === 'http' && scheme.scheme === 'basic')
    return [
      input(`${scheme.name}: username`, { type: 'text', autocomplete: 'off', ...data, dataPart: 'username' }),
      input(`${scheme.name}: password`, {
        type: 'password',
        autocomplete: 'off',
        ...data,
        dataPart: 'password',
      }),
    ];
  if (scheme.type === 'apiKey' && scheme.parameterName)
    return [
      input(
        `${scheme.parameterName} (${scheme.in ?? 'header'})`,
        {
          type: 'password',
          autocomplete: 'off',
          ...data,
          dataIn: scheme.in ?? 'header',
          dataName: scheme.parameterName,
        },
        scheme.in === 'cookie'
          ? 'Browsers do not let a page set cookies for another site: this one is not sent.'
          : undefined,
      ),
    ];
  const prefix =
    scheme.type === 'http' && scheme.scheme && scheme.scheme !== 'bearer' ? scheme.scheme : 'Bearer';
  return [
    input(`${scheme.name}: ${prefix} token`, {
      type: 'password',
      autocomplete: 'off',
      ...data,
      dataIn: 'header',
      dataName: 'Authorization',
      dataPrefix: `${prefix[0]?.toUpperCase()}${prefix.slice(1)} `,
    }),
  ];
}

function parameterField(parameter: ApiParameter, budget: OperationBudget, prefill: boolean): Element {
  const example = parameterValue(parameter, budget);
  return input(
    parameter.name,
    {
      type: 'text',
      dataTry: 'param',
      dataIn: parameter.in,
      dataName: parameter.name,
      required: parameter.required || parameter.in === 'path',
      ...(example !== undefined ? (prefill ? { value: example } : { placeholder: example }) : {}),
    },
    parameter.in === 'cookie'
      ? 'Browsers do not let a page set cookies for another site: this one is not sent.'
      : undefined,
  );
}

function bodyFields(media: ApiMediaType, budget: OperationBudget): ElementContent[] {
  const type = media.contentType.toLowerCase();
  const example = mediaExamples(media, 'request', budget)[0]?.value;
  if (type.startsWith('multipart/form-data') || type.startsWith('application/x-www-form-urlencoded')) {
    const properties = media.schema && isObject(media.schema.properties) ? media.schema.properties : {};
    const values = isObject(example) ? example : {};
    return Object.keys(properties).map((name) => {
      const property = asSchema(properties[name]);
      const binary = property?.format === 'binary' || property?.contentMediaType !== undefined;
      const data = { dataTry: 'form', dataName: name, dataContentType: media.contentType };
      if (binary && type.startsWith('multipart/')) return input(name, { type: 'file', ...data });
      const value = values[name];
      return input(name, {
        type: 'text',
        ...data,
        ...(value !== undefined ? { value: scalarText(value) } : {}),
      });
    });
  }
  const id = fieldId('body');
  const text = example === undefined ? '' : typeof example === 'string' ? example : toJson(example);
  return [
    h('div', { className: ['ds-try-field'] }, [
      h('label', { for: id }, `Body (${media.contentType})`),
      h(
        'textarea',
        {
          id,
          dataTry: 'body',
          dataContentType: media.contentType,
          rows: Math.min(16, text.split('\n').length + 1),
          spellCheck: false,
        },
        text,
      ),
    ]),
  ];
}

/** The panel for one operation; `prefill` puts example values in the inputs (docs.json `api.examples.prefill`). */
export function playgroundPanel(
  op: ApiOperation,
  options: PlaygroundOptions,
  budget: OperationBudget,
  prefill = false,
): Element {
  fieldCount = 0;
  const scheme = op.security.find((r) => r.length > 0) ?? [];
  const interactive = options.display === 'interactive';
  const parameters = interactive ? op.parameters : op.parameters.filter((p) => p.in === 'path');
  const media = interactive && op.requestBody ? preferredMedia(op.requestBody.content) : undefined;
  const byLocation = (location: ApiParameter['in']) =>
    parameters
      .filter((p) => p.in === location)
      .map((p) => parameterField(p, budget, prefill || p.in === 'path'));
  return h(
    'details',
    {
      className: ['ds-try', NOT_SEARCHED_CLASS],
      dataMethod: op.method,
      dataPath: op.path,
      dataOrigins: options.origins ? options.origins.join(' ') : '*',
    },
    [
      h('summary', { className: ['ds-try-summary'] }, 'Try it'),
      h('form', { className: ['ds-try-form'], noValidate: true }, [
        ...group('Server', serverFields(op)),
        ...group('Authorization', scheme.flatMap(credentialFields)),
        ...(scheme.length > 0
          ? [
              h('label', { className: ['ds-try-remember'] }, [
                h('input', { type: 'checkbox', dataTry: 'remember' }),
                ' Remember credentials in this tab (session storage)',
              ]),
            ]
          : []),
        ...group('Path parameters', byLocation('path')),
        ...group('Query parameters', byLocation('query')),
        ...group('Headers', byLocation('header')),
        ...group('Cookies', byLocation('cookie')),
        ...group('Body', media ? bodyFields(media, budget) : []),
        h('button', { type: 'submit', className: ['ds-try-send'] }, `Send ${op.method}`),
      ]),
      h('div', { className: ['ds-try-result'], ariaLive: 'polite', hidden: true }),
    ],
  );
}
