// Copies every src/**/assets/ folder (CSS and browser JS read at run time) next to the compiled
// code in dist/, which tsc does not do.
import { cpSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

const src = new URL('../src/', import.meta.url).pathname;
const dist = new URL('../dist/', import.meta.url).pathname;
function walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const path = join(dir, entry.name);
    if (entry.name === 'assets') cpSync(path, join(dist, relative(src, path)), { recursive: true });
    else walk(path);
  }
}
walk(src);
