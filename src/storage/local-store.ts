import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, link, mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { checkKey, type LinkDownloads, type ObjectStore, type OpenedLink } from './object-store.ts';
import { LinkSigner } from './signed-links.ts';

const SIGNING_KEY_FILE = '.link-signing-key';
const SIGNING_KEY_BYTES = 32;

/** Path under the store's base URL where local links are served (by the API server). */
export const LOCAL_DOWNLOAD_PATH = '/downloads/';

/**
 * A directory as object store: the embedded default. Writes go to a temporary name and are
 * renamed, so a reader never sees half an object. Its links are HMAC-signed, expiring URLs of
 * the API server (LOCAL_DOWNLOAD_PATH), refused after expiry or when tampered with, as S3's are.
 */
export class LocalObjectStore implements ObjectStore {
  readonly location: string;
  readonly downloads: LinkDownloads = {
    pathPrefix: LOCAL_DOWNLOAD_PATH,
    open: (key, expires, signature) => this.openLink(key, expires, signature),
  };
  private readonly dir: string;
  private readonly publicUrl: () => string;
  private signer: Promise<LinkSigner> | undefined;

  /** publicUrl is asked for when a link is made: the server may learn its port after start. */
  constructor(dir: string, publicUrl: () => string) {
    this.dir = dir;
    this.location = dir;
    this.publicUrl = publicUrl;
  }

  async putFile(key: string, path: string): Promise<void> {
    await this.atomically(key, (temp) => copyFile(path, temp));
  }

  async putJson(key: string, value: unknown): Promise<void> {
    await this.atomically(key, async (temp) => {
      const file = await open(temp, 'w');
      try {
        await file.writeFile(`${JSON.stringify(value, null, 2)}\n`);
        await file.sync(); // records are the service's memory: they must survive a crash
      } finally {
        await file.close();
      }
    });
  }

  async getJson(key: string): Promise<unknown> {
    try {
      return JSON.parse(await readFile(this.path(key), 'utf8'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }

  async list(prefix: string): Promise<string[]> {
    const base = join(this.dir, prefix);
    try {
      const entries = await readdir(base, { recursive: true, withFileTypes: true });
      return entries
        .filter((e) => e.isFile() && !e.name.startsWith('.') && !e.name.endsWith('.partial'))
        .map((e) => relative(this.dir, join(e.parentPath, e.name)).split(sep).join('/'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  }

  async presignGet(key: string, lifetimeMs: number): Promise<{ url: string; expiresAt: Date }> {
    const expiresAt = new Date(Math.floor((Date.now() + lifetimeMs) / 1000) * 1000);
    const { expires, signature } = (await this.linkSigner()).sign(checkKey(key), expiresAt);
    const url = new URL(`${LOCAL_DOWNLOAD_PATH.slice(1)}${key}`, `${this.publicUrl().replace(/\/?$/, '/')}`);
    url.searchParams.set('expires', expires);
    url.searchParams.set('signature', signature);
    return { url: url.toString(), expiresAt };
  }

  /** Opens the object a link names, after checking the link; the reason when it is refused. */
  async openLink(key: string, expires: string, signature: string): Promise<OpenedLink> {
    try {
      checkKey(key);
    } catch {
      return { refused: 'bad signature' };
    }
    const refused = (await this.linkSigner()).check(key, expires, signature);
    if (refused) return { refused };
    try {
      const info = await stat(this.path(key));
      return { stream: createReadStream(this.path(key)), size: info.size };
    } catch {
      return { refused: 'no such bundle', notFound: true };
    }
  }

  /** The signing secret lives in the store, so links survive restarts and work on every replica that shares it. */
  private linkSigner(): Promise<LinkSigner> {
    this.signer ??= this.loadSigningKey().catch((error: unknown) => {
      this.signer = undefined; // a later request tries again
      throw error;
    });
    return this.signer;
  }

  /**
   * Reads the key, or makes one: written whole to a temporary file and synced, then linked into
   * place, so no reader ever sees a partial key and two replicas starting together agree on one.
   * A short key (a disk that filled up while an older version wrote it) is replaced, with a warning.
   */
  private async loadSigningKey(): Promise<LinkSigner> {
    const file = join(this.dir, SIGNING_KEY_FILE);
    const existing = await readFile(file).catch(() => undefined);
    if (existing && existing.length >= SIGNING_KEY_BYTES) return new LinkSigner(existing);
    await mkdir(this.dir, { recursive: true });
    const temp = `${file}.${randomBytes(6).toString('hex')}.partial`;
    const handle = await open(temp, 'wx', 0o600);
    try {
      await handle.writeFile(randomBytes(SIGNING_KEY_BYTES));
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      if (existing) {
        process.emitWarning(
          `${file} held ${existing.length} bytes, not a ${SIGNING_KEY_BYTES}-byte key: a new one replaces it (links signed before no longer work)`,
        );
        await rename(temp, file);
      } else {
        await link(temp, file).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== 'EEXIST') throw error; // another replica made it first: use theirs
        });
      }
    } finally {
      await rm(temp, { force: true });
    }
    return new LinkSigner(await readFile(file));
  }

  private path(key: string): string {
    return join(this.dir, ...checkKey(key).split('/'));
  }

  private async atomically(key: string, write: (temp: string) => Promise<void>): Promise<void> {
    const target = this.path(key);
    await mkdir(dirname(target), { recursive: true });
    const temp = `${target}.${randomBytes(6).toString('hex')}.partial`;
    await write(temp);
    await rename(temp, target);
  }
}
