import { hash } from 'node:crypto';

/** What a presented credential last verified against, and what it opened. */
export interface VerifiedEntry<Binding> {
  readonly storedHash: string;
  /** Facts about the record that never change (an API key's client and user), so a repeat request can read related records in the same round trip. */
  readonly binding: Binding;
}

/**
 * Remembers, per container, which stored hash a presented secret last verified against,
 * so a repeat request skips Argon2id (tens of milliseconds of CPU). Keyed by a SHA-256
 * of the presented credential, never the credential itself. An entry counts only while
 * the stored hash is unchanged, so a rotated secret or a new key invalidates it; the
 * record itself is still read on every request, so revocation and expiry are immediate.
 */
export class VerifiedSecretCache<Binding = undefined> {
  private readonly entries = new Map<string, VerifiedEntry<Binding>>();

  constructor(private readonly maxEntries = 1000) {}

  /** One-shot crypto.hash: less CPU than createHash().update().digest() (bench/README.md), on every token request. */
  static keyOf(credential: string): string {
    return hash('sha256', credential, 'base64url');
  }

  /** The entry of a credential verified before; the caller must still compare `storedHash` with the record it reads. */
  recall(credential: string): VerifiedEntry<Binding> | undefined {
    const key = VerifiedSecretCache.keyOf(credential);
    const hit = this.entries.get(key);
    if (hit === undefined) return undefined;
    // Refresh recency: Map iteration order is insertion order, so this keeps the LRU at the front.
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit;
  }

  has(credential: string, storedHash: string): boolean {
    const hit = this.recall(credential);
    if (hit === undefined) return false;
    if (hit.storedHash !== storedHash) {
      this.forget(credential);
      return false;
    }
    return true;
  }

  remember(credential: string, storedHash: string, ...binding: Binding extends undefined ? [] : [Binding]): void {
    const key = VerifiedSecretCache.keyOf(credential);
    this.entries.delete(key);
    this.entries.set(key, { storedHash, binding: binding[0] as Binding });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  forget(credential: string): void {
    this.entries.delete(VerifiedSecretCache.keyOf(credential));
  }
}
