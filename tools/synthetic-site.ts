/**
 * A synthetic documentation site of any size, the same bytes for the same seed.
 *
 *   node tools/synthetic-site.ts --pages 10000 --out DIR [--seed 7] [--format docs|hugo]
 *
 * docs: docs.json + MDX, the shape of a real docs-as-code repository: sections (tabs) of groups
 *       nested up to three deep, global anchors, navbar and footer links, logo and favicon;
 *       pages with frontmatter, headings, lists, tables, code in six languages, internal links,
 *       images, snippets imported by pages, and the common components (callouts, cards, tabs,
 *       steps, accordions, code groups, fields, frames, badges and tooltips); an API reference
 *       section from a local openapi.json ($refs included) whose operations are named in the
 *       navigation ("GET /v1/…") or by pages with `openapi:` frontmatter.
 * hugo: the same content in a minimal Hugo site, components turned into plain Markdown and API
 *       pages into parameter tables: the benchmark builds both and compares docsnap with Hugo.
 *
 * Pages average about 5 KB of source, like real repositories. Each page draws from its own random
 * stream (seed and page number), so a page's content does not depend on the pages before it.
 * Tests and the benchmark call writeSyntheticSite; the command line is for looking at a site.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';

export type SyntheticFormat = 'docs' | 'hugo';

export interface SyntheticOperation {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  /** How the navigation names it: the operation itself, or a page with `openapi:` frontmatter. */
  namedBy: 'navigation' | 'page';
}

export interface SyntheticPage {
  /** Route without extension: the MDX file is `<path>.mdx`, the Hugo one `content/<path>.md`. */
  path: string;
  title: string;
  /** The label of the section (tab) the page is in. */
  section: string;
  operation?: SyntheticOperation;
}

export interface SyntheticSite {
  name: string;
  pages: SyntheticPage[];
  /** The section labels, in navigation order. */
  sections: string[];
}

/** The site's name, in docs.json, the Hugo config and every page's title bar. */
export const SYNTHETIC_SITE_NAME = 'Synthetic Docs';

/** Writes a synthetic site of `pages` pages into `out` (created if missing) and describes it. */
export function writeSyntheticSite(
  out: string,
  options: { pages: number; seed?: number; format?: SyntheticFormat },
): SyntheticSite {
  const { pages: count, seed = 7, format = 'docs' } = options;
  if (!Number.isInteger(count) || count < 1)
    throw new Error(`pages must be a positive integer, not ${count}`);
  if (!Number.isInteger(seed) || seed < 0)
    throw new Error(`seed must be a non-negative integer, not ${seed}`);
  const layout = planLayout(count, seed);
  const write = (path: string, contents: string) => {
    mkdirSync(dirname(join(out, path)), { recursive: true });
    writeFileSync(join(out, path), contents);
  };
  if (format === 'docs') writeDocsSite(layout, seed, write);
  else if (format === 'hugo') writeHugoSite(layout, seed, write);
  else throw new Error(`format must be docs or hugo, not ${String(format)}`);
  return {
    name: SYNTHETIC_SITE_NAME,
    sections: layout.sections.map((s) => s.label),
    pages: layout.pages.map(({ path, title, section, operation }) => ({
      path,
      title,
      section: section.label,
      ...(operation && {
        operation: { method: operation.method, path: operation.path, namedBy: operation.namedBy },
      }),
    })),
  };
}

// ---- randomness -------------------------------------------------------------------------------

type Random = () => number;

/** A Weyl sequence through MurmurHash3's 32-bit finalizer: fast, and the same numbers everywhere. */
function randomStream(...keys: number[]): Random {
  let state = 0x2545f491;
  for (const key of keys) state = finalize((state ^ key) + 0x6a09e667);
  return () => {
    state = (state + 0x9e3779b9) >>> 0;
    return finalize(state) / 2 ** 32;
  };
}

function finalize(value: number): number {
  let h = value >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Draws of one random stream. */
class Draw {
  readonly next: Random;
  constructor(next: Random) {
    this.next = next;
  }
  /** An integer in [low, high]. */
  int(low: number, high: number): number {
    return low + Math.floor(this.next() * (high - low + 1));
  }
  one<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  times<T>(low: number, high: number, make: (i: number) => T): T[] {
    return Array.from({ length: this.int(low, high) }, (_, i) => make(i));
  }
}

// ---- words ------------------------------------------------------------------------------------

const VOCABULARY = (
  'account alert archive audit backup batch branch bucket build bundle cache certificate channel ' +
  'client cluster commit config connector console container cursor dashboard database deploy ' +
  'domain endpoint event export field filter gateway header index invoice key label latency ' +
  'limit log member metric migration namespace node payload pipeline policy project queue quota ' +
  'region release replica request resource response role route schedule schema scope search ' +
  'secret server session snapshot status storage stream tenant throughput token trigger upload ' +
  'usage version webhook worker workspace'
).split(' ');

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const plural = (word: string) =>
  word.endsWith('s') ? `${word}es` : word.endsWith('y') ? `${word.slice(0, -1)}ies` : `${word}s`;
const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-');

function title(draw: Draw): string {
  return capitalized(draw.times(2, 4, () => draw.one(VOCABULARY)).join(' '));
}

/** A sentence: words, sometimes one as `code` or **bold**, and sometimes a link to another page. */
function sentence(draw: Draw, linkTo?: () => Page): Text {
  const words = draw.times(6, 18, () => draw.one(VOCABULARY));
  words[0] = capitalized(words[0] as string);
  if (draw.chance(0.25)) words[draw.int(1, words.length - 1)] = `\`${draw.one(VOCABULARY)}\``;
  if (draw.chance(0.15)) words[draw.int(1, words.length - 1)] = `**${draw.one(VOCABULARY)}**`;
  if (linkTo && draw.chance(0.1)) return [`${words.join(' ')} (see `, { link: linkTo() }, ').'];
  return [`${words.join(' ')}.`];
}

function paragraph(draw: Draw, linkTo?: () => Page): Text {
  return draw.times(2, 5, () => sentence(draw, linkTo)).flatMap((s, i) => (i ? [' ', ...s] : s));
}

/** Inline Markdown, with links to pages kept apart: each format writes a link its own way. */
type Text = Array<string | { link: Page }>;

const plain = (text: Text) =>
  text.map((part) => (typeof part === 'string' ? part : part.link.title)).join('');

// ---- layout -----------------------------------------------------------------------------------

interface Section {
  label: string;
  slug: string;
  api: boolean;
  groups: Group[];
}

interface Group {
  label: string;
  /** The resource (singular) the operations of an API reference group act on. */
  resource: string;
  pages: Page[];
}

interface Operation extends SyntheticOperation {
  /** The resource it acts on (singular), whose schema its request and response use. */
  resource: string;
  summary: string;
  index: number;
}

interface Page {
  index: number;
  path: string;
  title: string;
  description: string;
  section: Section;
  operation?: Operation;
}

interface Layout {
  sections: Section[];
  pages: Page[];
  /** The pages that are not API operations: what content links point to. */
  content: Page[];
  operations: Operation[];
}

const CONTENT_SECTIONS = [
  'Guides',
  'Concepts',
  'Tutorials',
  'Integrations',
  'Operations',
  'Platform',
  'SDKs',
];
const METHODS = ['GET', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
/** Pages a group holds directly; the rest go into a subgroup (which nests the same way). */
const DIRECT_PAGES = 5;

/**
 * Sections, groups and page titles. Sites of 20 pages or more give 15% of them to an API
 * reference section; content sections hold about 1,200 pages each (at most 7), so a 500-page
 * site has one section over the 200 listed pages past which docsnap collapses sidebar groups.
 */
function planLayout(count: number, seed: number): Layout {
  const draw = new Draw(randomStream(seed, 0));
  const apiCount = count >= 20 ? Math.round(count * 0.15) : 0;
  const contentCount = count - apiCount;
  const sectionCount = Math.min(CONTENT_SECTIONS.length, Math.ceil(contentCount / 1200));
  const sections: Section[] = CONTENT_SECTIONS.slice(0, sectionCount).map((label) => ({
    label,
    slug: slug(label),
    api: false,
    groups: [],
  }));
  const apiSection: Section = { label: 'API reference', slug: 'api-reference', api: true, groups: [] };
  if (apiCount) sections.push(apiSection);

  const pages: Page[] = [];
  const operations: Operation[] = [];
  const usedPaths = new Set<string>();
  const uniquePath = (path: string) => {
    let unique = path;
    for (let n = 2; usedPaths.has(unique); n++) unique = `${path}-${n}`;
    usedPaths.add(unique);
    return unique;
  };
  /** Fills a section with groups of 8 to 14 pages. */
  const fill = (section: Section, total: number, makePage: (group: Group, groupSlug: string) => Page) => {
    for (let left = total; left > 0; ) {
      const size = Math.min(left, draw.int(8, 14));
      const resource = draw.one(VOCABULARY);
      const label = section.api ? capitalized(plural(resource)) : title(draw);
      const group: Group = { label, resource, pages: [] };
      const groupSlug = uniquePath(`${section.slug}/${slug(label)}`);
      for (let i = 0; i < size; i++) group.pages.push(makePage(group, groupSlug));
      section.groups.push(group);
      left -= size;
    }
  };

  sections.forEach((section, s) => {
    if (section.api) return;
    const share = Math.floor(contentCount / sectionCount) + (s < contentCount % sectionCount ? 1 : 0);
    fill(section, share, (_group, groupSlug) => {
      const pageTitle = title(draw);
      const page: Page = {
        index: pages.length,
        path: uniquePath(`${groupSlug}/${slug(pageTitle)}`),
        title: pageTitle,
        description: plain(sentence(draw)),
        section,
      };
      pages.push(page);
      return page;
    });
  });
  const content = [...pages];

  const usedRoutes = new Set<string>();
  fill(apiSection, apiCount, (group, groupSlug) => {
    const method = draw.one(METHODS);
    let path = `/v1/${plural(group.resource)}/{id}/${draw.one(VOCABULARY)}`;
    while (usedRoutes.has(`${method} ${path}`)) path += `/${draw.one(VOCABULARY)}`;
    usedRoutes.add(`${method} ${path}`);
    const summary = title(draw);
    const operation: Operation = {
      method,
      path,
      namedBy: draw.chance(0.5) ? 'navigation' : 'page',
      resource: group.resource,
      summary,
      index: operations.length,
    };
    operations.push(operation);
    const page: Page = {
      index: pages.length,
      path: uniquePath(`${groupSlug}/${slug(summary)}`),
      title: summary,
      description: plain(sentence(draw)),
      section: apiSection,
      operation,
    };
    pages.push(page);
    return page;
  });
  return { sections, pages, content, operations };
}

// ---- page content -----------------------------------------------------------------------------

interface Code {
  language: string;
  file?: string;
  text: string;
}

type Block =
  | { kind: 'paragraph'; text: Text }
  | { kind: 'heading'; text: string }
  | { kind: 'code'; code: Code }
  | { kind: 'callout'; type: string; text: Text }
  | { kind: 'cards'; cards: Array<{ title: string; icon: string; page: Page; text: Text }> }
  | { kind: 'tabs'; tabs: Code[] }
  | { kind: 'steps'; steps: Array<{ title: string; text: Text; code: Code }> }
  | { kind: 'accordions'; items: Array<{ title: string; text: Text }> }
  | { kind: 'code-group'; codes: Code[] }
  | { kind: 'fields'; fields: Array<{ name: string; type: string; required: boolean; text: Text }> }
  | { kind: 'table'; rows: string[][] }
  | { kind: 'figure'; image: string; caption: string }
  | { kind: 'list'; items: Array<{ text: Text; children: Text[] }> }
  | { kind: 'badges'; word: string; tip: string; text: Text }
  | { kind: 'snippet'; snippet: Snippet };

interface Snippet {
  name: string;
  type: string;
  text: string;
}

const SNIPPETS: Snippet[] = [
  { name: 'BetaNotice', type: 'Warning', text: 'This feature is in beta: its settings may change.' },
  { name: 'SupportContact', type: 'Info', text: 'Questions? The support team answers within a day.' },
  { name: 'VersionNote', type: 'Note', text: 'Available from version 2.4 of every SDK.' },
];
const FIGURES = 8;
const LANGUAGES = ['bash', 'typescript', 'python', 'go', 'json', 'yaml'];
const CALLOUTS = ['Note', 'Tip', 'Warning', 'Info', 'Check'];
const ICONS = ['rocket', 'code', 'book', 'key', 'server', 'bolt'];

function code(draw: Draw, language = draw.one(LANGUAGES)): Code {
  const [a, b, c] = [draw.one(VOCABULARY), draw.one(VOCABULARY), draw.one(VOCABULARY)];
  const n = draw.int(1, 500);
  const texts: Record<string, () => string> = {
    bash: () =>
      `curl https://api.example.com/v1/${plural(a)}?limit=${n} \\\n  --header "Authorization: Bearer $API_TOKEN" \\\n  --header "X-${capitalized(b)}: ${c}"`,
    typescript: () =>
      `import { Example } from '@example/sdk';\n\nconst example = new Example({ token: process.env.API_TOKEN });\nconst ${a} = await example.${plural(b)}.retrieve('${c}_${n}');\nconsole.log(${a}.status);`,
    python: () =>
      `import os\nfrom example import Example\n\nexample = Example(token=os.environ["API_TOKEN"])\nfor ${a} in example.${plural(b)}.list(limit=${n}):\n    print(${a}.${c})`,
    go: () =>
      `client := example.New(os.Getenv("API_TOKEN"))\n${a}, err := client.${capitalized(plural(b))}.Get(ctx, "${c}_${n}")\nif err != nil {\n\treturn fmt.Errorf("get ${b}: %w", err)\n}\nfmt.Println(${a}.Status)`,
    json: () => JSON.stringify({ id: `${a}_${n}`, [b]: c, status: 'active', count: n }, null, 2),
    yaml: () => `${a}:\n  enabled: true\n  ${b}: ${c}\n  replicas: ${(n % 5) + 1}`,
  };
  const text = (texts[language] as () => string)();
  const extension = { bash: 'sh', typescript: 'ts', python: 'py', go: 'go', json: 'json', yaml: 'yaml' }[
    language
  ];
  return { language, text, ...(draw.chance(0.4) && { file: `${b}.${extension}` }) };
}

/** The blocks of a content page: an introduction, then two to five sections. */
function contentBlocks(draw: Draw, linkTo: () => Page): Block[] {
  const para = (): Block => ({ kind: 'paragraph', text: paragraph(draw, linkTo) });
  const blocks: Block[] = [];
  if (draw.chance(0.1)) blocks.push({ kind: 'snippet', snippet: draw.one(SNIPPETS) });
  blocks.push({ kind: 'paragraph', text: [...paragraph(draw), ' See ', { link: linkTo() }, '.'] });
  for (let s = draw.int(2, 5); s > 0; s--) {
    blocks.push({ kind: 'heading', text: title(draw) }, para());
    blocks.push(component(draw, linkTo));
    blocks.push({ kind: 'code', code: code(draw) }, para());
  }
  return blocks;
}

function component(draw: Draw, linkTo: () => Page): Block {
  const text = () => sentence(draw, linkTo);
  switch (draw.int(0, 11)) {
    case 0:
      return { kind: 'callout', type: draw.one(CALLOUTS), text: [...text(), ' ', { link: linkTo() }] };
    case 1:
      return {
        kind: 'cards',
        // A card is a link itself: its text links nowhere.
        cards: draw.times(2, 4, () => ({
          title: title(draw),
          icon: draw.one(ICONS),
          page: linkTo(),
          text: sentence(draw),
        })),
      };
    case 2:
      return { kind: 'tabs', tabs: ['typescript', 'python', 'go'].map((language) => code(draw, language)) };
    case 3:
      return {
        kind: 'steps',
        steps: draw.times(2, 4, () => ({
          title: title(draw),
          text: paragraph(draw),
          code: code(draw, draw.one(['bash', 'yaml'])),
        })),
      };
    case 4:
      return {
        kind: 'accordions',
        items: draw.times(2, 3, () => ({ title: title(draw), text: paragraph(draw) })),
      };
    case 5:
      return { kind: 'code-group', codes: [code(draw, 'bash'), code(draw, 'json')] };
    case 6:
      return {
        kind: 'fields',
        fields: draw.times(2, 4, () => ({
          name: draw.one(VOCABULARY),
          type: draw.one(['string', 'integer', 'boolean', 'object']),
          required: draw.chance(0.5),
          text: text(),
        })),
      };
    case 7:
      return {
        kind: 'table',
        rows: draw.times(3, 5, () => [
          `\`${draw.one(VOCABULARY)}\``,
          draw.one(['string', 'number', 'boolean']),
          plain(sentence(draw)),
        ]),
      };
    case 8:
      return { kind: 'figure', image: `images/figure-${draw.int(0, FIGURES - 1)}.svg`, caption: title(draw) };
    case 9:
      return {
        kind: 'list',
        items: draw.times(2, 4, () => ({ text: text(), children: draw.times(0, 2, () => text()) })),
      };
    case 10:
      return { kind: 'badges', word: draw.one(VOCABULARY), tip: plain(sentence(draw)), text: text() };
    default:
      return { kind: 'paragraph', text: paragraph(draw, linkTo) };
  }
}

/** What a content page says, the same for both formats. */
function pageBlocks(layout: Layout, page: Page, seed: number): Block[] {
  const draw = new Draw(randomStream(seed, 1, page.index));
  return contentBlocks(draw, () => draw.one(layout.content));
}

// ---- docs.json + MDX --------------------------------------------------------------------------

type Write = (path: string, contents: string) => void;

const indent = (text: string, by: number) =>
  text
    .split('\n')
    .map((line) => (line ? ' '.repeat(by) + line : line))
    .join('\n');
const attr = (value: string) => JSON.stringify(value);

function fence(c: Code): string {
  return `\`\`\`${c.language}${c.file ? ` ${c.file}` : ''}\n${c.text}\n\`\`\``;
}

function mdxText(text: Text): string {
  return text
    .map((part) => (typeof part === 'string' ? part : `[${part.link.title}](/${part.link.path})`))
    .join('');
}

function mdxBlock(block: Block): string {
  switch (block.kind) {
    case 'paragraph':
      return mdxText(block.text);
    case 'heading':
      return `## ${block.text}`;
    case 'code':
      return fence(block.code);
    case 'callout':
      return `<${block.type}>\n  ${mdxText(block.text)}\n</${block.type}>`;
    case 'cards': {
      const cards = block.cards.map(
        (c) =>
          `  <Card title=${attr(c.title)} icon=${attr(c.icon)} href=${attr(`/${c.page.path}`)}>\n    ${mdxText(c.text)}\n  </Card>`,
      );
      return `<CardGroup cols={2}>\n${cards.join('\n')}\n</CardGroup>`;
    }
    case 'tabs': {
      const tabs = block.tabs.map(
        (c) => `  <Tab title=${attr(c.language)}>\n${indent(fence(c), 4)}\n  </Tab>`,
      );
      return `<Tabs>\n${tabs.join('\n')}\n</Tabs>`;
    }
    case 'steps': {
      const steps = block.steps.map(
        (s) =>
          `  <Step title=${attr(s.title)}>\n    ${mdxText(s.text)}\n\n${indent(fence(s.code), 4)}\n  </Step>`,
      );
      return `<Steps>\n${steps.join('\n')}\n</Steps>`;
    }
    case 'accordions': {
      const items = block.items.map(
        (a) => `  <Accordion title=${attr(a.title)}>\n    ${mdxText(a.text)}\n  </Accordion>`,
      );
      return `<AccordionGroup>\n${items.join('\n')}\n</AccordionGroup>`;
    }
    case 'code-group':
      return `<CodeGroup>\n\n${block.codes.map(fence).join('\n\n')}\n\n</CodeGroup>`;
    case 'fields':
      return block.fields
        .map(
          (f) =>
            `<ParamField body=${attr(f.name)} type=${attr(f.type)}${f.required ? ' required' : ''}>\n  ${mdxText(f.text)}\n</ParamField>`,
        )
        .join('\n\n');
    case 'table':
      return tableMarkdown(block.rows);
    case 'figure':
      return `<Frame caption=${attr(block.caption)}>\n  <img src=${attr(`/${block.image}`)} alt=${attr(block.caption)} />\n</Frame>`;
    case 'list':
      return block.items
        .map((item) =>
          [`- ${mdxText(item.text)}`, ...item.children.map((c) => `  - ${mdxText(c)}`)].join('\n'),
        )
        .join('\n');
    case 'badges':
      return `<Badge>${capitalized(block.word)}</Badge> ${mdxText(block.text)} A <Tooltip tip=${attr(block.tip)}>${block.word}</Tooltip> is explained on hover.`;
    case 'snippet':
      return `<${block.snippet.name} />`;
  }
}

function tableMarkdown(rows: string[][]): string {
  return [
    '| Field | Type | Description |',
    '| --- | --- | --- |',
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
}

function writeDocsSite(layout: Layout, seed: number, write: Write): void {
  write('docs.json', `${JSON.stringify(docsJson(layout), null, 2)}\n`);
  if (layout.operations.length)
    write('openapi.json', `${JSON.stringify(openapiDocument(layout, seed), null, 2)}\n`);
  for (const snippet of SNIPPETS)
    write(`snippets/${slug(snippet.name)}.mdx`, `<${snippet.type}>\n  ${snippet.text}\n</${snippet.type}>\n`);
  writeImages(write, '');
  for (const page of layout.pages) {
    if (page.operation?.namedBy === 'navigation') continue;
    const front = [`title: ${attr(page.title)}`, `description: ${attr(page.description)}`];
    if (page.operation) {
      front.push(`openapi: ${attr(`${page.operation.method} ${page.operation.path}`)}`);
      write(`${page.path}.mdx`, `---\n${front.join('\n')}\n---\n`);
      continue;
    }
    const blocks = pageBlocks(layout, page, seed);
    const imports = [...new Set(blocks.flatMap((b) => (b.kind === 'snippet' ? [b.snippet.name] : [])))].map(
      (name) => `import ${name} from ${attr(`/snippets/${slug(name)}.mdx`)};\n\n`,
    );
    write(
      `${page.path}.mdx`,
      `---\n${front.join('\n')}\n---\n\n${imports.join('')}${blocks.map(mdxBlock).join('\n\n')}\n`,
    );
  }
}

function docsJson(layout: Layout) {
  const entry = (page: Page) =>
    page.operation?.namedBy === 'navigation' ? `${page.operation.method} ${page.operation.path}` : page.path;
  /** A group lists DIRECT_PAGES pages, then a subgroup of the rest, which nests the same way. */
  const nest = (label: string, pages: Page[]): object => ({
    group: label,
    pages:
      pages.length > DIRECT_PAGES + 1
        ? [
            ...pages.slice(0, DIRECT_PAGES).map(entry),
            nest(`More on ${label.toLowerCase()}`, pages.slice(DIRECT_PAGES)),
          ]
        : pages.map(entry),
  });
  return {
    $schema: 'https://mintlify.com/docs.json',
    theme: 'mint',
    name: SYNTHETIC_SITE_NAME,
    colors: { primary: '#1F6FEB', light: '#58A6FF', dark: '#1F6FEB' },
    logo: { light: '/logo/light.svg', dark: '/logo/dark.svg' },
    favicon: '/favicon.svg',
    navbar: { links: [{ label: 'Support', href: 'mailto:support@example.com' }] },
    navigation: {
      tabs: layout.sections.map((section) => ({
        tab: section.label,
        ...(section.api && { openapi: 'openapi.json' }),
        groups: section.groups.map((group) => nest(group.label, group.pages)),
      })),
      global: {
        anchors: [
          { anchor: 'Status', href: 'https://status.example.com', icon: 'signal' },
          { anchor: 'Changelog', href: 'https://example.com/changelog', icon: 'list' },
        ],
      },
    },
    footer: { socials: { github: 'https://github.com/example', x: 'https://x.com/example' } },
  };
}

interface OperationDetails {
  description: string;
  parameters: Array<{
    name: string;
    in: 'path' | 'query';
    required?: boolean;
    type: string;
    description: string;
  }>;
  /** The properties of its resource's schema (the first operation on a resource defines them). */
  properties: Array<{ name: string; type: string; description: string }>;
}

/** What the API reference says about an operation, the same for both formats. */
function operationDetails(op: Operation, seed: number): OperationDetails {
  const draw = new Draw(randomStream(seed, 2, op.index));
  const type = () => draw.one(['string', 'integer', 'boolean']);
  return {
    description: plain(paragraph(draw)),
    parameters: [
      { name: 'id', in: 'path', required: true, type: 'string', description: plain(sentence(draw)) },
      ...draw.times(0, 3, (k) => ({
        name: `${draw.one(VOCABULARY)}_${k}`,
        in: 'query' as const,
        type: type(),
        description: plain(sentence(draw)),
      })),
    ],
    properties: ['id', ...draw.times(2, 5, () => draw.one(VOCABULARY))].map((name) => ({
      name,
      type: name === 'id' ? 'string' : type(),
      description: plain(sentence(draw)),
    })),
  };
}

/** Operations and the schemas of their resources, by resource. */
function apiModel(layout: Layout, seed: number) {
  const details = layout.operations.map((op) => operationDetails(op, seed));
  const resources = new Map<string, OperationDetails['properties']>();
  layout.operations.forEach((op, i) => {
    if (!resources.has(op.resource)) resources.set(op.resource, (details[i] as OperationDetails).properties);
  });
  return { details, resources };
}

const schemaName = (resource: string) => capitalized(resource);

/** The API reference: OpenAPI 3.0 with shared schemas under components, referenced by $ref. */
function openapiDocument(layout: Layout, seed: number) {
  const { details, resources } = apiModel(layout, seed);
  const schemas: Record<string, object> = {
    Error: {
      type: 'object',
      required: ['error'],
      properties: { error: { type: 'string', description: 'What went wrong, in one sentence.' } },
    },
  };
  for (const [resource, properties] of resources) {
    schemas[schemaName(resource)] = {
      type: 'object',
      required: ['id'],
      properties: Object.fromEntries(
        properties.map((p) => [p.name, { type: p.type, description: p.description }]),
      ),
    };
  }
  const paths: Record<string, Record<string, object>> = {};
  layout.operations.forEach((op, i) => {
    const { description, parameters } = details[i] as OperationDetails;
    const json = (name: string) => ({
      'application/json': { schema: { $ref: `#/components/schemas/${name}` } },
    });
    const item = paths[op.path] ?? {};
    paths[op.path] = item;
    item[op.method.toLowerCase()] = {
      operationId: `${op.method.toLowerCase()}${op.summary.replace(/ /g, '')}${op.index}`,
      summary: op.summary,
      description,
      tags: [capitalized(plural(op.resource))],
      security: [{ bearerAuth: [] }],
      parameters: parameters.map((p) => ({
        name: p.name,
        in: p.in,
        ...(p.required && { required: true }),
        schema: { type: p.type },
        description: p.description,
      })),
      ...(['POST', 'PUT', 'PATCH'].includes(op.method) && {
        requestBody: { required: true, content: json(schemaName(op.resource)) },
      }),
      responses: {
        '200': { description: 'The resource.', content: json(schemaName(op.resource)) },
        '404': { description: 'No such resource.', content: json('Error') },
      },
    };
  });
  return {
    openapi: '3.0.3',
    info: { title: `${SYNTHETIC_SITE_NAME} API`, version: '1.0.0' },
    servers: [{ url: 'https://api.example.com' }],
    paths,
    components: { schemas, securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
  };
}

function writeImages(write: Write, prefix: string): void {
  const svg = (fill: string, label: string) =>
    `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="180" viewBox="0 0 320 180"><rect width="320" height="180" fill="${fill}"/><text x="16" y="96" font-family="sans-serif" font-size="24" fill="#fff">${label}</text></svg>\n`;
  for (let k = 0; k < FIGURES; k++)
    write(`${prefix}images/figure-${k}.svg`, svg(`hsl(${k * 45} 60% 40%)`, `Figure ${k}`));
  write(`${prefix}logo/light.svg`, svg('#1F6FEB', SYNTHETIC_SITE_NAME));
  write(`${prefix}logo/dark.svg`, svg('#0D1117', SYNTHETIC_SITE_NAME));
  write(`${prefix}favicon.svg`, svg('#1F6FEB', 'S'));
}

// ---- Hugo twin --------------------------------------------------------------------------------

function markdownText(text: Text): string {
  return text
    .map((part) =>
      typeof part === 'string' ? part : `[${part.link.title}]({{< relref "/${part.link.path}.md" >}})`,
    )
    .join('');
}

/** A block in plain Markdown: what a site generator without components shows for it. */
function markdownBlock(block: Block): string {
  switch (block.kind) {
    case 'callout':
      return `> **${block.type}:** ${markdownText(block.text)}`;
    case 'cards':
      return block.cards
        .map((c) => `- **[${c.title}]({{< relref "/${c.page.path}.md" >}})**: ${markdownText(c.text)}`)
        .join('\n');
    case 'tabs':
      return block.tabs.map((c) => `**${c.language}**\n\n${fence(c)}`).join('\n\n');
    case 'steps':
      return block.steps
        .map(
          (s, i) => `${i + 1}. **${s.title}**\n\n   ${markdownText(s.text)}\n\n${indent(fence(s.code), 3)}`,
        )
        .join('\n\n');
    case 'accordions':
      return block.items.map((a) => `**${a.title}**\n\n${markdownText(a.text)}`).join('\n\n');
    case 'code-group':
      return block.codes.map(fence).join('\n\n');
    case 'fields':
      return block.fields
        .map((f) => `**\`${f.name}\`** (${f.type}${f.required ? ', required' : ''}): ${markdownText(f.text)}`)
        .join('\n\n');
    case 'figure':
      return `![${block.caption}](/${block.image})\n\n*${block.caption}*`;
    case 'list':
      return block.items
        .map((item) =>
          [`- ${markdownText(item.text)}`, ...item.children.map((c) => `  - ${markdownText(c)}`)].join('\n'),
        )
        .join('\n');
    case 'badges':
      return `**${capitalized(block.word)}** ${markdownText(block.text)} A ${block.word} is explained on hover.`;
    case 'snippet':
      return `> **${block.snippet.type}:** ${block.snippet.text}`;
    case 'paragraph':
      return markdownText(block.text);
    default:
      return mdxBlock(block); // headings, code and tables are Markdown already
  }
}

/** An API page as Hugo gets it: method and path, description, parameters and an example response. */
function apiMarkdown(
  op: Operation,
  details: OperationDetails,
  properties: OperationDetails['properties'],
): string {
  const example = Object.fromEntries(
    properties.map((p) => [p.name, p.type === 'string' ? `${p.name}_1` : p.type === 'integer' ? 1 : true]),
  );
  const parameters = [
    '| Parameter | In | Type | Description |',
    '| --- | --- | --- | --- |',
    ...details.parameters.map((p) => `| \`${p.name}\` | ${p.in} | ${p.type} | ${p.description} |`),
  ];
  return [
    `**${op.method}** \`${op.path}\``,
    details.description,
    parameters.join('\n'),
    fence({ language: 'json', text: JSON.stringify(example, null, 2) }),
  ].join('\n\n');
}

function writeHugoSite(layout: Layout, seed: number, write: Write): void {
  write(
    'hugo.toml',
    [
      'baseURL = "/"',
      `title = ${attr(SYNTHETIC_SITE_NAME)}`,
      'disableKinds = ["taxonomy", "term", "RSS"]',
      '[markup.goldmark.renderer]',
      'unsafe = true',
      '[markup.highlight]',
      'noClasses = false',
      '',
    ].join('\n'),
  );
  write(
    'layouts/_default/baseof.html',
    [
      '<!doctype html>',
      '<html lang="en"><head><meta charset="utf-8"><title>{{ .Title }} · {{ site.Title }}</title>',
      '<link rel="icon" href="/favicon.svg"><link rel="stylesheet" href="/style.css"></head>',
      '<body><header><a href="/"><img src="/logo/light.svg" alt="{{ site.Title }}" height="32"></a></header>',
      '<nav>{{ range .CurrentSection.RegularPages }}<a href="{{ .RelPermalink }}">{{ .Title }}</a>{{ end }}</nav>',
      '<main>{{ block "main" . }}{{ end }}</main>',
      '<aside>{{ .TableOfContents }}</aside></body></html>',
      '',
    ].join('\n'),
  );
  const main = '{{ define "main" }}<h1>{{ .Title }}</h1>{{ .Content }}{{ end }}\n';
  write('layouts/_default/single.html', main);
  write('layouts/_default/list.html', main);
  write(
    'static/style.css',
    'body { font-family: sans-serif; display: grid; grid-template-columns: 16rem 1fr 14rem; }\n',
  );
  writeImages(write, 'static/');
  const { details, resources } = apiModel(layout, seed);
  for (const page of layout.pages) {
    const op = page.operation;
    const body = op
      ? apiMarkdown(op, details[op.index] as OperationDetails, resources.get(op.resource) ?? [])
      : pageBlocks(layout, page, seed).map(markdownBlock).join('\n\n');
    write(
      `content/${page.path}.md`,
      `---\ntitle: ${attr(page.title)}\ndescription: ${attr(page.description)}\n---\n\n${body}\n`,
    );
  }
}

// ---- command line -----------------------------------------------------------------------------

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      pages: { type: 'string', default: '1000' },
      seed: { type: 'string', default: '7' },
      format: { type: 'string', default: 'docs' },
      out: { type: 'string' },
    },
  });
  if (!values.out)
    throw new Error(
      'usage: node tools/synthetic-site.ts --pages N --out DIR [--seed S] [--format docs|hugo]',
    );
  const site = writeSyntheticSite(values.out, {
    pages: Number(values.pages),
    seed: Number(values.seed),
    format: values.format as SyntheticFormat,
  });
  console.log(`wrote ${site.pages.length} pages (${values.format}, seed ${values.seed}) to ${values.out}`);
}
