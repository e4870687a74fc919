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
import { ExportError } from '../errors.ts';

/** Files up to this size are read in one go and written; larger ones are streamed. */
const WHOLE_FILE_LIMIT = 1024 * 1024;

/**
 * Copies the repository's static files (images, media, fonts, downloads) into the output
 * directory and returns each one's sha256, computed from the very bytes written: small files in
 * one read, large ones streamed through the hash (a file of gigabytes is never held whole).
 * A file that cannot be read or written stops the export with an error naming it.
 */
export async function copyAssets(
  root: string,
  assets: string[],
  outDir: string,
): Promise<Map<string, string>> {
  const hashes = new Map<string, string>();
  for (const asset of assets) {
    const target = join(outDir, asset);
    let sha256: string;
    try {
      mkdirSync(dirname(target), { recursive: true });
      sha256 = await copyFile(join(root, asset), target);
    } catch (error) {
      throw ExportError.at(
        { file: asset },
        `could not be copied into the export: ${(error as Error).message}`,
      );
    }
    hashes.set(asset, sha256);
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

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}
