import type { Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { mdxFromMarkdown } from 'mdast-util-mdx';
import { gfm } from 'micromark-extension-gfm';
import { mdxjs } from 'micromark-extension-mdxjs';
import { ExportError } from '../errors.ts';

// Built once: the extensions are pure configuration and are reused for every page.
const mdxOptions = { extensions: [mdxjs(), gfm()], mdastExtensions: [mdxFromMarkdown(), gfmFromMarkdown()] };
const mdOptions = { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] };

/**
 * Parses a page body (frontmatter already blanked out) into mdast: MDX for .mdx files (JSX,
 * expressions, import/export), CommonMark + GFM with raw HTML for .md files. Syntax errors become
 * an ExportError naming the file, line and column.
 */
export function parseBody(body: string, file: string): Root {
  try {
    return fromMarkdown(body, file.endsWith('.md') ? mdOptions : mdxOptions);
  } catch (error) {
    const e = error as {
      reason?: string;
      message: string;
      line?: number;
      column?: number;
      place?: { line?: number; column?: number; start?: { line: number; column: number } };
    };
    const place = e.place && 'start' in e.place ? e.place.start : e.place;
    const reason = e.reason ?? e.message;
    // Some errors of the JSX tree builder carry their position only in the text: "… (5:1-5:17)".
    const inText = /\((\d+):(\d+)(?:-\d+:\d+)?\)/.exec(reason);
    throw new ExportError(`${file} is not valid MDX`, [
      {
        file,
        line: e.line ?? place?.line ?? (inText ? Number(inText[1]) : undefined),
        column: e.column ?? place?.column ?? (inText ? Number(inText[2]) : undefined),
        message: reason.replace(/\s*\(\d+:\d+(?:-\d+:\d+)?\)/, ''),
      },
    ]);
  }
}
