import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Expiring links for the local store, signed with HMAC-SHA256 like S3's presigned URLs: the
 * signature covers the object key and the expiry, so a link stops working when it expires and
 * when any part of it is changed.
 */
export class LinkSigner {
  private readonly secret: Buffer;

  constructor(secret: Buffer) {
    if (secret.length < 32) throw new Error('the link signing secret must be at least 32 bytes');
    this.secret = secret;
  }

  sign(key: string, expiresAt: Date): { expires: string; signature: string } {
    const expires = String(Math.floor(expiresAt.getTime() / 1000));
    return { expires, signature: this.signature(key, expires) };
  }

  /** Why a link is refused, or undefined when it is good. */
  check(key: string, expires: string, signature: string, now = Date.now()): string | undefined {
    if (!/^\d{1,12}$/.test(expires) || !/^[0-9a-f]{64}$/.test(signature)) return 'malformed link';
    const expected = Buffer.from(this.signature(key, expires), 'hex');
    if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) return 'bad signature';
    if (Number(expires) * 1000 <= now) return 'link expired';
    return undefined;
  }

  private signature(key: string, expires: string): string {
    return createHmac('sha256', this.secret).update(`GET\n${key}\n${expires}`).digest('hex');
  }
}
