import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { ApiKeyRecord } from '../contract/records.ts';
import type { ObjectStore } from '../storage/object-store.ts';
import { ServiceRefusal } from './errors.ts';

const KEYS = 'keys/';

export type KeyCheck = { organization: string } | { refused: string };
/** How often an unknown key may make the service look for keys created since it last did. */
const RELOAD_INTERVAL_MS = 2000;

/**
 * Admin keys (spec section 5): `<prefix>_<secret>`, 32 random bytes. Only the key's sha256 is
 * stored (at keys/<sha256>.json): a key is as strong as a random 256-bit secret, so a fast hash is
 * the right one, and the store never holds anything that would let its reader authenticate.
 */
export class ApiKeys {
  private readonly store: ObjectStore;
  private readonly prefix: string;
  private known = new Map<string, ApiKeyRecord>();
  /** When an unknown key last made the keys be read: at most every RELOAD_INTERVAL_MS. */
  private lookedUpAt = 0;
  private loading: Promise<void> | undefined;

  constructor(store: ObjectStore, prefix: string) {
    this.store = store;
    this.prefix = prefix;
  }

  /** Makes a key for an organization; the key itself is returned once and never stored. */
  async create(organization: string): Promise<string> {
    const key = `${this.prefix}_${randomBytes(32).toString('base64url')}`;
    const record: ApiKeyRecord = { organization, sha256: digest(key), createdAt: new Date().toISOString() };
    await this.store.putJson(`${KEYS}${record.sha256}.json`, record);
    this.known.set(record.sha256, record);
    return key;
  }

  /** The organization a key belongs to, or why it is refused. */
  async authenticate(key: string): Promise<KeyCheck> {
    const known = this.check(key);
    if (known) return known;
    if (this.loading) await this.loading;
    else {
      this.lookedUpAt = Date.now();
      await this.reload();
    }
    return this.check(key, true) as KeyCheck;
  }

  /**
   * The same answer without waiting, when the keys in memory give it (every request but the
   * first with a key created since the last look): undefined when the store must be read again.
   */
  check(key: string, reloaded = false): KeyCheck | undefined {
    if (!key.startsWith(`${this.prefix}_`) || !/^[\w-]{20,200}$/.test(key.slice(this.prefix.length + 1)))
      return { refused: `malformed admin key: expected ${this.prefix}_ followed by the key` };
    const presented = digest(key);
    const record = this.known.get(presented);
    // Unknown: worth a look at the store when the last one is a while ago, and worth waiting for
    // the look in progress (a burst of first requests must not be refused while it runs).
    if (!record && !reloaded && (this.loading || Date.now() - this.lookedUpAt > RELOAD_INTERVAL_MS))
      return undefined;
    // The lookup is by digest, so its timing says nothing about the key; the comparison is
    // constant-time all the same.
    if (!record || !timingSafeEqual(Buffer.from(record.sha256), Buffer.from(presented)))
      return { refused: 'unknown admin key' };
    return { organization: record.organization };
  }

  /** Every key's record (never the key itself), for `docsnap keys list`. */
  async list(): Promise<ApiKeyRecord[]> {
    await this.reload();
    return [...this.known.values()].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  /**
   * Revokes the key whose id (the start of its sha256, as `keys list` shows it, at least 8 hex
   * digits) is given: its record is deleted, and servers stop accepting it at their next refresh.
   */
  async revoke(id: string): Promise<ApiKeyRecord> {
    if (!/^[0-9a-f]{8,64}$/.test(id))
      throw new ServiceRefusal('invalid', `"${id}" is not a key id: 8 to 64 hex digits`);
    const matches = (await this.list()).filter((record) => record.sha256.startsWith(id));
    if (matches.length === 0) throw new ServiceRefusal('not-found', `no key with id ${id}`);
    if (matches.length > 1)
      throw new ServiceRefusal(
        'invalid',
        `${matches.length} keys have an id starting ${id}: give more digits`,
      );
    const record = matches[0] as ApiKeyRecord;
    await this.store.delete(`${KEYS}${record.sha256}.json`);
    this.known.delete(record.sha256);
    return record;
  }

  /** Reads the keys again every `intervalMs`, so revoked and deleted keys stop working; returns the stop. */
  refreshEvery(intervalMs: number, onError: (error: Error) => void): () => void {
    const timer = setInterval(() => this.reload().catch(onError), intervalMs).unref();
    return () => clearInterval(timer);
  }

  /** The keys as the store has them now: records already known are not read again, only listed. */
  private reload(): Promise<void> {
    this.loading ??= (async () => {
      try {
        const known = new Map<string, ApiKeyRecord>();
        for (const name of await this.store.list(KEYS)) {
          const sha256 = name.slice(KEYS.length).replace(/\.json$/, '');
          const record = this.known.get(sha256) ?? this.parse(await this.store.getJson(name));
          if (record) known.set(record.sha256, record);
        }
        this.known = known;
      } finally {
        this.loading = undefined;
      }
    })();
    return this.loading;
  }

  private parse(value: unknown): ApiKeyRecord | undefined {
    const parsed = ApiKeyRecord.safeParse(value);
    return parsed.success ? parsed.data : undefined;
  }
}

function digest(key: string): string {
  return hash('sha256', key, 'hex');
}
