import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { exportReport, warningKind } from '../../src/export/report.ts';
import { docsRepo, page, tempDir } from './fixtures.ts';

const run = promisify(execFile);

describe('export report', () => {
  it('names the kind of each warning the export writes', () => {
    const kinds = {
      'unknown component <Foo>: rendered its content only': 'unknown component',
      'unknown icon "nope"': 'unknown icon',
      'broken link: /missing': 'broken link',
      'link /a#b: a.html has no anchor #b': 'broken link',
      'refused URL "javascript:x" in <a href>: only http, https, mailto, tel or relative links are allowed':
        'refused URL',
      '<img> loads https://x.test/a.png from another origin; an air-gapped export shows a link instead':
        'loads from another origin',
      'expression {foo()} is JavaScript and was not run': 'JavaScript not run',
      'removed from raw HTML: <script>': 'markup removed',
      'API reference for GET /x not rendered: no such operation': 'API reference',
      'redirect /a: parameters and wildcards need a server': 'redirect',
      'snippet snippets/x.mdx does not exist; left out': 'snippet',
      'no title in frontmatter; using the file name': 'missing title',
      '<Tabs> has no <Tab> inside': 'component props',
      'math not typeset (Expected group after _): shown as its source': 'math',
      'something new': 'other',
    };
    for (const [message, kind] of Object.entries(kinds)) expect(warningKind(message), message).toBe(kind);
  });

  it('lists every warning with its file and line, and counts them by kind, most frequent first', () => {
    const report = exportReport(3, [
      { file: 'a.mdx', message: 'line 4: unknown component <Foo>: rendered its content only' },
      { file: 'b.mdx', line: 2, message: 'unknown component <Bar>: rendered its content only' },
      { file: 'b.mdx', message: 'broken link: /x' },
    ]);
    expect(report.summary).toEqual([
      { kind: 'unknown component', count: 2 },
      { kind: 'broken link', count: 1 },
    ]);
    expect(report.warnings[0]).toEqual({
      kind: 'unknown component',
      file: 'a.mdx',
      line: 4,
      message: 'unknown component <Foo>: rendered its content only',
    });
  });

  it('docsnap export prints the counts by kind and writes every warning with --report', async () => {
    const pages: Record<string, string | object> = {
      'docs.json': { name: 'Noisy', navigation: { groups: [{ group: 'A', pages: ['index'] }] } },
      'index.mdx': page(
        'Home',
        Array.from({ length: 60 }, (_, i) => `<Widget${i}>x</Widget${i}>\n\n[gone](/gone-${i})`).join('\n\n'),
      ),
    };
    const out = join(tempDir(), 'site');
    const reportFile = join(tempDir(), 'report.json');
    const { stdout } = await run(process.execPath, [
      'src/cli/main.ts',
      'export',
      docsRepo(pages),
      '--out-dir',
      out,
      '--report',
      reportFile,
    ]);
    expect(stdout).toMatch(
      /120 warnings, by kind:\n\s+60 {2}broken link {2}e\.g\. index\.mdx:\d+: broken link: \/gone-0/,
    );
    expect(stdout).toMatch(
      /\n\s+60 {2}unknown component {2}e\.g\. index\.mdx:\d+: unknown component <Widget0>/,
    );
    expect(stdout).toContain(`every warning, with file and line: ${reportFile}`);
    expect(stdout).not.toContain('more');
    const report = JSON.parse(readFileSync(reportFile, 'utf8'));
    expect(report.warnings).toHaveLength(120);
    expect(report.warnings.every((w: { line?: number }) => typeof w.line === 'number')).toBe(true);
  });
});
