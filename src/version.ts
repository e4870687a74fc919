import { readFileSync } from 'node:fs';

/** The package's own version, read from package.json (one level above src/ and dist/ alike). */
export function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}
