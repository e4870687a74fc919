import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, statSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { constants, createGzip } from 'node:zlib';
import tar from 'tar-stream';

/** Every entry gets the same metadata, so the archive depends on file contents and names only. */
const FIXED_MTIME = new Date(0);

export interface ArchiveResult {
  path: string;
  sha256: string;
  sizeBytes: number;
}

/**
 * Packs files of a directory into one .tar.gz, byte-for-byte reproducible: entries sorted by
 * name, fixed mtime/uid/gid/modes and empty owner names, and a gzip header without timestamp
 * (Node's zlib writes MTIME 0 and a fixed OS byte). Streams file by file, so memory does not grow
 * with the site. Written to a temporary name and renamed, so a failed run leaves no partial archive.
 */
export async function writeArchive(
  dir: string,
  files: string[],
  outPath: string,
  onFile?: (done: number, total: number) => void,
): Promise<ArchiveResult> {
  const sorted = [...files].sort(byteOrder);
  const pack = tar.pack();
  const hash = createHash('sha256');
  let sizeBytes = 0;
  const measure = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      sizeBytes += chunk.length;
      callback(null, chunk);
    },
  });
  const partial = `${outPath}.partial`;
  const written = pipeline(
    pack,
    createGzip({ level: 6, memLevel: 9, strategy: constants.Z_DEFAULT_STRATEGY }),
    measure,
    createWriteStream(partial),
  );

  const feed = async () => {
    for (const [index, name] of sorted.entries()) {
      const full = join(dir, name);
      const size = statSync(full).size;
      await new Promise<void>((resolve, reject) => {
        const entry = pack.entry(
          { name, size, mode: 0o644, mtime: FIXED_MTIME, uid: 0, gid: 0, uname: '', gname: '', type: 'file' },
          (error) => (error ? reject(error) : resolve()),
        );
        createReadStream(full).on('error', reject).pipe(entry);
      });
      onFile?.(index + 1, sorted.length);
    }
    pack.finalize();
  };
  await Promise.all([feed(), written]);
  await rename(partial, outPath);
  return { path: outPath, sha256: hash.digest('hex'), sizeBytes };
}

/** Sorting by UTF-16 code units is stable across machines and locales (no localeCompare). */
export function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
