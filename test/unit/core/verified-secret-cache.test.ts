import { VerifiedSecretCache } from '../../../lambdas/core/verified-secret-cache';

const binding = { clientId: 'tgc_a', userId: 'usr_a' };

describe('VerifiedSecretCache: a repeat request skips Argon2id only for the hash it verified against', () => {
  it('recalls the stored hash and the binding of a credential verified before, and nothing for another credential', () => {
    const cache = new VerifiedSecretCache<typeof binding>();
    cache.remember('tgk_1_secret', '$argon2id$one', binding);
    expect(cache.recall('tgk_1_secret')).toEqual({ storedHash: '$argon2id$one', binding });
    expect(cache.recall('tgk_1_other')).toBeUndefined();
  });

  it('counts a hit only while the stored hash is unchanged, and drops the stale entry', () => {
    const cache = new VerifiedSecretCache();
    cache.remember('secret', '$argon2id$old');
    expect(cache.has('secret', '$argon2id$new')).toBe(false);
    expect(cache.has('secret', '$argon2id$old')).toBe(false);
    cache.remember('secret', '$argon2id$new');
    expect(cache.has('secret', '$argon2id$new')).toBe(true);
  });

  it('forgets on request', () => {
    const cache = new VerifiedSecretCache();
    cache.remember('secret', '$h');
    cache.forget('secret');
    expect(cache.recall('secret')).toBeUndefined();
  });

  it('keeps at most maxEntries, evicting the least recently used', () => {
    const cache = new VerifiedSecretCache(2);
    cache.remember('a', '$a');
    cache.remember('b', '$b');
    expect(cache.recall('a')).toBeDefined(); // a is now the most recent
    cache.remember('c', '$c');
    expect(cache.recall('b')).toBeUndefined();
    expect(cache.recall('a')).toBeDefined();
    expect(cache.recall('c')).toBeDefined();
  });

  it('holds a digest of the credential, never the credential itself', () => {
    const cache = new VerifiedSecretCache();
    cache.remember('tgk_0123456789abcdef_the-secret-part', '$h');
    expect(JSON.stringify([...(cache as unknown as { entries: Map<string, unknown> }).entries.keys()])).not.toContain('the-secret-part');
  });
});
