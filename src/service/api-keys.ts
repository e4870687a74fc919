import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { ApiKeyRecord } from '../contract/records.ts';
import type { ObjectStore } from '../storage/object-store.ts';

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
  private loadedAt = 0;
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
    await this.reload();
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
    if (!record && !reloaded && Date.now() - this.loadedAt > RELOAD_INTERVAL_MS) return undefined;
    // The lookup is by digest, so its timing says nothing about the key; the comparison is
    // constant-time all the same.
    if (!record || !timingSafeEqual(Buffer.from(record.sha256), Buffer.from(presented)))
      return { refused: 'unknown admin key' };
    return { organization: record.organization };
  }

  private reload(): Promise<void> {
    this.loading ??= (async () => {
      try {
        const known = new Map<string, ApiKeyRecord>();
        for (const key of await this.store.list(KEYS)) {
          const parsed = ApiKeyRecord.safeParse(await this.store.getJson(key));
          if (parsed.success) known.set(parsed.data.sha256, parsed.data);
        }
        this.known = known;
        this.loadedAt = Date.now();
      } finally {
        this.loading = undefined;
      }
    })();
    return this.loading;
  }
}

function digest(key: string): string {
  return hash('sha256', key, 'hex');
}
