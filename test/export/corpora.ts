import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Real documentation repositories beside the repository (../shared/corpora, present in CI). Tests
 * over them run only when they are there; `withoutCorpora` names such a test so that the summary
 * says why it was skipped.
 */
export const CORPORA = fileURLToPath(new URL('../../../shared/corpora', import.meta.url));
export const HAVE_CORPORA = existsSync(join(CORPORA, 'mcp-docs', 'docs.json'));
export const WITHOUT_CORPORA = '../shared/corpora is not beside the repository';
export const withoutCorpora = (name: string): string =>
  HAVE_CORPORA ? name : `${name} (skipped: ${WITHOUT_CORPORA})`;
