import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Element } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { visit } from 'unist-util-visit';
import { beforeAll, describe, expect, it } from 'vitest';
import { exportSite } from '../../../src/export/pipeline.ts';
import { docsRepo, page, tempDir } from '../fixtures.ts';
import { listFiles } from './scan.ts';

const site = () =>
  docsRepo({
    'docs.json': {
      name: 'CSP',
      navigation: { pages: ['index', 'guide'] },
      redirects: [{ source: '/old', destination: '/guide' }],
      integrations: { plausible: { domain: 'docs.example.com' } },
    },
    'index.mdx': page('Home', '<iframe src="https://www.youtube.com/embed/x" title="Video"></iframe>'),
    'guide.mdx': page('Guide'),
  });

interface PageFacts {
  policy: Record<string, string[]>;
  /** Tag names in <head> before the policy's <meta>. */
  beforePolicy: string[];
  inlineScripts: string[];
  inlineStyles: string[];
}

function facts(html: string): PageFacts {
  const tree = fromHtml(html);
  const head: Element[] = [];
  visit(tree, 'element', (node: Element) => {
    if (node.tagName === 'head')
      head.push(...(node.children.filter((c) => c.type === 'element') as Element[]));
  });
  const at = head.findIndex((n) => n.properties.httpEquiv?.toString() === 'Content-Security-Policy');
  const content = String(head[at]?.properties.content ?? '');
  const policy = Object.fromEntries(
    content.split(';').map((directive) => {
      const [name = '', ...sources] = directive.trim().split(/\s+/);
      return [name, sources];
    }),
  );
  const inlineScripts: string[] = [];
  const inlineStyles: string[] = [];
  visit(tree, 'element', (node: Element) => {
    if (node.tagName === 'script' && !node.properties.src) inlineScripts.push(textOf(node));
    if (node.tagName === 'style') inlineStyles.push(textOf(node));
  });
  return {
    policy,
    beforePolicy: head.slice(0, Math.max(at, 0)).map((n) => n.tagName),
    inlineScripts,
    inlineStyles,
  };
}

const textOf = (node: Element) => node.children.map((c) => (c.type === 'text' ? c.value : '')).join('');
const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
const exported = new Map<string, string>();

beforeAll(async () => {
  for (const deployment of ['cloud', 'client-hosted', 'air-gapped'] as const) {
    const dir = join(tempDir(), deployment);
    await exportSite({ source: site(), outDir: dir, workers: 1, options: { deployment } });
    exported.set(deployment, dir);
  }
}, 60_000);

describe.each(['cloud', 'client-hosted', 'air-gapped'])(
  'the Content-Security-Policy of a %s export',
  (deployment) => {
    const pages = () => {
      const dir = exported.get(deployment) ?? '';
      return listFiles(dir)
        .filter((f) => f.endsWith('.html'))
        .map((file) => ({ file, ...facts(readFileSync(join(dir, file), 'utf8')) }));
    };

    it('is on every page (content, redirect, 404) before anything it governs, allowing its inline code by hash', () => {
      const all = pages();
      expect(all.map((p) => p.file).sort()).toEqual(['404.html', 'guide.html', 'index.html', 'old.html']);
      for (const { file, policy, beforePolicy, inlineScripts, inlineStyles } of all) {
        expect(beforePolicy, file).toEqual(['meta']); // only <meta charset>
        expect(policy['script-src'], file).toEqual(
          expect.arrayContaining(["'self'", ...inlineScripts.map(hash)]),
        );
        expect(policy['style-src'], file).toEqual(
          expect.arrayContaining(["'self'", ...inlineStyles.map(hash)]),
        );
        const everything = Object.values(policy).flat();
        expect(everything, file).not.toContain("'unsafe-eval'");
        expect(policy['script-src'], file).not.toContain("'unsafe-inline'");
        expect(policy['style-src'], file).not.toContain("'unsafe-inline'");
        expect(policy['object-src'], file).toEqual(["'none'"]);
        expect(policy['base-uri'], file).toEqual(["'none'"]);
        expect(policy['form-action'], file).toEqual(["'none'"]);
      }
    });

    it(
      deployment === 'air-gapped'
        ? "allows only 'self', no other origin"
        : 'runs scripts only from the site and its analytics',
      () => {
        for (const { file, policy } of pages()) {
          const scripts = policy['script-src'] ?? [];
          // Keywords, hashes and named https origins only: no scheme or wildcard source.
          expect(
            scripts.filter((s) => !/^'[^']+'$/.test(s) && !/^https:\/\/[a-z0-9*.-]+$/.test(s)),
            file,
          ).toEqual([]);
          if (deployment === 'air-gapped') {
            const origins = Object.values(policy)
              .flat()
              .filter((s) => !/^'(?:self|none|unsafe-inline|sha256-[^']+)'$/.test(s));
            // data: images load nothing from anywhere; they are the one non-'self' source.
            expect(origins, file).toEqual(['data:']);
            for (const directive of ['default-src', 'font-src', 'connect-src', 'media-src', 'frame-src'])
              expect(policy[directive], `${file} ${directive}`).toEqual(["'self'"]);
            expect(policy['img-src'], file).toEqual(["'self'", 'data:']);
          } else if (file === 'index.html' || file === 'guide.html') {
            expect(
              scripts.filter((s) => s.startsWith('https://')),
              file,
            ).toEqual(['https://plausible.io']);
            expect(policy['frame-src'], file).toContain('https:');
          }
        }
      },
    );
  },
);
