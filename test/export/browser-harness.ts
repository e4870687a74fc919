import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';

/** Debian's chromium, as the browser tests run it. */
export const CHROMIUM = '/usr/bin/chromium';

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.css': 'text/css',
  '.js': 'text/javascript',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.txt': 'text/plain',
};

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: install Debian's chromium package (apt-get install chromium)`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * A plain static file server for an exported site on loopback, under `/docs/`, as any static host
 * would serve it. Returns the base URL and the server to close.
 */
export async function serveSite(dir: string): Promise<{ base: string; server: Server }> {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(
      /^\/docs\/?/,
      '',
    );
    let file = join(dir, path);
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (!file.startsWith(dir) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/docs/`, server };
}

const AXE = join(dirname(fileURLToPath(import.meta.resolve('axe-core'))), 'axe.min.js');

/** axe-core's WCAG 2 A/AA and best-practice rules on the open page; `exclude` leaves parts out. */
export async function accessibilityViolations(tab: Page, exclude: string[] = []): Promise<string[]> {
  await tab.addScriptTag({ path: AXE });
  return tab.evaluate(async (excluded) => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            ctx: unknown,
            options: unknown,
          ) => Promise<{ violations: Array<{ id: string; nodes: Array<{ html: string }> }> }>;
        };
      }
    ).axe;
    const result = await axe.run(
      { include: [['html']], exclude: excluded.map((selector) => [selector]) },
      { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'best-practice'] } },
    );
    return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.html.slice(0, 120)}`));
  }, exclude);
}
