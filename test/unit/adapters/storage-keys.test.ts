/**
 * Every storage key is built in lambdas/adapters/dynamodb/keys/: each builder's partition key
 * belongs to its key family and to no other of its table (behaviour IAM-2: the grants are written
 * from those families), and the bytes stored stay what the items have always held.
 */
import { createHash } from 'node:crypto';
import * as keys from '../../../lambdas/adapters/dynamodb/keys/item-keys';
import * as partitions from '../../../lambdas/adapters/dynamodb/keys/partitions';
import { digest } from '../../../lambdas/adapters/dynamodb/keys/key-parts';
import { type KeyFamilyName, keyFamilies, matchesLeadingKey } from '../../../lambdas/adapters/dynamodb/keys/families';

type Builders = typeof keys;

/** Sample arguments for every builder, and the family its key belongs to when not the builder's own name. */
const samples: { [K in keyof Builders]: { readonly args: Parameters<Builders[K]>; readonly family?: KeyFamilyName } } = {
  client: { args: ['tgc_x'] },
  clientCopy: { args: ['tgc_x', 3], family: 'client' },
  user: { args: ['usr_x'] },
  email: { args: ['a@example.org'] },
  environment: { args: ['env_x'] },
  environmentGrant: { args: ['usr_x', 'env_x'], family: 'user' },
  scope: { args: ['openid'] },
  scopeCatalogVersion: { args: [] },
  passkey: { args: ['d'] },
  passkeyOfUser: { args: ['usr_x', 'd'], family: 'user' },
  siteSettings: { args: [] },
  signingKeyTimes: { args: [] },
  trustedIssuer: { args: ['env_x', 'https://idp.example'] },
  workloadIssuer: { args: ['https://idp.example'], family: 'trustedIssuer' },
  trustedIssuerById: { args: ['tri_x'], family: 'trustedIssuer' },
  apiKey: { args: ['0123456789abcdef'] },
  apiKeyOfUser: { args: [{ userId: 'usr_x', clientId: 'tgc_x', createdAt: '2026-01-01T00:00:00.000Z', keyId: 'k' }], family: 'user' },
  session: { args: ['s'] },
  authorizationRequest: { args: ['r'] },
  pushedAuthorizationRequest: { args: ['urn:ietf:params:oauth:request_uri:x'] },
  shownOnce: { args: ['handle'] },
  authorizationCode: { args: ['c'] },
  refreshToken: { args: ['t'] },
  refreshGrace: { args: ['t'], family: 'refreshToken' },
  tokenFamily: { args: ['f'] },
  tokenRecord: { args: ['j'] },
  signInChallenge: { args: ['ch'] },
  verificationCode: { args: ['usr_x'] },
  resetLink: { args: ['d'] },
  resetLinkOfUser: { args: ['usr_x'] },
  recoveryProof: { args: ['d'] },
  passkeyCeremony: { args: ['w'] },
  sendRate: { args: ['OTP#usr_x'] },
  passwordFailures: { args: ['d', 7] },
  device: { args: ['n'] },
  registrationCounter: { args: ['2026-01-01', '203.0.113.7'] },
  usedIdentifier: { args: ['dpop-proof', 'https://issuer.example', 'j'] },
  tokenActivity: { args: [{ clientId: 'tgc_x', startedAt: '2026-01-01T00:00:00.000Z', attemptId: 'a' }, 3] },
  auditEntry: { args: [{ at: '2026-01-01T00:00:00.000Z', userId: 'usr_x' }, 'id'] },
};

test('behaviour IAM-2: each key builder’s partition key matches its own family and no other of its table', () => {
  for (const [name, sample] of Object.entries(samples) as [keyof Builders, { args: unknown[]; family?: KeyFamilyName }][]) {
    const family = sample.family ?? (name as KeyFamilyName);
    // biome-ignore lint/performance/noDynamicNamespaceImportAccess: the test walks every builder; it is never bundled
    const { pk } = (keys[name] as (...args: unknown[]) => { pk: string })(...sample.args);
    const matching = (Object.entries(keyFamilies) as [KeyFamilyName, (typeof keyFamilies)[KeyFamilyName]][])
      .filter(([, other]) => other.table === keyFamilies[family].table && !('index' in other))
      .filter(([, other]) => other.leadingKeys.some((pattern) => matchesLeadingKey(pattern, pk)))
      .map(([other]) => other);
    expect([name, matching]).toEqual([name, [family]]);
  }
});

test('the stored keys keep their bytes: digests, copies, shards, index entries, audit partitions', () => {
  const sha = (value: string) => createHash('sha256').update(value).digest('base64url');
  expect(digest('abc')).toBe(sha('abc'));
  expect(keys.session('abc')).toEqual({ pk: `SESSION#${sha('abc')}`, sk: 'SESSION' });
  expect(keys.device('n')).toEqual({ pk: `DEVICE#${sha('n')}`, sk: 'DEVICE' });
  expect(keys.clientCopy('tgc_x', 0)).toEqual({ pk: 'CLIENT#tgc_x', sk: 'CLIENT' });
  expect(keys.clientCopy('tgc_x', 5)).toEqual({ pk: 'COPY5#tgc_x', sk: 'CLIENT' });
  expect(keys.passwordFailures('d', 7)).toEqual({ pk: 'PWFAIL#d#7', sk: 'PWFAIL' });
  expect(keys.tokenActivity({ startedAt: '2026-01-01T00:00:00.000Z', attemptId: 'a' }, 3)).toEqual({
    pk: 'ACTIVITY#unknown#03',
    sk: '2026-01-01T00:00:00.000Z#a',
  });
  expect(keys.apiKeyOfUser({ userId: 'usr_x', clientId: 'tgc_x', createdAt: '2026-01-01T00:00:00.000Z', keyId: 'k' })).toEqual({
    pk: 'USER#usr_x',
    sk: 'APIKEY#tgc_x#2026-01-01T00:00:00.000Z#k',
  });
  expect(partitions.apiKeysOfUserPrefix()).toBe('APIKEY#');
  expect(keys.auditEntry({ at: 't', clientId: 'tgc_x', userId: 'usr_x' }, 'i')).toEqual({ pk: 'AUDIT#tgc_x', sk: 't#i' });
  expect(keys.auditEntry({ at: 't', userId: 'usr_x' }, 'i').pk).toBe('AUDIT#USER#usr_x');
  expect(keys.auditEntry({ at: 't' }, 'i').pk).toBe(partitions.siteAudit);
  expect(partitions.siteAudit).toBe('AUDIT#SITE');
  expect(partitions.registrationCountersOfDay('2026-01-01')).toBe('DCRRATE#2026-01-01');
  expect(keys.trustedIssuer('env_x', 'https://idp.example')).toEqual({ pk: `TRUST#env_x#${sha('https://idp.example')}`, sk: 'TRUST' });
  expect(keys.workloadIssuer('https://idp.example')).toEqual({ pk: `TRUSTWORKLOAD#${sha('https://idp.example')}`, sk: 'TRUST' });
});
