import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, readFileSync, statSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import tar from 'tar-stream';
import { assertOutputName } from '../source/routes.ts';

/** Every entry gets the same metadata, so the archive depends on file contents and names only. */
const FIXED_MTIME = new Date(0);

/** Where the archive's files come from: a directory, or anything that can say a file's size and bytes. */
export interface ArchiveSource {
  size(name: string): number;
  /** The whole file; asked for files up to 1 MiB. */
  read(name: string): Buffer;
  /** The file as a stream; asked for larger files (videos, downloads). */
  stream(name: string): Readable;
}

/** The files of a directory, by their path inside it. */
export function directorySource(dir: string): ArchiveSource {
  return {
    size: (name) => statSync(join(dir, name)).size,
    read: (name) => readFileSync(join(dir, name)),
    stream: (name) => createReadStream(join(dir, name)),
  };
}

export interface ArchiveResult {
  path: string;
  sha256: string;
  sizeBytes: number;
}

/**
 * Packs files (of a directory, or another source) into one .tar.gz, byte-for-byte reproducible: entries sorted by
 * name, fixed mtime/uid/gid/modes and empty owner names, and gzip headers without timestamp
 * (Node's zlib writes MTIME 0 and a fixed OS byte). Streams file by file, so memory does not grow
 * with the site. Written to a temporary name and renamed, so a failed run leaves no partial archive.
 */
export async function writeArchive(
  source: string | ArchiveSource,
  files: string[],
  outPath: string,
  onFile?: (done: number, total: number) => void,
): Promise<ArchiveResult> {
  const from = typeof source === 'string' ? directorySource(source) : source;
  const sorted = [...files].sort(byteOrder);
  // Whatever made the names, an entry that could land outside the directory it is unpacked in
  // (a tar-slip for extractors that trust names) is never written.
  for (const name of sorted) assertOutputName(name);
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
  // tar-stream packs are streamx streams: async iterable and pipeable, though not typed as Node streams.
  const written = pipeline(pack as unknown as Readable, gzipMembers, measure, createWriteStream(partial));

  const feed = async () => {
    let inFlight: Promise<void> = Promise.resolve();
    for (const [index, name] of sorted.entries()) {
      const size = from.size(name);
      const header = {
        name,
        size,
        mode: 0o644,
        mtime: FIXED_MTIME,
        uid: 0,
        gid: 0,
        uname: '',
        gname: '',
        type: 'file' as const,
      };
      if (size <= WHOLE_FILE_LIMIT) {
        // Small files (nearly all of a site) go in whole: a read stream per file costs more than
        // the file. Waiting on every 64th entry keeps memory bounded when gzip is the slower side.
        const data = from.read(name);
        inFlight = new Promise<void>((resolve, reject) =>
          pack.entry(header, data, (error) => (error ? reject(error) : resolve())),
        );
        if (index % 64 === 63) await inFlight;
      } else {
        await inFlight;
        await new Promise<void>((resolve, reject) => {
          const entry = pack.entry(header, (error) => (error ? reject(error) : resolve()));
          from.stream(name).on('error', reject).pipe(entry);
        });
      }
      onFile?.(index + 1, sorted.length);
    }
    await inFlight;
    pack.finalize();
  };
  await Promise.all([feed(), written]);
  await rename(partial, outPath);
  return { path: outPath, sha256: hash.digest('hex'), sizeBytes };
}

/** Files up to this size are read whole; larger ones (videos, downloads) are streamed. */
const WHOLE_FILE_LIMIT = 1024 * 1024;

/** Bytes of tar stream per gzip member. */
const MEMBER_SIZE = 4 * 1024 * 1024;
const gzipChunk = promisify(gzip);

/**
 * Compresses a stream as consecutive gzip members of MEMBER_SIZE input bytes each, several at a
 * time on libuv's thread pool, emitted in order. A multi-member file is one valid .gz (RFC 1952;
 * gunzip, tar, Node and Python read it whole); fixed member boundaries keep it reproducible, and
 * the archive step uses every core instead of one.
 */
async function* gzipMembers(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  const concurrency = Math.max(2, availableParallelism());
  const pending: Promise<Buffer>[] = [];
  let parts: Buffer[] = [];
  let size = 0;
  const flush = () => {
    const input = Buffer.concat(parts, size);
    parts = [];
    size = 0;
    pending.push(gzipChunk(input, { level: 4 }));
  };
  for await (const chunk of source) {
    let rest = chunk;
    while (size + rest.length >= MEMBER_SIZE) {
      const take = MEMBER_SIZE - size;
      parts.push(rest.subarray(0, take));
      size += take;
      rest = rest.subarray(take);
      flush();
      if (pending.length >= concurrency) yield await (pending.shift() as Promise<Buffer>);
    }
    if (rest.length > 0) {
      parts.push(rest);
      size += rest.length;
    }
  }
  if (size > 0) flush();
  while (pending.length > 0) yield await (pending.shift() as Promise<Buffer>);
}

/** Sorting by UTF-16 code units is stable across machines and locales (no localeCompare). */
export function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
