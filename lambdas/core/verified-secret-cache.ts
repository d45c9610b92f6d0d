import { createHash } from 'node:crypto';

/**
 * Remembers, per container, which stored hash a presented secret last verified against,
 * so a repeat request skips Argon2id (tens of milliseconds of CPU). Keyed by a SHA-256
 * of the presented credential, never the credential itself. An entry counts only while
 * the stored hash is unchanged, so a rotated secret or a new key invalidates it; the
 * record itself is still read on every request, so revocation and expiry are immediate.
 */
export class VerifiedSecretCache {
  private readonly entries = new Map<string, string>();

  constructor(private readonly maxEntries = 1000) {}

  static keyOf(credential: string): string {
    return createHash('sha256').update(credential).digest('base64url');
  }

  has(credential: string, storedHash: string): boolean {
    const key = VerifiedSecretCache.keyOf(credential);
    const hit = this.entries.get(key);
    if (hit === undefined) return false;
    if (hit !== storedHash) {
      this.entries.delete(key);
      return false;
    }
    // Refresh recency: Map iteration order is insertion order, so this keeps the LRU at the front.
    this.entries.delete(key);
    this.entries.set(key, hit);
    return true;
  }

  remember(credential: string, storedHash: string): void {
    const key = VerifiedSecretCache.keyOf(credential);
    this.entries.delete(key);
    this.entries.set(key, storedHash);
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }
}
