import type { ElementContent } from 'hast';
import type { Component, ComponentInput } from '../render-context.ts';
import { boolProp, componentIds, displayValue, el, stringProp } from './shared.ts';

/** ParamField and ResponseField: one API parameter or response value, with an id to link to. */

const LOCATIONS = ['query', 'path', 'body', 'header'] as const;

function text(value: string): ElementContent {
  return { type: 'text', value };
}

function labels(input: ComponentInput, name: string): ElementContent[] {
  const value = input.props[name];
  if (value === undefined || value === null) return [];
  const list = Array.isArray(value) ? value : [value];
  return list
    .filter((item) => typeof item === 'string' || typeof item === 'number')
    .map((item) => el('span', { className: ['ds-field-label'] }, [text(String(item))]));
}

function field(
  input: ComponentInput,
  options: { kind: 'param' | 'response'; name: string | undefined; location?: string },
): ElementContent[] {
  const name = options.name ?? '';
  const type = stringProp(input, 'type');
  const defaultValue = displayValue(input.props.default ?? undefined);
  const head: ElementContent[] = [
    ...labels(input, 'pre'),
    el('code', { className: ['ds-field-name'] }, [text(name)]),
    ...(options.location ? [el('span', { className: ['ds-field-location'] }, [text(options.location)])] : []),
    ...(type ? [el('span', { className: ['ds-field-type'] }, [text(type)])] : []),
    ...(boolProp(input, 'required')
      ? [el('span', { className: ['ds-field-required'] }, [text('required')])]
      : []),
    ...(boolProp(input, 'deprecated')
      ? [el('span', { className: ['ds-field-deprecated'] }, [text('deprecated')])]
      : []),
    ...labels(input, 'post'),
  ];
  return [
    el(
      'div',
      {
        className: [
          'ds-field',
          `ds-${options.kind}-field`,
          ...(boolProp(input, 'deprecated') ? ['ds-field-is-deprecated'] : []),
        ],
        id: stringProp(input, 'id') ?? componentIds(input.ctx).param(name),
      },
      [
        el('div', { className: ['ds-field-head'] }, head),
        ...(defaultValue !== undefined
          ? [
              el('p', { className: ['ds-field-default'] }, [
                text('Default: '),
                el('code', {}, [text(defaultValue)]),
              ]),
            ]
          : []),
        ...(input.children.length > 0 ? [el('div', { className: ['ds-field-body'] }, input.children)] : []),
      ],
    ),
  ];
}

/** `<ParamField query|path|body|header="name" type required default deprecated placeholder>`. */
const ParamField: Component = (input) => {
  const location = LOCATIONS.find((key) => input.props[key] !== undefined);
  const name = location ? stringProp(input, location) : stringProp(input, 'name');
  if (!name) input.ctx.warn('<ParamField> names no parameter: give it query, path, body or header="name"');
  return field(input, { kind: 'param', name, ...(location ? { location } : {}) });
};

/** `<ResponseField name type required default deprecated pre post>`. */
const ResponseField: Component = (input) => {
  const name = stringProp(input, 'name');
  if (!name) input.ctx.warn('<ResponseField> has no name');
  return field(input, { kind: 'response', name });
};

/** `<Param>` is the reference's short name of ParamField. */
export const fieldComponents: Record<string, Component> = { ParamField, Param: ParamField, ResponseField };
