import { writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import type { DeploymentKind } from '../export/render-context.ts';
import { progressView } from './progress.ts';

const DEPLOYMENTS: DeploymentKind[] = ['cloud', 'client-hosted', 'air-gapped'];

function keyValue(value: string, previous: Record<string, string> = {}): Record<string, string> {
  const at = value.lastIndexOf('=');
  if (at <= 0) throw new InvalidArgumentError('expected URL=FILE');
  return { ...previous, [value.slice(0, at)]: value.slice(at + 1) };
}

function positiveInteger(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a positive whole number');
  return n;
}

/** $XDG_CACHE_HOME/docsnap/openapi, as other command-line tools keep what they download. */
function defaultSpecCache(): string {
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'docsnap', 'openapi');
}

export function exportCommand(): Command {
  return new Command('export')
    .description(
      'render a docs repository (docs.json + MDX) into a self-contained static site and one reproducible archive',
    )
    .argument('<dir>', 'the docs repository (docs.json or legacy mint.json at its root)')
    .option('-o, --out <file>', 'write the archive (.tar.gz) here')
    .option('--out-dir <dir>', 'write the site files here (an empty directory or an earlier export)')
    .addOption(
      new Option('--deployment <kind>', 'where the site will run').choices(DEPLOYMENTS).default('cloud'),
    )
    .option('--site-url <url>', 'public URL of the site, for sitemap.xml and canonical links')
    .option('--export-version <label>', 'version label recorded in the manifest (staticExport.version)')
    .option('--paths <routes...>', 'render only these pages (routes or folders)')
    .option(
      '--openapi-override <url=file>',
      'use a local file for a remote OpenAPI URL (repeatable)',
      keyValue,
    )
    .option(
      '--fetch-remote-specs',
      'fetch OpenAPI documents docs.json names by http(s) URL (public addresses only; not in air-gapped exports)',
    )
    .option(
      '--remote-spec-private-host <host...>',
      'a host name whose OpenAPI documents may be fetched from a private, loopback or link-local address',
    )
    .option(
      '--remote-spec-cache <dir>',
      'where fetched OpenAPI documents are kept by URL and ETag (default: ~/.cache/docsnap/openapi)',
    )
    .option('--no-search', 'leave out the offline search')
    .option(
      '--no-analytics',
      'leave out web analytics configured in docs.json (never included in air-gapped exports)',
    )
    .option(
      '--site-scripts',
      "include the repository's own .js files on every page (they run on the site's origin; off by default)",
    )
    .option(
      '--playground-origin <origin...>',
      'an origin the API playground may send to (https://api.example.com); air-gapped exports have no playground without one',
    )
    .option('--no-playground', 'leave the API playground ("Try it") out of API pages')
    .option(
      '--strict',
      'fail on what the platform builds past with a warning: navigation entries naming missing pages, invalid frontmatter, missing OpenAPI files of pages',
    )
    .option('--workers <n>', 'render threads (default: every core)', positiveInteger)
    .option('--report <file>', 'write the export report (every warning with file, line and kind) as JSON')
    .action(async (dir: string, flags) => {
      // The pipeline is loaded only to export: other commands need none of it.
      const { exportSite } = await import('../export/pipeline.ts');
      const { fetchRemoteSpec } = await import('../service/remote-openapi.ts');
      const { formatLocation } = await import('../export/errors.ts');
      const { exportReport } = await import('../export/report.ts');
      if (!flags.out && !flags.outDir)
        throw new InvalidArgumentError('give --out <file.tar.gz>, --out-dir <dir>, or both');
      if (flags.siteUrl && !/^https?:\/\/[^/]+/.test(flags.siteUrl))
        throw new InvalidArgumentError('--site-url must be an http(s) URL');
      const view = progressView();
      const started = performance.now();
      const result = await exportSite({
        source: dir,
        archivePath: flags.out,
        outDir: flags.outDir,
        workers: flags.workers,
        fetchRemoteSpec,
        options: {
          deployment: flags.deployment,
          siteUrl: flags.siteUrl,
          version: flags.exportVersion,
          paths: flags.paths,
          strict: flags.strict === true,
          openapiOverrides: flags.openapiOverride,
          features: {
            search: flags.search,
            analytics: flags.analytics,
            siteScripts: flags.siteScripts === true,
            playground: flags.playground,
          },
          ...(flags.playgroundOrigin ? { playgroundOrigins: flags.playgroundOrigin } : {}),
          ...(flags.fetchRemoteSpecs || flags.remoteSpecPrivateHost || flags.remoteSpecCache
            ? {
                remoteSpecs: {
                  cacheDir: flags.remoteSpecCache ?? defaultSpecCache(),
                  privateHosts: flags.remoteSpecPrivateHost ?? [],
                },
              }
            : {}),
        },
        onProgress: (p) => view.update(p.progress, `${p.phase} ${p.renderedPages}/${p.pageCount} pages`),
      }).finally(() => view.done());
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const lines = [`exported ${result.pageCount} pages in ${seconds} s`];
      if (result.outDir) lines.push(`site: ${result.outDir}`);
      if (result.archive) {
        lines.push(
          `archive: ${result.archive.path}`,
          `sha256: ${result.archive.sha256}`,
          `size: ${result.archive.sizeBytes} bytes`,
        );
      }
      const report = exportReport(result.pageCount, result.warnings);
      if (flags.report) writeFileSync(flags.report, `${JSON.stringify(report, null, 2)}\n`);
      if (report.warnings.length > 0) {
        lines.push(`${report.warnings.length} warning${report.warnings.length === 1 ? '' : 's'}, by kind:`);
        for (const { kind, count } of report.summary) {
          const first = report.warnings.find((w) => w.kind === kind);
          const example = first ? `  e.g. ${formatLocation(first)}: ${first.message}` : '';
          lines.push(`  ${String(count).padStart(6)}  ${kind}${example}`);
        }
        lines.push(
          flags.report
            ? `every warning, with file and line: ${flags.report}`
            : 'every warning, with file and line: give --report FILE',
        );
      }
      process.stdout.write(`${lines.join('\n')}\n`);
    });
}
