/**
 * The lost-race paths of the code and refresh grants, which DynamoDB Local rarely shows:
 * a transaction cancelled because a concurrent one was still in flight
 * (TransactionConflict) reports no winner yet. The loser re-reads until the winner's
 * family shows, then revokes it (RFC 6749 4.1.2, RFC 9700 4.14.2).
 */
import { cryptoRandom } from '../../../lambdas/adapters/system';
import { InvalidGrantError } from '../../../lambdas/core/errors';
import { TokenRequestActivity } from '../../../lambdas/core/grants/activity';
import { authorizationCodeGrant } from '../../../lambdas/core/grants/authorization-code';
import type { GrantDependencies } from '../../../lambdas/core/grants/grant';
import type { GrantStore } from '../../../lambdas/core/grants/ports';
import { refreshTokenGrant } from '../../../lambdas/core/grants/refresh-token';
import type { AuthorizationCode, Client, RefreshToken, User } from '../../../lambdas/core/model';
import { s256 } from '../../../lambdas/core/pkce';

const clock = { now: () => Date.now() };
const nowEpoch = () => Math.floor(Date.now() / 1000);
const client: Client = {
  clientId: 'tgc_race',
  name: 'race',
  type: 'public',
  environmentId: 'env_race',
  redirectUris: ['https://app.example.test/cb'],
  grantTypes: ['authorization_code', 'refresh_token'],
  scopes: ['read'],
  registrationType: 'static',
  admin: false,
  test: false,
  createdAt: new Date().toISOString(),
};
const user: User = { id: 'usr_race', name: 'Race', admin: false, test: false, createdAt: new Date().toISOString() };
const verifier = 'v'.repeat(43);

function depsWith(store: Partial<GrantStore>): GrantDependencies & { revoked: string[] } {
  const revoked: string[] = [];
  return {
    issuer: 'https://auth.example.test',
    signer: { kid: 'k', sign: async () => 'signed.jwt.value' },
    clock,
    random: cryptoRandom,
    users: { get: async () => user },
    environments: { hasAccess: async () => true },
    mfaPolicy: async () => 'off',
    keepClient: async () => undefined,
    // Neither grant here reads an assertion.
    assertionGrants: {} as GrantDependencies['assertionGrants'],
    pause: async () => undefined,
    revoked,
    store: {
      revokeFamily: async (familyId: string) => {
        revoked.push(familyId);
      },
      isFamilyRevoked: async () => false,
      ...store,
    } as GrantStore,
  };
}

/** Answers each call with the next value, repeating the last. */
const sequence = <T>(...values: T[]) => {
  let i = 0;
  return async () => values[Math.min(i++, values.length - 1)]!;
};

describe('authorization_code: a redemption cancelled by a concurrent one in flight', () => {
  const code: AuthorizationCode = {
    clientId: client.clientId,
    userId: user.id,
    scopes: ['read'],
    authTime: nowEpoch(),
    redirectUri: client.redirectUris[0]!,
    codeChallenge: s256(verifier),
    expiresAtEpoch: nowEpoch() + 300,
  };

  it('re-reads until the winner commits, revokes its family, answers invalid_grant', async () => {
    const deps = depsWith({
      getCode: sequence<AuthorizationCode | undefined>(code, code, { ...code, familyId: 'fam_winner' }),
      redeemCode: async () => ({ kind: 'reused' }),
    });
    const request = { code: 'c', redirectUri: code.redirectUri, codeVerifier: verifier };
    await expect(authorizationCodeGrant(client, request, new TokenRequestActivity('ip', clock, cryptoRandom), deps)).rejects.toBeInstanceOf(
      InvalidGrantError,
    );
    expect(deps.revoked).toEqual(['fam_winner']);
  });
});

describe('refresh_token: a rotation cancelled without a clear reason', () => {
  const token: RefreshToken = {
    clientId: client.clientId,
    userId: user.id,
    scopes: ['read'],
    authTime: nowEpoch(),
    familyId: 'fam_r',
    expiresAtEpoch: nowEpoch() + 3600,
  };
  const request = { refreshToken: 'rt' };

  it('a concurrent rotation that commits late is a reuse: the family is revoked', async () => {
    const deps = depsWith({
      getRefreshToken: sequence<RefreshToken | undefined>(token, token, { ...token, rotatedAtEpoch: nowEpoch() }),
      rotateRefreshToken: async () => ({ kind: 'family-revoked' }),
    });
    await expect(refreshTokenGrant(client, request, new TokenRequestActivity('ip', clock, cryptoRandom), deps)).rejects.toThrow(/reused/);
    expect(deps.revoked).toEqual(['fam_r']);
  });

  it('a family revoked meanwhile is just invalid_grant', async () => {
    const deps = depsWith({
      getRefreshToken: sequence<RefreshToken | undefined>(token),
      isFamilyRevoked: sequence(false, true),
      rotateRefreshToken: async () => ({ kind: 'family-revoked' }),
    });
    await expect(refreshTokenGrant(client, request, new TokenRequestActivity('ip', clock, cryptoRandom), deps)).rejects.toThrow(
      /rotation cancelled \(revoked\)/,
    );
    expect(deps.revoked).toEqual([]);
  });
});
