/**
 * The language codes docs.json's `navigation.languages[].language` takes, as HTML and readers
 * know them. The format lists a few codes of its own ("cn" for Simplified Chinese, "jp" for
 * Japanese); the rest are BCP 47 tags already.
 */

/** The codes the format's reference lists for `navigation.languages[].language`. */
export const LANGUAGE_CODES: ReadonlySet<string> = new Set(
  'ar ca cn cs de en es fi fr fr-CA he hi hu id it ja jp ko lv nl no pl pt pt-BR ro ru sv tr uk uz vi zh zh-Hans zh-Hant'.split(
    ' ',
  ),
);

const FORMAT_ALIASES: Record<string, string> = {
  cn: 'zh-Hans',
  jp: 'ja',
  'ja-jp': 'ja-JP',
};

/** The BCP 47 tag for `<html lang>` and `hreflang`: "cn" → "zh-Hans", "pt-br" → "pt-BR". */
export function languageTag(code: string): string {
  const alias = FORMAT_ALIASES[code.toLowerCase()];
  if (alias) return alias;
  try {
    return Intl.getCanonicalLocales(code)[0] ?? code;
  } catch {
    return code; // not a tag Intl knows: written as given (the export warns elsewhere)
  }
}

/** A language's name in that language ("Français", "日本語"), for the language switcher. */
export function languageName(code: string): string {
  const tag = languageTag(code);
  try {
    const name = new Intl.DisplayNames([tag], { type: 'language' }).of(tag);
    if (name && name.toLowerCase() !== tag.toLowerCase())
      return name.charAt(0).toLocaleUpperCase(tag) + name.slice(1);
  } catch {
    // An unknown tag keeps its code as its name.
  }
  return code;
}
