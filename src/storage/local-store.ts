import { randomBytes } from 'node:crypto';
import { createReadStream, type ReadStream } from 'node:fs';
import { copyFile, mkdir, open, readdir, readFile, rename, stat } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { checkKey, type ObjectStore } from './object-store.ts';
import { LinkSigner } from './signed-links.ts';

/** Path under the store's base URL where local links are served (by the API server). */
export const LOCAL_DOWNLOAD_PATH = '/downloads/';

/**
 * A directory as object store: the embedded default. Writes go to a temporary name and are
 * renamed, so a reader never sees half an object. Its links are HMAC-signed, expiring URLs of
 * the API server (LOCAL_DOWNLOAD_PATH), refused after expiry or when tampered with, as S3's are.
 */
export class LocalObjectStore implements ObjectStore {
  readonly location: string;
  private readonly dir: string;
  private readonly publicUrl: () => string;
  private signer: LinkSigner | undefined;

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
  async openLink(
    key: string,
    expires: string,
    signature: string,
  ): Promise<{ stream: ReadStream; size: number } | { refused: string; notFound?: boolean }> {
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
  private async linkSigner(): Promise<LinkSigner> {
    if (this.signer) return this.signer;
    const file = join(this.dir, '.link-signing-key');
    let secret: Buffer;
    try {
      secret = await readFile(file);
    } catch {
      await mkdir(this.dir, { recursive: true });
      const handle = await open(file, 'wx', 0o600).catch(() => undefined);
      if (handle) {
        await handle.writeFile(randomBytes(32));
        await handle.close();
      }
      secret = await readFile(file);
    }
    this.signer = new LinkSigner(secret);
    return this.signer;
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
