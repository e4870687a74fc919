// Copies every src/**/assets/ folder (CSS and browser JS read at run time) next to the compiled
// code in dist/, which tsc does not do.
import { cpSync, mkdirSync, readdirSync } from 'node:fs';
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

// Mermaid's browser bundle (a development dependency: its 115 packages are all inside this one
// file), beside the code that ships it in exports with diagrams (src/export/diagrams/mermaid.ts).
const mermaid = new URL('../node_modules/mermaid/', import.meta.url).pathname;
const vendor = join(dist, 'export/diagrams/vendor');
mkdirSync(vendor, { recursive: true });
cpSync(join(mermaid, 'dist/mermaid.min.js'), join(vendor, 'mermaid.min.js'));
cpSync(join(mermaid, 'LICENSE'), join(vendor, 'LICENSE.mermaid'));
