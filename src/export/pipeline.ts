import { createHash } from 'node:crypto';
import { once } from 'node:events';
import {
  chmodSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { Piscina } from 'piscina';
import { type BundleManifest, MANIFEST_FILE } from '../contract/bundle-manifest.ts';
import { packageVersion } from '../version.ts';
import {
  type ArchiveResult,
  type ArchiveSource,
  byteOrder,
  directorySource,
  writeArchive,
} from './archive/archive.ts';
import { assetsInUse } from './assets/assets-in-use.ts';
import { copyAssets } from './assets/copy-assets.ts';
import { publishScripts } from './assets/scripts.ts';
import { publishStylesheets } from './assets/stylesheets.ts';
import { canDrawDiagrams, mermaidAssets, NO_MERMAID_WARNING } from './diagrams/mermaid.ts';
import { ExportError, type SourceProblem } from './errors.ts';
import { katexAssets } from './markdown/math.ts';
import { API_JS, type FetchRemoteSpec, openapiAssets } from './openapi/index.ts';
import { type ExportOptions, type ExportOptionsInput, resolveOptions } from './options.ts';
import { assertAssetNames } from './output/output-names.ts';
import { SpoolReader, type SpoolSlice } from './output/page-spool.ts';
import { llmsIndex, markdownPath, notFoundPage, redirectFiles, sitemap } from './output/site-files.ts';
import { cleanHeadingId, typographic } from './pages/anchor-ids.ts';
import type { FragmentLink } from './pages/links.ts';
import { BatchRenderer, type RenderOutcome, type WrittenPage } from './render-batch.ts';
import { SearchIndexBuilder } from './search/index.ts';
import { isIndexed, loadSite, type SiteModel } from './source/load-site.ts';
import { assertOutputName } from './source/routes.ts';
import { navigationScript, siteAssets } from './theme/assets.ts';
import { FULL_NAV_LIMIT, listedPagesPerSection } from './theme/layout-input.ts';
import { searchScope } from './theme/scopes.ts';
import { tailwindCss } from './theme/tailwind.ts';

export type ExportPhase = 'loading' | 'rendering' | 'writing' | 'archiving' | 'done';

export interface ExportProgress {
  phase: ExportPhase;
  /** 0–100 over the whole export. */
  progress: number;
  /** Pages the export will render (known once the site is loaded). */
  pageCount: number;
  renderedPages: number;
}

export interface ExportRequest {
  /** The docs repository (docs.json or mint.json at its root). */
  source: string;
  /** Where to write the archive (.tar.gz); none when only a directory is wanted. */
  archivePath?: string;
  /** Where to write the site's files; a temporary directory (removed afterwards) when not given. */
  outDir?: string;
  options?: ExportOptionsInput;
  onProgress?: (progress: ExportProgress) => void;
  /** Where temporary files go when no outDir is given; default: the system temp dir. */
  workDir?: string;
  /** Render threads; default: every core. */
  workers?: number;
  signal?: AbortSignal;
  /**
   * Fetches the OpenAPI documents docs.json names by URL when options.remoteSpecs opts in
   * (service/remote-openapi.ts): the export itself makes no network request.
   */
  fetchRemoteSpec?: FetchRemoteSpec;
}

export type ExportManifest = BundleManifest;

export interface ExportResult {
  pageCount: number;
  outDir?: string;
  archive?: ArchiveResult;
  manifest: ExportManifest;
  warnings: SourceProblem[];
}

export { MANIFEST_FILE };

const BATCH_SIZE = 8;
/** Distinct authored classes the site's Tailwind CSS is built for: far above what real sites use. */
const MAX_SITE_CLASSES = 50_000;

/**
 * Exports a docs repository: load and check the site, render pages on worker threads, write the
 * site's shared files, search index and Markdown copies, then pack it all into one reproducible
 * archive. Pages stream to disk as they are rendered, so memory stays bounded by the pages in
 * flight, not by the size of the site.
 */
export async function exportSite(request: ExportRequest): Promise<ExportResult> {
  const options = resolveOptions(request.options);
  const report = throttle(request.onProgress);
  report({ phase: 'loading', progress: 0, pageCount: 0, renderedPages: 0 });
  const target = request.outDir ? checkOutDir(resolve(request.outDir)) : undefined;
  const site = await loadSite(request.source, options, request.fetchRemoteSpec);
  const pageIndexes = site.pages.flatMap((page, index) => (page.rendered ? [index] : []));
  const pageCount = pageIndexes.length;
  report({ phase: 'loading', progress: 5, pageCount, renderedPages: 0 });

  // Files are written to a staging directory beside the target and swapped in only when the
  // export succeeded: a failed export never destroys the previous one.
  const outDir = await mkdtemp(
    target
      ? join(dirname(target), '.docsnap-staging-')
      : join(request.workDir ?? tmpdir(), 'docsnap-export-'),
  );
  // Rendered pages live in spool files (output/page-spool.ts) and generated files in memory until
  // the archive or the site directory takes them (HeldFiles); the rest is written to staging.
  const spoolDir = await mkdtemp(`${outDir}-spool-`);
  const held = new HeldFiles();
  const hashes = new Map<string, string>();
  const write = (path: string, contents: string | Buffer) => {
    const bytes = typeof contents === 'string' ? Buffer.from(contents) : contents;
    held.generated.set(path, bytes);
    hashes.set(path, createHash('sha256').update(bytes).digest('hex'));
    held.pages.delete(path); // a page rewritten after rendering (unbrokenFragments)
  };
  const read = (path: string): Buffer => held.get(path) ?? readFileSync(join(outDir, path));
  const warnings = [...site.warnings];
  // Before pages render: a stylesheet the policy refuses must not be linked from them.
  const stylesheets = publishStylesheets(site, options.deployment === 'air-gapped', warnings);
  const scripts = publishScripts(site, options, warnings);
  // One search index per language (a reader searches the language they read), one for the rest.
  const search = options.features.search ? new Map<string, SearchIndexBuilder>() : undefined;
  try {
    const ids = new Map<string, Set<string>>();
    const classes = new Set<string>();
    let hasMath = false;
    let hasDiagrams = false;
    const fragmentLinks: Array<FragmentLink & { from: string; file: string }> = [];
    const assetsOfPages = new Set<string>();
    await renderPages(
      site,
      options,
      pageIndexes,
      request,
      spoolDir,
      (rendered, done) => {
        for (const [path, { sha256, ...slice }] of Object.entries(rendered.files)) {
          hashes.set(path, sha256);
          held.pages.set(path, slice);
        }
        ids.set(rendered.output, new Set(rendered.ids));
        for (const name of rendered.classes) if (classes.size < MAX_SITE_CLASSES) classes.add(name);
        if (rendered.math) hasMath = true;
        if (rendered.diagrams) hasDiagrams = true;
        const file = site.pages[rendered.index]?.source ?? site.config.configFile;
        for (const link of rendered.fragmentLinks)
          fragmentLinks.push({ ...link, from: rendered.output, file });
        for (const asset of rendered.assets) assetsOfPages.add(asset);

        warnings.push(...rendered.warnings);
        report({
          phase: 'rendering',
          progress: 5 + Math.floor((done / Math.max(pageCount, 1)) * 80),
          pageCount,
          renderedPages: done,
        });
      },
      (rendered, index) => {
        const page = site.pages[index];
        if (!search || !page || !isIndexed(site, page)) return;
        const scope = searchScope(site, page);
        const builder = search.get(scope) ?? new SearchIndexBuilder();
        search.set(scope, builder);
        builder.add({ id: index, ...rendered.search });
      },
    );
    report({ phase: 'writing', progress: 86, pageCount, renderedPages: pageCount });
    for (const [path, html] of unbrokenFragments(read, ids, fragmentLinks, warnings)) write(path, html);

    const configWarning = (message: string) => warnings.push({ file: site.config.configFile, message });
    const utilities = await tailwindCss(
      classes,
      {
        airGapped: options.deployment === 'air-gapped',
        published: new Set([...site.assets, ...site.stylesheets]),
      },
      configWarning,
    );
    for (const file of siteAssets(site, options, configWarning, utilities)) write(file.path, file.contents);
    for (const [path, css] of stylesheets) write(path, css);
    if (hasMath) for (const file of katexAssets()) write(file.path, file.contents);
    if (hasDiagrams && !canDrawDiagrams()) configWarning(NO_MERMAID_WARNING);
    if (hasDiagrams) for (const file of mermaidAssets()) write(file.path, file.contents);
    if (site.pages.some((page) => page.operation && page.rendered))
      write(API_JS, readFileSync(openapiAssets.js));
    for (const [path, js] of scripts) write(path, js);
    listedPagesPerSection(site).forEach((size, index) => {
      if (size > FULL_NAV_LIMIT) {
        const script = navigationScript(site, index);
        write(script.path, script.contents);
      }
    });
    for (const [scope, builder] of search ?? [])
      for (const file of builder.files(scope)) write(file.path, file.contents);
    // A site whose every page is left out of search still gets its (empty) index: the dialog needs one.
    if (search && !search.has(''))
      for (const file of new SearchIndexBuilder().files()) write(file.path, file.contents);
    for (const file of redirectFiles(site, warnings)) write(file.path, file.contents);
    const notFound = notFoundPage(site, options);
    write(notFound.path, notFound.contents);
    const map = sitemap(site, options);
    if (map) write(map.path, map.contents);
    const llms = llmsIndex(site, options);
    write(llms.path, llms.contents);
    hashes.set(
      'llms-full.txt',
      await concatenate(
        pageIndexes.map((i) => markdownPath(site.pages[i]?.output ?? '')),
        read,
        join(outDir, 'llms-full.txt'),
      ),
    );
    // An export of selected pages ships the files they use, not every file of the repository.
    const shipped = options.paths?.length
      ? assetsInUse(site.assets, assetsOfPages, {
          config: site.config,
          stylesheets: stylesheets.values(),
          scripts: scripts.values(),
        })
      : site.assets;
    const assets = shipped.filter((asset) => !hashes.has(asset)); // a generated file of the same name wins
    assertAssetNames(assets, hashes.keys());
    for (const [asset, sha256] of await copyAssets(site.root, assets, outDir, warnings))
      hashes.set(asset, sha256);

    const files = [...hashes.keys()].sort(byteOrder);
    const manifest: ExportManifest = {
      generator: `docsnap ${packageVersion()}`,
      version: options.version ?? null,
      deployment: options.deployment,
      pageCount,
      files: Object.fromEntries(files.map((f) => [f, hashes.get(f) as string])),
    };
    held.generated.set(MANIFEST_FILE, Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`));

    let archive: ArchiveResult | undefined;
    if (request.archivePath) {
      report({ phase: 'archiving', progress: 90, pageCount, renderedPages: pageCount });
      const all = [MANIFEST_FILE, ...files];
      archive = await writeArchive(
        siteSource(outDir, held),
        all,
        resolve(request.archivePath),
        (done, total) =>
          report({
            phase: 'archiving',
            progress: 90 + Math.floor((done / total) * 9),
            pageCount,
            renderedPages: pageCount,
          }),
      );
    }
    if (target) {
      await materialize(outDir, held);
      rmSync(target, { recursive: true, force: true });
      // The staging folder was made private (mkdtemp); the site is for a web server to read.
      chmodSync(outDir, 0o755);
      renameSync(outDir, target);
    }
    report({ phase: 'done', progress: 100, pageCount, renderedPages: pageCount }, true);
    // Pages finish in any order; report warnings in a stable one (by file, then line).
    warnings.sort((a, b) => byteOrder(a.file, b.file) || (a.line ?? 0) - (b.line ?? 0));
    return { pageCount, outDir: target, archive, manifest, warnings };
  } finally {
    held.spool.close();
    await Promise.all([
      rm(outDir, { recursive: true, force: true }),
      rm(spoolDir, { recursive: true, force: true }),
    ]);
  }
}

/**
 * The files of an export that are not in the staging directory: rendered pages in the render
 * threads' spool files, and the files the pipeline generates besides pages (theme assets, search
 * index, sitemap, …) in memory, where they were built. Writing each small file to the staging
 * directory and reading it back cost a small export more than rendering it. The large ones
 * (llms-full.txt, the repository's own assets) are on disk.
 */
class HeldFiles {
  readonly pages = new Map<string, SpoolSlice>();
  readonly generated = new Map<string, Buffer>();
  readonly spool = new SpoolReader();

  get(name: string): Buffer | undefined {
    const slice = this.pages.get(name);
    return slice ? this.spool.read(slice) : this.generated.get(name);
  }

  size(name: string): number | undefined {
    return this.pages.get(name)?.length ?? this.generated.get(name)?.length;
  }

  names(): string[] {
    return [...this.pages.keys(), ...this.generated.keys()];
  }
}

/** The site's files for the archive: the held ones, the rest from the staging directory. */
function siteSource(outDir: string, held: HeldFiles): ArchiveSource {
  const directory = directorySource(outDir);
  return {
    size: (name) => held.size(name) ?? directory.size(name),
    read: (name) => held.get(name) ?? directory.read(name),
    stream: (name) => {
      const bytes = held.get(name);
      return bytes ? Readable.from([bytes]) : directory.stream(name);
    },
  };
}

/** Writes the held files into the site directory, a few at a time. */
async function materialize(outDir: string, held: HeldFiles): Promise<void> {
  const made = new Set<string>();
  const pending = new Set<Promise<void>>();
  for (const path of held.names()) {
    assertOutputName(path);
    const full = join(outDir, path);
    const dir = dirname(full);
    if (!made.has(dir)) {
      await mkdir(dir, { recursive: true });
      made.add(dir);
    }
    const written: Promise<void> = writeFile(full, held.get(path) as Buffer).finally(() =>
      pending.delete(written),
    );
    pending.add(written);
    if (pending.size >= 16) await Promise.race(pending);
  }
  await Promise.all(pending);
}

/**
 * Renders pages, on a worker pool when the site has more than one batch of pages. `onPage` sees
 * every page as soon as it is rendered (writing it to disk); `inOrder` sees them in page order
 * (the search index must not depend on timing), with only out-of-order results held back.
 */
async function renderPages(
  site: SiteModel,
  options: ExportOptions,
  pageIndexes: number[],
  request: ExportRequest,
  spoolDir: string,
  onPage: (page: WrittenPage, done: number) => void,
  inOrder: (page: WrittenPage, index: number) => void,
): Promise<void> {
  const threads = Math.max(
    1,
    Math.min(request.workers ?? availableParallelism(), Math.ceil(pageIndexes.length / BATCH_SIZE)),
  );
  const held = new Map<number, WrittenPage>();
  let nextInOrder = 0;
  let done = 0;
  const take = (results: RenderOutcome[]) => {
    for (const result of results) {
      if ('failure' in result) throw ExportError.revive(result.failure);
      done++;
      onPage(result, done);
      held.set(result.index, result);
    }
    while (nextInOrder < pageIndexes.length && held.has(pageIndexes[nextInOrder] as number)) {
      const index = pageIndexes[nextInOrder] as number;
      inOrder(held.get(index) as WrittenPage, index);
      held.delete(index);
      nextInOrder++;
    }
  };

  // A thread loads the whole renderer before its first page: ~0.5 s of CPU, a hundred times what
  // rendering one small batch costs. A site of one batch is rendered right here instead.
  if (pageIndexes.length <= BATCH_SIZE) {
    if (request.signal?.aborted) throw new ExportError('export cancelled', []);
    take(await new BatchRenderer(site, options, spoolDir, 'pages.spool').render(pageIndexes));
    return;
  }

  const workerFile = new URL(
    `./render-thread${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`,
    import.meta.url,
  );
  const pool = new Piscina({
    filename: workerFile.href,
    workerData: { site, options, spoolDir },
    // The default young generation of a worker on a large machine lets garbage pile up to
    // hundreds of MB per thread; 32 MB keeps peak memory down at no cost in speed (measured).
    resourceLimits: { maxYoungGenerationSizeMb: 32 },
    minThreads: threads,
    maxThreads: threads,
    // Enough queued batches to keep every thread busy; more would only hold finished HTML in memory.
    maxQueue: threads * 4,
  });
  const batches: number[][] = [];
  for (let i = 0; i < pageIndexes.length; i += BATCH_SIZE) batches.push(pageIndexes.slice(i, i + BATCH_SIZE));
  try {
    const running = new Set<Promise<void>>();
    for (const batch of batches) {
      if (request.signal?.aborted) throw new ExportError('export cancelled', []);
      while (running.size >= threads * 2) await Promise.race(running);
      const task = (pool.run(batch, { signal: request.signal }) as Promise<RenderOutcome[]>).then(take);
      const tracked = task.finally(() => running.delete(tracked));
      running.add(tracked);
    }
    await Promise.all(running);
  } finally {
    await pool.destroy();
  }
}

/**
 * Links to an anchor that does not exist on the target page (an authoring slip the source already
 * has) would be broken links in the export: they are reported and pointed at the page itself.
 * Only the few pages that have such links are read back and rewritten.
 */
function unbrokenFragments(
  read: (path: string) => Buffer,
  ids: Map<string, Set<string>>,
  links: Array<FragmentLink & { from: string; file: string }>,
  warnings: SourceProblem[],
): Map<string, string> {
  const patched = new Map<string, string>();
  const attribute = (href: string) => `href="${href.replace(/&/g, '&#x26;').replace(/"/g, '&#x22;')}"`;
  const rewrite = (link: (typeof links)[number], href: string) => {
    const html = patched.get(link.from) ?? read(link.from).toString('utf8');
    patched.set(link.from, html.split(attribute(link.href)).join(attribute(href)));
  };
  for (const link of links) {
    const known = ids.get(link.target);
    if (!known || known.has(link.fragment)) continue;
    // Written the way the platform's own link check forgives (straight quotes, capitals, "?"): linked to the id.
    const near = nearAnchor(link.fragment, known);
    if (near !== undefined) {
      rewrite(link, `${link.href.slice(0, link.href.indexOf('#'))}#${near}`);
      continue;
    }
    warnings.push({
      file: link.file,
      message: `link ${link.href}: ${link.target} has no anchor #${link.fragment}; linked to the page instead`,
    });
    rewrite(link, link.href.slice(0, link.href.indexOf('#')) || '#');
  }
  return patched;
}

/** The page's id a fragment means when it is not written exactly: cleaned, lowercased, typeset. */
function nearAnchor(fragment: string, known: ReadonlySet<string>): string | undefined {
  const candidates = [fragment, typographic(fragment)].flatMap((text) => {
    const clean = cleanHeadingId(text);
    return [clean, clean.toLowerCase()];
  });
  return candidates.find((id) => known.has(id));
}

/** Appends files of the output in order into one, streaming; returns its sha256. */
async function concatenate(parts: string[], read: (path: string) => Buffer, target: string): Promise<string> {
  const hash = createHash('sha256');
  const out = createWriteStream(target);
  for (const [i, part] of parts.entries()) {
    const chunk = i === 0 ? read(part) : Buffer.concat([SEPARATOR, read(part)]);
    hash.update(chunk);
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return hash.digest('hex');
}

const SEPARATOR = Buffer.from('\n---\n\n');

/** An output directory must be new, empty, or an earlier docsnap export (replaced); never anything else. */
function checkOutDir(dir: string): string {
  if (existsSync(dir)) {
    const entries = readdirSync(dir);
    if (entries.length > 0 && !entries.includes(MANIFEST_FILE)) {
      throw new ExportError(
        `refusing to write into ${dir}: it is not empty and holds no earlier docsnap export`,
        [],
      );
    }
  }
  mkdirSync(dirname(dir), { recursive: true });
  return dir;
}

/** Progress at most every 100 ms (and always the final report), so callers can draw or store it freely. */
function throttle(
  onProgress: ((p: ExportProgress) => void) | undefined,
): (p: ExportProgress, force?: boolean) => void {
  let last = 0;
  let lastProgress = -1;
  return (progress, force = false) => {
    if (!onProgress) return;
    const now = Date.now();
    if (!force && now - last < 100 && progress.phase !== 'loading') return;
    if (!force && progress.progress === lastProgress && progress.phase === 'rendering') return;
    last = now;
    lastProgress = progress.progress;
    onProgress(progress);
  };
}
