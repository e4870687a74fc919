import { readFileSync } from 'node:fs';
import { parseDocument } from 'yaml';
import { ApiConfig } from '../contract/api-config.ts';
import { describeIssues } from '../contract/issues.ts';

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** Reads and checks a `docsnap api` configuration file; every bad field is named in the error. */
export function loadApiConfig(file: string): ApiConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`cannot read ${file}: ${(error as Error).message}`);
  }
  return parseApiConfig(text, file);
}

export function parseApiConfig(text: string, file = 'config'): ApiConfig {
  const document = parseDocument(text, { prettyErrors: true });
  if (document.errors.length > 0)
    throw new ConfigError(
      `${file} is not valid YAML:\n${document.errors.map((e) => `  ${e.message}`).join('\n')}`,
    );
  const parsed = ApiConfig.safeParse(document.toJS());
  if (!parsed.success)
    throw new ConfigError(
      `${file} is not a valid configuration:\n${describeIssues(parsed.error)
        .map((l) => `  ${l}`)
        .join('\n')}`,
    );
  return parsed.data;
}
