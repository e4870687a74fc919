import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import tar from 'tar-stream';
import { BundleManifest, MANIFEST_FILE } from '../contract/bundle-manifest.ts';
import { unsafeNameReason } from '../export/source/routes.ts';

const ManifestFiles = BundleManifest.pick({ files: true });

/** An archive that is refused: the message names the entry and the rule. */
export class BundleRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BundleRefused';
  }
}

export interface UnpackLimits {
  /** Bytes of all files together, unpacked. */
  maxBytes: number;
  maxFiles: number;
  /** Unpacked bytes per compressed byte, checked as the archive is read (a decompression bomb). */
  maxRatio: number;
}

export const DEFAULT_UNPACK_LIMITS: UnpackLimits = {
  maxBytes: 8 * 1024 ** 3,
  maxFiles: 200_000,
  maxRatio: 200,
};

export interface UnpackedFile {
  size: number;
  sha256: string;
}

/**
 * Unpacks an export archive into `dir` (a new directory) and checks it against its manifest:
 * only regular files (and folders) with safe relative names, no links or devices, within limits
 * on bytes, files and compression ratio; every file listed in the manifest present with its
 * sha256, and nothing else. Any breach refuses the whole archive.
 */
export async function unpackBundle(
  archive: string,
  dir: string,
  limits: UnpackLimits = DEFAULT_UNPACK_LIMITS,
): Promise<Map<string, UnpackedFile>> {
  const files = new Map<string, UnpackedFile>();
  let compressedBytes = 0;
  let unpackedBytes = 0;
  const countCompressed = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      compressedBytes += chunk.length;
      callback(null, chunk);
    },
  });
  const extract = tar.extract();
  const entries = (async () => {
    for await (const entry of extract) {
      const { name, type, size = 0 } = entry.header;
      const refuse = (rule: string) => {
        entry.resume();
        throw new BundleRefused(`archive entry ${JSON.stringify(name)}: ${rule}`);
      };
      if (type === 'directory') {
        entry.resume();
        continue;
      }
      if (type !== 'file' && type !== 'contiguous-file')
        refuse(`a ${type} entry; only regular files are accepted`);
      const reason = unsafeNameReason(name);
      if (reason) refuse(`unsafe name: ${reason}`);
      if (files.has(name)) refuse('appears twice');
      if (files.size + 1 > limits.maxFiles) refuse(`more than ${limits.maxFiles} files in the archive`);
      if (unpackedBytes + size > limits.maxBytes) refuse(`more than ${limits.maxBytes} bytes unpacked`);
      unpackedBytes += size;
      if (
        compressedBytes > 0 &&
        unpackedBytes > 1024 ** 2 &&
        unpackedBytes / compressedBytes > limits.maxRatio
      )
        refuse(`compression ratio above ${limits.maxRatio}:1 (a decompression bomb)`);
      const target = join(dir, name);
      await mkdir(dirname(target), { recursive: true });
      const hash = createHash('sha256');
      const hashing = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          hash.update(chunk);
          callback(null, chunk);
        },
      });
      // 'wx': a name that somehow maps onto an existing file is refused, never overwritten.
      await pipeline(entry, hashing, createWriteStream(target, { flags: 'wx', mode: 0o644 }));
      files.set(name, { size, sha256: hash.digest('hex') });
    }
  })();
  const outcomes = await Promise.allSettled([
    pipeline(createReadStream(archive), countCompressed, createGunzip(), extract as unknown as Writable),
    entries,
  ]);
  // A refused entry stops the stream too: report the rule, not the stream's own complaint.
  const failures = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as Error] : []));
  const refused = failures.find((error) => error instanceof BundleRefused);
  if (refused) throw refused;
  if (failures[0]) throw new BundleRefused(`the archive cannot be read: ${failures[0].message}`);
  await checkManifest(dir, files);
  return files;
}

/** Every file the manifest lists, with its sha256, and no other file. */
async function checkManifest(dir: string, files: Map<string, UnpackedFile>): Promise<void> {
  if (!files.has(MANIFEST_FILE))
    throw new BundleRefused(`the archive has no ${MANIFEST_FILE}: not a docsnap export`);
  let listed: Record<string, string>;
  try {
    // Only the file list matters here; the rest of the manifest is for people and tools.
    listed = ManifestFiles.parse(JSON.parse(await readFile(join(dir, MANIFEST_FILE), 'utf8'))).files;
  } catch {
    throw new BundleRefused(`${MANIFEST_FILE} is not a valid manifest`);
  }
  for (const [name, sha256] of Object.entries(listed)) {
    const file = files.get(name);
    if (!file) throw new BundleRefused(`${name}: listed in the manifest, missing from the archive`);
    if (file.sha256 !== sha256) throw new BundleRefused(`${name}: its sha256 differs from the manifest`);
  }
  for (const name of files.keys())
    if (name !== MANIFEST_FILE && !(name in listed))
      throw new BundleRefused(`${name}: in the archive, not in the manifest`);
}
