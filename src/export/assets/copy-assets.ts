import { createHash } from 'node:crypto';
import {
  createReadStream,
  createWriteStream,
  mkdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ExportError, type SourceProblem } from '../errors.ts';
import { MAX_SVG_BYTES, sanitizeSvg } from './svg-policy.ts';

/** Files up to this size are read in one go and written; larger ones are streamed. */
const WHOLE_FILE_LIMIT = 1024 * 1024;

/**
 * Copies the repository's static files (images, media, fonts, downloads) into the output
 * directory and returns each one's sha256, computed from the very bytes written: small files in
 * one read, large ones streamed through the hash (a file of gigabytes is never held whole).
 * SVG files go through the SVG policy first; one it refuses is left out, with a warning.
 * A file that cannot be read or written stops the export with an error naming it.
 */
export async function copyAssets(
  root: string,
  assets: string[],
  outDir: string,
  warnings: SourceProblem[],
): Promise<Map<string, string>> {
  const hashes = new Map<string, string>();
  for (const asset of assets) {
    const target = join(outDir, asset);
    let sha256: string | undefined;
    try {
      mkdirSync(dirname(target), { recursive: true });
      sha256 = /\.svg$/i.test(asset)
        ? copySvg(join(root, asset), target, (message) => warnings.push({ file: asset, message }))
        : await copyFile(join(root, asset), target);
    } catch (error) {
      throw ExportError.at(
        { file: asset },
        `could not be copied into the export: ${(error as Error).message}`,
      );
    }
    if (sha256) hashes.set(asset, sha256);
  }
  return hashes;
}

async function copyFile(from: string, to: string): Promise<string> {
  if (statSync(from).size <= WHOLE_FILE_LIMIT) {
    const bytes = readFileSync(from);
    writeFileSync(to, bytes);
    return sha256(bytes);
  }
  const hash = createHash('sha256');
  const hashing = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      callback(null, chunk);
    },
  });
  await pipeline(createReadStream(from), hashing, createWriteStream(to));
  return hash.digest('hex');
}

/** Writes the sanitized SVG and returns its hash, or undefined when the policy refused the file. */
function copySvg(from: string, to: string, warn: (message: string) => void): string | undefined {
  const size = statSync(from).size;
  if (size > MAX_SVG_BYTES) {
    warn(`an SVG file of more than ${MAX_SVG_BYTES / 1024 / 1024} MiB is not published (too large to check)`);
    return undefined;
  }
  const outcome = sanitizeSvg(readFileSync(from));
  if ('refused' in outcome) {
    warn(`${outcome.refused}; the file is not published`);
    return undefined;
  }
  if (outcome.removed.length > 0) warn(`removed from the SVG: ${summarize(outcome.removed)}`);
  const bytes = Buffer.from(outcome.svg);
  writeFileSync(to, bytes);
  return sha256(bytes);
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The first few removals, and how many more. */
function summarize(removed: string[]): string {
  const shown = removed.slice(0, 8).join(', ');
  return removed.length > 8 ? `${shown} and ${removed.length - 8} more` : shown;
}
