import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** Where one rendered file sits in a spool file. */
export interface SpoolSlice {
  spool: string;
  offset: number;
  length: number;
}

/**
 * Rendered pages are appended to one spool file per render thread instead of being written as
 * thousands of small files: the archive is the export's product, and creating, then reading back,
 * two files per page cost the file system more than rendering them (measured on ext4). Files
 * become real files only when a site directory is asked for.
 *
 * A writer belongs to one thread; it opens its file for each batch of pages and closes it after,
 * so a worker thread that is torn down never leaks a descriptor.
 */
export class SpoolWriter {
  private readonly path: string;
  private size = 0;
  private fd: number | undefined;

  constructor(dir: string, name: string) {
    this.path = join(dir, name);
  }

  open(): void {
    this.fd ??= openSync(this.path, 'a');
  }

  append(contents: Buffer): SpoolSlice {
    if (this.fd === undefined) throw new Error('spool is not open');
    writeSync(this.fd, contents);
    const slice = { spool: this.path, offset: this.size, length: contents.length };
    this.size += contents.length;
    return slice;
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

/** Reads slices back; keeps each spool file open until closed. */
export class SpoolReader {
  private readonly fds = new Map<string, number>();

  read(slice: SpoolSlice): Buffer {
    let fd = this.fds.get(slice.spool);
    if (fd === undefined) {
      fd = openSync(slice.spool, 'r');
      this.fds.set(slice.spool, fd);
    }
    const buffer = Buffer.allocUnsafe(slice.length);
    let done = 0;
    while (done < slice.length) {
      const read = readSync(fd, buffer, done, slice.length - done, slice.offset + done);
      if (read === 0) throw new Error(`spool ${slice.spool} ends before byte ${slice.offset + slice.length}`);
      done += read;
    }
    return buffer;
  }

  close(): void {
    for (const fd of this.fds.values()) closeSync(fd);
    this.fds.clear();
  }
}
