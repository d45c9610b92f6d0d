import { randomUUID } from 'node:crypto';
import { DynamoSingleUseIds } from '../../lambdas/adapters/dynamodb/single-use-ids';
import { getStorage } from '../../lambdas/wiring/storage';

describe('one-time identifiers (RFC 9449 §11.1, RFC 7523 §3: a jti is accepted once until it expires)', () => {
  const clockAt = (ms: number) => ({ now: () => ms });

  it('accepts a jti once and refuses its replay, across containers', async () => {
    const { db, tables } = getStorage();
    const now = Date.now();
    const first = new DynamoSingleUseIds(db, tables.ephemeral, clockAt(now));
    const other = new DynamoSingleUseIds(db, tables.ephemeral, clockAt(now));
    const jti = randomUUID();
    const exp = Math.floor(now / 1000) + 60;
    expect(await first.use('dpop-proof', 'https://issuer.example', jti, exp)).toBe(true);
    expect(await first.use('dpop-proof', 'https://issuer.example', jti, exp)).toBe(false);
    expect(await other.use('dpop-proof', 'https://issuer.example', jti, exp)).toBe(false);
  });

  it('keeps purposes and issuers apart: the same jti from another issuer or for another purpose is its own', async () => {
    const { db, tables } = getStorage();
    const ids = new DynamoSingleUseIds(db, tables.ephemeral, clockAt(Date.now()));
    const jti = randomUUID();
    const exp = Math.floor(Date.now() / 1000) + 60;
    expect(await ids.use('client-assertion', 'client-a', jti, exp)).toBe(true);
    expect(await ids.use('client-assertion', 'client-b', jti, exp)).toBe(true);
    expect(await ids.use('authorization-grant', 'client-a', jti, exp)).toBe(true);
    expect(await ids.use('client-assertion', 'client-a', jti, exp)).toBe(false);
  });

  it('forgets a jti once its expiry has passed, although TTL has not removed the item yet', async () => {
    const { db, tables } = getStorage();
    const now = Date.now();
    const jti = randomUUID();
    const exp = Math.floor(now / 1000) + 30;
    expect(await new DynamoSingleUseIds(db, tables.ephemeral, clockAt(now)).use('dpop-proof', 'i', jti, exp)).toBe(true);
    const later = new DynamoSingleUseIds(db, tables.ephemeral, clockAt(now + 31_000));
    expect(await later.use('dpop-proof', 'i', jti, exp + 60)).toBe(true);
  });
});
