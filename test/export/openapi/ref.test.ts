import { describe, expect, it } from 'vitest';
import { parseOperationRef, UnsupportedOperationRefError } from '../../../src/export/openapi/index.ts';

describe('parseOperationRef', () => {
  it.each([
    ['GET /users/{id}', { method: 'GET', path: '/users/{id}' }],
    ['get /x', { method: 'GET', path: '/x' }],
    ['  post   /x  ', { method: 'POST', path: '/x' }],
    ['openapi.json GET /x', { file: 'openapi.json', method: 'GET', path: '/x' }],
    ['/api/openapi.yaml POST /x', { file: '/api/openapi.yaml', method: 'POST', path: '/x' }],
    ['/specs/api.yaml post /x', { file: '/specs/api.yaml', method: 'POST', path: '/x' }],
    [
      'https://example.com/openapi.json GET /x',
      { file: 'https://example.com/openapi.json', method: 'GET', path: '/x' },
    ],
    ['PUT /a', { method: 'PUT', path: '/a' }],
    ['patch /a', { method: 'PATCH', path: '/a' }],
    ['DELETE /a', { method: 'DELETE', path: '/a' }],
    ['head /a', { method: 'HEAD', path: '/a' }],
    ['OPTIONS /a', { method: 'OPTIONS', path: '/a' }],
    ['trace /a', { method: 'TRACE', path: '/a' }],
  ])('%s', (text, expected) => {
    expect(parseOperationRef(text)).toEqual(expected);
  });

  it.each([
    'api-reference/overview',
    'quickstart',
    'Get started',
    'GET users',
    'FETCH /x',
    'openapi.json GET /x extra',
    '',
    'GET',
  ])('is not an operation: %j', (text) => {
    expect(parseOperationRef(text)).toBeUndefined();
  });

  it('refuses webhook references with a clear error', () => {
    expect(() => parseOperationRef('WEBHOOK user.created')).toThrow(UnsupportedOperationRefError);
    expect(() => parseOperationRef('openapi.json webhook newPet')).toThrow(/webhook pages are not supported/);
  });
});
