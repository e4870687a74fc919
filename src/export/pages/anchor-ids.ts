import slugify, { type Options } from '@sindresorhus/slugify';

/**
 * The ids the platform gives headings and components, so that the `#fragment` links authors
 * wrote for it resolve in the export. The rules, as the format's renderer applies them:
 *
 * - headings (h1–h4; h5 and h6 only when given an id): the text, curly-quoted as the renderer
 *   typesets it, lowercased, spaces to hyphens, percent-encoded, slugified keeping `%` and `_`,
 *   then decoded with `?,;:!'"()[]{}` and emoji removed. So `&`, `/`, `+`, accented letters and
 *   CJK stay ("Fees & billing" → `fees-&-billing`), `.` becomes `-`, and "What's next?" becomes
 *   `what’s-next`. Repeats get `-2`, `-3`, page-wide;
 * - `{#custom-id}` after an ATX heading's text: that id, case kept, with `<>"&?,;:!'()[]{}` and
 *   emoji removed and spaces made hyphens;
 * - Accordion: the slugified title (transliterated, `&` → `and`), repeats `-1`, `-2`; an `id`
 *   prop as written;
 * - Tab: the heading rule with a counter of its own, left percent-encoded (`C++` → `c%2B%2B`);
 * - ParamField, Param and ResponseField: `param-` and the decamelized name (`userId` →
 *   `param-user-id`), whatever the location, repeats `-1`, `-2` across all three.
 */

const STRIPPED = /[?,;:!'"()[\]{}]/g;
const EMOJI = /\p{Extended_Pictographic}|\u200d|\ufe0f/gu;

const ENCODED: Options = { decamelize: false, preserveCharacters: ['%', '_'], lowercase: false };
const PLAIN: Options = { decamelize: false, preserveCharacters: ['_'] };
const SIMPLE = /^[a-z0-9_-]*$/;

/**
 * slugify's result, remembered: every page of a site repeats its headings' words, and the library
 * builds its patterns on every call. Text of letters, digits, `_` and `-` only takes the short way
 * (separators collapsed and trimmed: all slugify does to it).
 */
const slugs = new Map<string, string>();
function slugOf(text: string, options: Options): string {
  if (options === PLAIN && SIMPLE.test(text)) return text.replace(/-{2,}/g, '-').replace(/^-|-$/g, '');
  const key = `${options === ENCODED ? 'e' : 'p'}${text}`;
  let slug = slugs.get(key);
  if (slug === undefined) {
    slug = slugify(text, options);
    if (slugs.size >= 20_000) slugs.clear();
    slugs.set(key, slug);
  }
  return slug;
}

/** slugifyWithCounter's numbering (`x`, `x-2`, `x-3`; `x-2` written after two `x` becomes `x-2-1`…) over slugOf. */
function slugCounter(): (text: string, options: Options) => string {
  const occurrences = new Map<string, number>();
  return (text, options) => {
    const slug = slugOf(text, options);
    if (!slug) return '';
    const lower = slug.toLowerCase();
    const numberless = occurrences.get(withoutCounter(lower)) ?? 0;
    const count = (occurrences.get(lower) ?? 0) + 1;
    occurrences.set(lower, count);
    return count >= 2 || numberless > 2 ? `${slug}-${count}` : slug;
  };
}

function withoutCounter(slug: string): string {
  const parts = slug.split('-');
  while (parts.length > 1 && /^\d+$/.test(parts.at(-1) ?? '')) parts.pop();
  return parts.join('-');
}

/** The platform's slug step: percent-encoded text slugified, `%` kept so the encoding survives. */
function encodedSlug(text: string, counter: ReturnType<typeof slugCounter>): string {
  const encoded = encodeURIComponent(text.toLowerCase().trim().replace(/\s+/g, '-'));
  return /%[0-9A-F]{2}/.test(encoded) ? counter(encoded, ENCODED) : counter(encoded, PLAIN);
}

/** An id as the renderer writes it into the page: percent-decoded, punctuation and emoji removed. */
export function cleanHeadingId(id: string): string {
  if (SIMPLE.test(id)) return id;
  let decoded: string;
  try {
    decoded = decodeURIComponent(id.replace(/%(?![0-9A-Fa-f]{2})/g, '%25'));
  } catch {
    decoded = id;
  }
  return decoded.replace(STRIPPED, '').replace(EMOJI, '');
}

/** The id of `{#…}` after a heading: case kept, not slugified. */
export function customHeadingId(written: string): string {
  return written
    .trim()
    .replace(/[<>"&?,;:!'()[\]{}]/g, '')
    .replace(EMOJI, '')
    .replace(/\s+/g, '-');
}

/**
 * Straight quotes, double hyphens and three dots as the renderer typesets heading text before
 * its id is made ("What's" → "What’s").
 */
export function typographic(text: string): string {
  if (!/['"]|--|\.\.\./.test(text)) return text;
  return text
    .replace(/(\p{L}|\p{N})'(?=\p{L})/gu, '$1’')
    .replace(/(^|[\s([{"“])'/gu, '$1‘')
    .replace(/'/g, '’')
    .replace(/(^|[\s([{‘])"/gu, '$1“')
    .replace(/"/g, '”')
    .replace(/---/g, '—')
    .replace(/--/g, '–')
    .replace(/\.\.\./g, '…');
}

/** The heading ids of one page, in document order. */
export class HeadingIds {
  readonly #counter = slugCounter();
  readonly #seen = new Set<string>();

  /** An id made from a heading's text (what a reader sees of it). */
  fromText(text: string): string {
    return this.#unique(cleanHeadingId(encodedSlug(typographic(text), this.#counter)) || 'section');
  }

  /** An id an author gave, as the page will carry it. */
  given(id: string): string {
    return this.#unique(cleanHeadingId(id) || id);
  }

  #unique(id: string): string {
    let unique = id;
    for (let n = 2; this.#seen.has(unique); n++) unique = `${id}-${n}`;
    this.#seen.add(unique);
    return unique;
  }
}

/** Counters of the component ids of one page (components render before headings are outlined). */
export class ComponentIds {
  readonly #counts = new Map<string, number>();
  readonly #tabs = slugCounter();

  /** Accordion: its title slugified; the second of a title gets `-1`. */
  accordion(title: string): string {
    return this.#numbered(slugify(title.replace(':', '-'), { decamelize: false }) || 'accordion');
  }

  /** ParamField, Param, ResponseField: `param-` and the decamelized name; one counter for all three. */
  param(name: string): string {
    return this.#numbered(slugify(`param-${name}`, { decamelize: true }) || 'param');
  }

  /** Tab: the heading rule with its own counter, percent-encoding kept. */
  tab(title: string): string {
    return encodedSlug(title, this.#tabs) || 'tab';
  }

  #numbered(base: string): string {
    const count = this.#counts.get(base) ?? 0;
    this.#counts.set(base, count + 1);
    return count === 0 ? base : `${base}-${count}`;
  }
}
