/**
 * How deeply a page nests lists, block quotes and elements, measured in one linear pass over the
 * source before it is parsed. Both parsers take time that grows faster than the source with depth
 * (`- ` repeated 10,000 times on one line: 15 s with markdown-rs, 50 s with micromark), and
 * markdown-rs overflows a worker thread's stack on some 30,000 nested block quotes, which kills
 * the whole process: depth has to be refused before either parser sees it.
 *
 * The measure is an upper bound of what the parsers build, never below it, so that no trick of
 * syntax can hide nesting from it:
 * - block quote and list markers at the start of a line count, and list items stay open on the
 *   following lines while they could (indentation, lazy continuation);
 * - every `<tag>` counts, inline code included (a parser may read a backtick that seems to open
 *   code differently); tags opened inside a paragraph are dropped where the paragraph certainly
 *   ends (a blank line, a new list item), as MDX requires them closed there;
 * - only fenced code is skipped (code examples hold any number of unbalanced `<T>`), and a fence
 *   is recognized only where the parsers certainly see one: not inside an import/export block, a
 *   `{…}` expression or a raw HTML block, and it ends with its container, as in CommonMark.
 * Where it cannot tell, it counts more; real documentation stays far below the limit.
 */

import { overBudget } from '../budgets.ts';

export type MarkupSyntax = 'mdx' | 'md';

export interface Nesting {
  /** The deepest point: block quotes + list items + open elements around it. */
  depth: number;
  /** The line (1-based) where that depth is first reached. */
  line: number;
}

/**
 * The deepest nesting of a source, or, once it goes past `limit`, the depth reached by the end of
 * the line where it did (the scan stops there: that is enough to refuse the file).
 */
export function measureNesting(
  source: string,
  syntax: MarkupSyntax,
  limit = Number.POSITIVE_INFINITY,
): Nesting {
  return new NestingScanner(source, syntax === 'mdx').scan(limit);
}

/** Refuses a source nested deeper than `limit`, naming the file and the line. */
export function checkNesting(source: string, file: string, syntax: MarkupSyntax, limit: number): void {
  const { depth, line } = measureNesting(source, syntax, limit);
  if (depth > limit)
    throw overBudget(
      { file, line },
      `lists, block quotes and elements nested ${depth} deep exceed the limit of ${limit}`,
      'nestingDepth',
    );
}

interface OpenTag {
  name: string;
  /** Opened on a line with text, i.e. inside a paragraph. */
  inline: boolean;
  line: number;
}

interface Fence {
  marker: number;
  length: number;
  /** Block quote markers around the fence: a line with fewer ends it. */
  quotes: number;
  /** Content column of the list item around the fence: a line indented less ends it. */
  indent: number;
}

/** What a line starts with: its container markers and where its content begins. */
interface LinePrefix {
  /** Offset of the first character after the markers and indentation. */
  content: number;
  /** Column of that character (tabs to multiples of 4). */
  column: number;
  quotes: number;
  /** Column after the last block quote marker and its optional space. */
  quoteColumn: number;
}

type TagResult =
  | { kind: 'open' | 'close' | 'self'; name: string; end: number }
  /** Not a tag by either grammar: scanning goes on right after the `<`. */
  | { kind: 'none' }
  /** A tag whose attribute value spans lines or holds a `<`: counted as open, and the value scanned as text. */
  | { kind: 'fallback'; name: string; end: number };

const NEWLINE = 10;
const SPACE = 32;
const TAB = 9;
const CR = 13;
const BACKSLASH = 92;
const LT = 60;
const GT = 62;
const SLASH = 47;
const EQUALS = 61;
const LBRACE = 123;
const RBRACE = 125;
const BACKTICK = 96;
const TILDE = 126;

/** HTML elements that never hold content, and those a following sibling closes: they do not nest in .md raw HTML. */
const NON_NESTING_HTML = new Set(
  'area base br col embed hr img input link meta param source track wbr p li dt dd tr td th thead tbody tfoot option optgroup rt rp colgroup caption'.split(
    ' ',
  ),
);
/** Raw HTML blocks of CommonMark (kinds 1–5) that end at a marker, not at a blank line. */
const HTML_BLOCK_ENDS: [RegExp, RegExp][] = [
  [/^<(?:script|pre|style|textarea)(?:[\s>]|$)/i, /<\/(?:script|pre|style|textarea)>/i],
  [/^<!--/, /-->/],
  [/^<\?/, /\?>/],
  [/^<![A-Za-z]/, />/],
  [/^<!\[CDATA\[/, /\]\]>/],
];

const isSpace = (c: number) => c === SPACE || c === TAB || c === CR;
const isDigit = (c: number) => c >= 48 && c <= 57;
const isLetter = (c: number) => (c | 32) >= 97 && (c | 32) <= 122;
const isNameStart = (c: number) => isLetter(c) || c === 36 || c === 95; // $ _
const isNameChar = (c: number) => isNameStart(c) || isDigit(c) || c === 45; // -

class NestingScanner {
  private readonly src: string;
  private readonly mdx: boolean;
  private line = 1;
  private deepest: Nesting = { depth: 0, line: 1 };
  /** Content columns of the list items open at this point. */
  private readonly lists: number[] = [];
  private readonly tags: OpenTag[] = [];
  /** How many of each name are in `tags`, so a closing tag finds its opening one in O(1). */
  private readonly tagCounts = new Map<string, number>();
  private fence: Fence | undefined;
  /** `{` not yet closed in text (MDX expressions); never below 0. */
  private braces = 0;
  /** Inside an import/export block (MDX) or a raw HTML block (.md), where no fence starts. */
  private esm: { backticks: number; brackets: number } | undefined;
  private htmlBlock: RegExp | 'blank' | undefined;
  private quotes = 0;
  private lineHasText = false;
  private previousBlank = true;

  constructor(source: string, mdx: boolean) {
    this.src = source;
    this.mdx = mdx;
  }

  scan(limit: number): Nesting {
    const { src } = this;
    let pos = 0;
    while (pos <= src.length && this.deepest.depth <= limit) {
      const end = this.lineEnd(pos);
      if (this.fence && this.continuesFence(pos, end)) {
        pos = end + 1;
        this.line++;
        continue;
      }
      pos = this.scanLine(pos, end);
    }
    return this.deepest;
  }

  private lineEnd(pos: number): number {
    const end = this.src.indexOf('\n', pos);
    return end < 0 ? this.src.length : end;
  }

  /** Scans one line outside fenced code, and any following lines a tag spans; returns where the next line starts. */
  private scanLine(start: number, end: number): number {
    const { src } = this;
    if (this.isBlank(start, end)) {
      this.blankLine();
      this.line++;
      return end + 1;
    }
    const prefix = this.linePrefix(start);
    this.quotes = prefix.quotes;
    this.lineHasText = false;
    this.measure(0);
    this.trackBlocks(start, prefix, end);
    if (this.opensFence(prefix, end)) {
      this.endLine();
      return end + 1;
    }
    let pos = prefix.content;
    while (pos < src.length) {
      const c = src.charCodeAt(pos);
      if (c === NEWLINE) {
        this.endLine();
        return pos + 1;
      }
      if (c === BACKSLASH && pos + 1 < src.length && src.charCodeAt(pos + 1) !== NEWLINE) {
        this.lineHasText = true;
        pos += 2;
      } else if (c === LT) {
        pos = this.tag(pos);
      } else {
        if (!isSpace(c)) this.lineHasText = true;
        if (this.mdx && c === LBRACE) this.braces++;
        else if (this.mdx && c === RBRACE) this.braces = Math.max(0, this.braces - 1);
        pos++;
      }
    }
    this.endLine();
    return src.length + 1;
  }

  /** Only white space from `pos` to the end of its line. */
  private emptyFrom(pos: number): boolean {
    let i = pos;
    while (i < this.src.length && isSpace(this.src.charCodeAt(i))) i++;
    return i >= this.src.length || this.src.charCodeAt(i) === NEWLINE;
  }

  private isBlank(start: number, end: number): boolean {
    for (let i = start; i < end; i++) if (!isSpace(this.src.charCodeAt(i))) return false;
    return true;
  }

  /** A blank line ends paragraphs, import/export blocks and most HTML blocks. */
  private blankLine(): void {
    this.endParagraph();
    if (this.esm && this.esm.backticks % 2 === 0 && this.esm.brackets <= 0) this.esm = undefined;
    if (this.htmlBlock === 'blank') this.htmlBlock = undefined;
    this.previousBlank = true;
  }

  /** MDX requires the elements opened in a paragraph to be closed in it: they are dropped with it. */
  private endParagraph(): void {
    while (this.tags.at(-1)?.inline) this.popTag();
  }

  private endLine(): void {
    if (this.lineHasText)
      for (let i = this.tags.length - 1; i >= 0 && this.tags[i]?.line === this.line; i--)
        (this.tags[i] as OpenTag).inline = true;
    this.previousBlank = false;
    this.quotes = 0;
    this.line++;
  }

  private measure(extra: number): void {
    const depth = this.quotes + this.lists.length + this.tags.length + extra;
    if (depth > this.deepest.depth) this.deepest = { depth, line: this.line };
  }

  /**
   * Block quote and list markers at the start of a line. A list marker closes the items it is
   * not indented into, unless the line could be a lazy continuation of a paragraph (an empty
   * item or an ordered one not starting at 1 cannot interrupt one): then it closes nothing, so
   * `lists` may hold more items than the parsers have open, never fewer.
   */
  private linePrefix(start: number): LinePrefix {
    const { src } = this;
    let pos = start;
    let column = 0;
    let quotes = 0;
    let quoteColumn = 0;
    let markers = 0;
    for (;;) {
      while (pos < src.length && isSpace(src.charCodeAt(pos))) {
        column = src.charCodeAt(pos) === TAB ? column + 4 - (column % 4) : column + 1;
        pos++;
      }
      const c = src.charCodeAt(pos);
      if (c === GT) {
        quotes++;
        pos++;
        column++;
        quoteColumn = column + (src.charCodeAt(pos) === SPACE ? 1 : 0);
        continue;
      }
      const marker = this.listMarker(pos);
      if (marker === undefined) break;
      // A marker that may be a lazy paragraph line closes nothing, but still opens an item.
      const maybeLazy = markers === 0 && quotes === 0 && !this.previousBlank && !marker.interrupts;
      if (!maybeLazy) while ((this.lists.at(-1) ?? -1) > column) this.lists.pop();
      // One that can interrupt a paragraph ends it, with the elements opened in it.
      if (marker.interrupts) this.endParagraph();
      column += marker.length;
      pos += marker.length;
      this.openItem(column + 1);
      markers++;
    }
    // Content less indented than an open item closes it, unless it may continue a paragraph lazily.
    if (markers === 0 && this.previousBlank) while ((this.lists.at(-1) ?? -1) > column) this.lists.pop();
    return { content: pos, column, quotes, quoteColumn };
  }

  /**
   * Adds an item's content column to `lists`, kept sorted and without repeats. The items a
   * parser has open have increasing content columns, so as long as `lists` holds every one of
   * them (it may hold more) its length is an upper bound of their number.
   */
  private openItem(column: number): void {
    const { lists } = this;
    let at = lists.length;
    while (at > 0 && (lists[at - 1] as number) > column) at--;
    if (lists[at - 1] !== column) lists.splice(at, 0, column);
  }

  /** A list marker at `pos` (`-`, `+`, `*`, `1.`, `1)`) followed by a space or the end of the line. */
  private listMarker(pos: number): { length: number; interrupts: boolean } | undefined {
    const { src } = this;
    const c = src.charCodeAt(pos);
    let length = 0;
    let startsAtOne = true;
    if (c === 45 || c === 43 || c === 42) length = 1;
    else if (isDigit(c)) {
      let digits = 0;
      while (digits < 10 && isDigit(src.charCodeAt(pos + digits))) digits++;
      const after = src.charCodeAt(pos + digits);
      if (digits > 9 || (after !== 46 && after !== 41)) return undefined;
      startsAtOne = digits === 1 && c === 49;
      length = digits + 1;
    } else return undefined;
    const next = src.charCodeAt(pos + length);
    if (pos + length < src.length && next !== NEWLINE && !isSpace(next)) return undefined;
    return { length, interrupts: startsAtOne && !this.emptyFrom(pos + length) };
  }

  /** Import/export blocks (MDX) and raw HTML blocks (.md): regions where a ``` line is no fence. */
  private trackBlocks(start: number, prefix: LinePrefix, end: number): void {
    const { src } = this;
    if (this.mdx) {
      const text = src.slice(prefix.content, Math.min(end, prefix.content + 8));
      if (!this.esm && prefix.content === start && /^(?:import|export)\b/.test(text))
        this.esm = { backticks: 0, brackets: 0 };
      if (this.esm) {
        // The block may go on past a blank line inside a template literal or an unclosed bracket.
        for (let i = prefix.content; i < end; i++) {
          const c = src.charCodeAt(i);
          if (c === BACKTICK) this.esm.backticks++;
          else if (c === 40 || c === 91 || c === LBRACE) this.esm.brackets++;
          else if (c === 41 || c === 93 || c === RBRACE) this.esm.brackets--;
        }
      }
      return;
    }
    if (this.htmlBlock instanceof RegExp) {
      if (this.htmlBlock.test(src.slice(prefix.content, end))) this.htmlBlock = undefined;
    } else if (!this.htmlBlock && src.charCodeAt(prefix.content) === LT) {
      const line = src.slice(prefix.content, end);
      const kind = HTML_BLOCK_ENDS.find(([opening]) => opening.test(line));
      if (!kind) this.htmlBlock = 'blank';
      else if (!kind[1].test(line.slice(2))) this.htmlBlock = kind[1];
    }
  }

  /** A ``` or ~~~ line where both parsers certainly open fenced code; the rest of the line is its info string. */
  private opensFence(prefix: LinePrefix, end: number): boolean {
    if (this.esm || this.htmlBlock || this.braces > 0) return false;
    const { src } = this;
    const marker = src.charCodeAt(prefix.content);
    if (marker !== BACKTICK && marker !== TILDE) return false;
    let length = 0;
    while (src.charCodeAt(prefix.content + length) === marker) length++;
    if (length < 3) return false;
    if (marker === BACKTICK && src.slice(prefix.content + length, end).includes('`')) return false;
    // The list item the fence is in: the deepest one its line is indented into (`lists` may hold
    // items the parsers closed: taking the deepest ends the fence early rather than late).
    let indent = 0;
    for (const column of this.lists) if (column <= prefix.column) indent = column;
    // In .md, a fence indented 4 columns past its container is indented code; MDX has no indented code.
    if (!this.mdx && prefix.column - Math.max(prefix.quoteColumn, indent) > 3) return false;
    this.fence = { marker, length, quotes: prefix.quotes, indent };
    return true;
  }

  /**
   * A line inside fenced code: skipped, unless it closes the fence or leaves the block quote or
   * list item the fence is in (which ends the fence too; the line is then scanned as any other).
   */
  private continuesFence(start: number, end: number): boolean {
    const fence = this.fence as Fence;
    if (this.isBlank(start, end)) return true;
    const { src } = this;
    let pos = start;
    let column = 0;
    let quotes = 0;
    while (pos < end) {
      const c = src.charCodeAt(pos);
      if (isSpace(c)) column = c === TAB ? column + 4 - (column % 4) : column + 1;
      else if (c === GT && quotes < fence.quotes) {
        quotes++;
        column++;
      } else break;
      pos++;
    }
    if (quotes < fence.quotes || column < fence.indent) {
      this.fence = undefined;
      return false;
    }
    let length = 0;
    while (src.charCodeAt(pos + length) === fence.marker) length++;
    if (length >= fence.length && this.isBlank(pos + length, end)) this.fence = undefined;
    return true;
  }

  /** A tag at `pos` (a `<`): counted, and where scanning goes on. */
  private tag(pos: number): number {
    const { line, quotes } = this;
    const result = this.readTag(pos);
    if (result.kind === 'none') {
      // The lines it looked into are scanned again.
      this.line = line;
      this.quotes = quotes;
      this.lineHasText = true;
      return pos + 1;
    }
    if (result.kind === 'close') this.closeTag(result.name);
    else if (result.kind === 'self') this.measure(1);
    else if (this.mdx || !NON_NESTING_HTML.has(result.name)) this.pushTag(result.name);
    return result.end;
  }

  private pushTag(name: string): void {
    this.tags.push({ name, inline: this.lineHasText, line: this.line });
    this.tagCounts.set(name, (this.tagCounts.get(name) ?? 0) + 1);
    this.measure(0);
  }

  private popTag(): void {
    const tag = this.tags.pop() as OpenTag;
    this.tagCounts.set(tag.name, (this.tagCounts.get(tag.name) ?? 1) - 1);
  }

  /** A closing tag closes its opening tag and anything left open inside it; one that closes nothing is ignored. */
  private closeTag(name: string): void {
    if (!this.tagCounts.get(name)) return;
    while (this.tags.length > 0) {
      const top = (this.tags.at(-1) as OpenTag).name;
      this.popTag();
      if (top === name) return;
    }
  }

  /**
   * Reads a tag by the grammar of JSX (MDX) or of HTML (.md). Attribute values are skipped only
   * when they hold no `<` and no line break: otherwise the tag counts as open and the value is
   * scanned as text, so a value that is really inline code cannot hide what follows it.
   */
  private readTag(start: number): TagResult {
    const { src, mdx } = this;
    // JSX allows white space around the name (`< Card >`, `</ Card>`); HTML does not.
    let pos = mdx ? this.skipTagSpace(start + 1) : start + 1;
    const closing = src.charCodeAt(pos) === SLASH;
    if (closing) pos = mdx ? this.skipTagSpace(pos + 1) : pos + 1;
    const nameEnd = this.nameEnd(pos, false);
    if (nameEnd === pos && !(mdx && src.charCodeAt(pos) === GT)) return { kind: 'none' };
    const name = mdx ? src.slice(pos, nameEnd) : src.slice(pos, nameEnd).toLowerCase();
    pos = nameEnd;
    for (;;) {
      pos = this.skipTagSpace(pos);
      const c = src.charCodeAt(pos);
      if (c === GT) return { kind: closing ? 'close' : 'open', name, end: pos + 1 };
      if (closing) return { kind: 'none' };
      if (c === SLASH) {
        const after = this.skipTagSpace(pos + 1);
        return src.charCodeAt(after) === GT ? { kind: 'self', name, end: after + 1 } : { kind: 'none' };
      }
      if (mdx && c === LBRACE) {
        const value = this.skipValue(pos);
        if (value.fallback) return { kind: 'fallback', name, end: pos + 1 };
        pos = value.end;
        continue;
      }
      const attributeEnd = this.nameEnd(pos, true);
      if (attributeEnd === pos) return { kind: 'none' };
      pos = this.skipTagSpace(attributeEnd);
      if (src.charCodeAt(pos) !== EQUALS) continue;
      pos = this.skipTagSpace(pos + 1);
      const value = this.skipValue(pos);
      if (value.fallback) return { kind: 'fallback', name, end: pos + 1 };
      if (value.end === pos) return { kind: 'none' };
      pos = value.end;
    }
  }

  /**
   * White space inside a tag, line breaks and blank lines included (MDX allows them). Only white
   * space, names and values without line breaks are skipped as part of a tag, and the lines it
   * spans are measured: a tag can hide nothing from the count.
   */
  private skipTagSpace(start: number): number {
    const { src } = this;
    let pos = start;
    for (; pos < src.length; pos++) {
      const c = src.charCodeAt(pos);
      if (c === NEWLINE) this.measureSpannedLine(pos + 1);
      else if (!isSpace(c)) break;
    }
    return pos;
  }

  /**
   * The markers a line inside a tag starts with. For the tag they are text (a `>` ends it), but
   * when a parser does not take the `<` for a tag (it may be inline code to it) they open block
   * quotes and list items: they count as such.
   */
  private measureSpannedLine(start: number): void {
    const { src } = this;
    this.line++;
    let quotes = 0;
    let items = 0;
    let pos = start;
    while (pos < src.length) {
      const c = src.charCodeAt(pos);
      const marker = c === GT ? undefined : this.listMarker(pos);
      if (c === GT) quotes++;
      else if (marker) {
        items++;
        pos += marker.length;
        continue;
      } else if (!isSpace(c)) break;
      pos++;
    }
    this.quotes = quotes;
    this.measure(items);
  }

  /**
   * The end of a tag or attribute name starting at `start` (`start` itself when there is none):
   * JSX names allow `$`, `_`, `-` and the `a.b` and `a:b` forms; HTML tag names letters, digits and
   * `-`, HTML attribute names also `_`, `.` and `:`.
   */
  private nameEnd(start: number, attribute: boolean): number {
    const { src } = this;
    const first = src.charCodeAt(start);
    let pos = start;
    if (this.mdx) {
      if (!isNameStart(first)) return start;
      while (
        isNameChar(src.charCodeAt(pos)) ||
        ((src.charCodeAt(pos) === 46 || src.charCodeAt(pos) === 58) && isNameStart(src.charCodeAt(pos + 1)))
      )
        pos++;
      return pos;
    }
    if (!attribute) {
      if (!isLetter(first)) return start;
      while (isLetter(src.charCodeAt(pos)) || isDigit(src.charCodeAt(pos)) || src.charCodeAt(pos) === 45)
        pos++;
      return pos;
    }
    const isAttributeChar = (c: number) => isNameChar(c) || c === 46 || c === 58;
    if (!(isLetter(first) || first === 95 || first === 58)) return start;
    while (isAttributeChar(src.charCodeAt(pos))) pos++;
    return pos;
  }

  /** An attribute value: a quoted string, a `{…}` expression (MDX) or an unquoted HTML value. */
  private skipValue(start: number): { end: number; fallback?: boolean } {
    const { src } = this;
    const open = src.charCodeAt(start);
    if (open === 34 || open === 39) {
      for (let pos = start + 1; pos < src.length; pos++) {
        const c = src.charCodeAt(pos);
        if (c === open) return { end: pos + 1 };
        if (c === NEWLINE || c === LT) return { end: start, fallback: true };
      }
      return { end: start, fallback: true };
    }
    if (this.mdx && open === LBRACE) {
      // Expressions end at the matching brace, counting braces only, as both parsers do.
      let depth = 0;
      for (let pos = start; pos < src.length; pos++) {
        const c = src.charCodeAt(pos);
        if (c === LBRACE) depth++;
        else if (c === RBRACE && --depth === 0) return { end: pos + 1 };
        else if (c === NEWLINE || c === LT) return { end: start, fallback: true };
      }
      return { end: start, fallback: true };
    }
    if (this.mdx) return { end: start };
    let pos = start;
    while (pos < src.length) {
      const c = src.charCodeAt(pos);
      if (c <= SPACE || c === 34 || c === 39 || c === EQUALS || c === LT || c === GT || c === BACKTICK) break;
      pos++;
    }
    return { end: pos };
  }
}
