import type { z } from 'zod';

/** "sites[0].domain: must be a hostname …" for each problem zod found: the field, then what is wrong. */
export function describeIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => `${fieldPath(issue.path) || '(top level)'}: ${issue.message}`);
}

function fieldPath(path: ReadonlyArray<PropertyKey>): string {
  return path
    .map((part, i) => (typeof part === 'number' ? `[${part}]` : `${i === 0 ? '' : '.'}${String(part)}`))
    .join('');
}
