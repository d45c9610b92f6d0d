/**
 * The trusted-issuer store on DynamoDB Local (behaviour TRUST-2): one GetItem per lookup, one
 * trust per issuer and profile (per environment for id-jag, anywhere for workload), every change
 * with its audit entry in its transaction (LOG-9).
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoTrustedIssuerStore } from '../../lambdas/adapters/dynamodb/trusted-issuer-store';
import * as keys from '../../lambdas/adapters/dynamodb/keys/item-keys';
import * as partitions from '../../lambdas/adapters/dynamodb/keys/partitions';
import { ConflictError, ScopeCatalogChangedError } from '../../lambdas/core/errors';
import type { AdminAuditEntry } from '../../lambdas/core/model';
import type { TrustedIssuer } from '../../lambdas/core/trusted-issuers/model';
import { getStorage } from '../../lambdas/wiring/storage';
import { auditPartition, testAdminActor } from '../support/admin-calls';
import { createEnvironment, unique, uniqueSuffix } from '../support/fixtures';

const store = () => new DynamoTrustedIssuerStore(getStorage().db, getStorage().tables.main, getStorage().tables.activity);

const jwks = {
  keys: [
    {
      kty: 'EC',
      crv: 'P-256',
      x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU',
      y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0',
      kid: 'k1',
    },
  ],
};

function record(environmentId: string, overrides: Partial<TrustedIssuer> = {}): TrustedIssuer {
  return {
    trustedIssuerId: unique('tri_'),
    environmentId,
    issuer: `https://idp-${uniqueSuffix()}.example.com`,
    profile: 'id-jag',
    jwks,
    createdAt: new Date().toISOString(),
    ...overrides,
  };
}

const audit = (type: AdminAuditEntry['type'], trusted: TrustedIssuer): AdminAuditEntry => ({
  type,
  actor: testAdminActor,
  at: new Date().toISOString(),
  trustedIssuerId: trusted.trustedIssuerId,
  issuer: trusted.issuer,
  environmentId: trusted.environmentId,
});

const entriesOf = async (trustedIssuerId: string) =>
  (await auditPartition(partitions.siteAudit)).filter((entry) => entry.trustedIssuerId === trustedIssuerId).map((entry) => entry.type);

const rawItem = async (key: { pk: string; sk: string }) =>
  (await getStorage().db.send(new GetCommand({ TableName: getStorage().tables.main, Key: key, ConsistentRead: true }))).Item;

describe('trusted issuers in DynamoDB (behaviour TRUST-2)', () => {
  let environmentId: string;
  let otherEnvironmentId: string;
  beforeAll(async () => {
    [environmentId, otherEnvironmentId] = await Promise.all([createEnvironment(), createEnvironment()]);
  });

  test('an id-jag issuer is found by environment and URL, by id, and not in another environment or as a workload issuer', async () => {
    const trusted = record(environmentId, { userClaim: 'email', createUsers: true });
    await store().create(trusted, audit('trusted_issuer.create', trusted));
    expect(await store().idJagIssuer(environmentId, trusted.issuer)).toEqual(trusted);
    expect(await store().get(trusted.trustedIssuerId)).toEqual(trusted);
    expect(await store().idJagIssuer(otherEnvironmentId, trusted.issuer)).toBeUndefined();
    expect(await store().workloadIssuer(trusted.issuer)).toBeUndefined();
    expect(await entriesOf(trusted.trustedIssuerId)).toEqual(['trusted_issuer.create']);
  });

  test('the same issuer twice in one environment is a ConflictError, with nothing written; in another environment it is its own', async () => {
    const first = record(environmentId);
    await store().create(first, audit('trusted_issuer.create', first));
    const second = { ...first, trustedIssuerId: unique('tri_') };
    await expect(store().create(second, audit('trusted_issuer.create', second))).rejects.toBeInstanceOf(ConflictError);
    expect(await rawItem(keys.trustedIssuerById(second.trustedIssuerId))).toBeUndefined();
    expect(await entriesOf(second.trustedIssuerId)).toEqual([]);
    const elsewhere = { ...first, trustedIssuerId: unique('tri_'), environmentId: otherEnvironmentId };
    await store().create(elsewhere, audit('trusted_issuer.create', elsewhere));
    expect((await store().idJagIssuer(otherEnvironmentId, first.issuer))?.trustedIssuerId).toBe(elsewhere.trustedIssuerId);
  });

  test('an issuer URL is a workload issuer in one environment at most: a second, anywhere, is a ConflictError', async () => {
    const rules = [{ subject: 'system:serviceaccount:ci:*', scopes: ['openid'], resources: ['https://api.example.com'] }];
    const workload = record(environmentId, { profile: 'workload', rules });
    await store().create(workload, audit('trusted_issuer.create', workload));
    expect(await store().workloadIssuer(workload.issuer)).toEqual(workload);
    const again = { ...workload, trustedIssuerId: unique('tri_'), environmentId: otherEnvironmentId };
    await expect(store().create(again, audit('trusted_issuer.create', again))).rejects.toBeInstanceOf(ConflictError);
    expect(await store().get(again.trustedIssuerId)).toBeUndefined();
    // The same URL may still be an id-jag issuer: the profiles are looked up apart.
    const idJag = { ...workload, trustedIssuerId: unique('tri_'), profile: 'id-jag' as const, rules: undefined };
    await store().create(idJag, audit('trusted_issuer.create', idJag));
    expect((await store().idJagIssuer(environmentId, workload.issuer))?.profile).toBe('id-jag');
  });

  test('a trust of an environment that does not exist is not written', async () => {
    const trusted = record(`env_gone${uniqueSuffix()}`);
    expect(await store().create(trusted, audit('trusted_issuer.create', trusted))).toBe(false);
    expect(await store().get(trusted.trustedIssuerId)).toBeUndefined();
    expect(await store().idJagIssuer(trusted.environmentId, trusted.issuer)).toBeUndefined();
    expect(await entriesOf(trusted.trustedIssuerId)).toEqual([]);
  });

  test('an update replaces the record with its entry; one from a stale reading is refused unwritten', async () => {
    const trusted = record(environmentId);
    await store().create(trusted, audit('trusted_issuer.create', trusted));
    const changed = { ...trusted, description: 'Okta', updatedAt: new Date().toISOString() };
    expect(await store().update(trusted, changed, audit('trusted_issuer.update', trusted))).toBe(true);
    expect(await store().idJagIssuer(environmentId, trusted.issuer)).toEqual(changed);
    const stale = { ...trusted, description: 'stale' };
    expect(await store().update(trusted, stale, audit('trusted_issuer.update', trusted))).toBe(false);
    expect((await store().get(trusted.trustedIssuerId))?.description).toBe('Okta');
    expect(await entriesOf(trusted.trustedIssuerId)).toEqual(['trusted_issuer.create', 'trusted_issuer.update']);
  });

  test('a delete removes the record and its pointer with its entry; deleting again does nothing', async () => {
    const trusted = record(environmentId, { profile: 'workload', rules: [] });
    await store().create(trusted, audit('trusted_issuer.create', trusted));
    await store().delete(trusted, audit('trusted_issuer.delete', trusted));
    expect(await store().workloadIssuer(trusted.issuer)).toBeUndefined();
    expect(await rawItem(keys.trustedIssuerById(trusted.trustedIssuerId))).toBeUndefined();
    await store().delete(trusted, audit('trusted_issuer.delete', trusted));
    expect(await entriesOf(trusted.trustedIssuerId)).toEqual(['trusted_issuer.create', 'trusted_issuer.delete']);
  });

  test('behaviour ADMIN-18: a write conditioned on a catalog version that a scope deletion moved since is refused unwritten', async () => {
    const stale = { catalogVersion: `gone-${uniqueSuffix()}` };
    const trusted = record(environmentId, {
      profile: 'workload',
      rules: [{ subject: 's', scopes: ['openid'], resources: ['https://r.example'] }],
    });
    await expect(store().create(trusted, audit('trusted_issuer.create', trusted), stale)).rejects.toBeInstanceOf(ScopeCatalogChangedError);
    expect(await store().get(trusted.trustedIssuerId)).toBeUndefined();
    await store().create(trusted, audit('trusted_issuer.create', trusted));
    const changed = { ...trusted, description: 'x' };
    await expect(store().update(trusted, changed, audit('trusted_issuer.update', trusted), stale)).rejects.toBeInstanceOf(
      ScopeCatalogChangedError,
    );
    expect((await store().get(trusted.trustedIssuerId))?.description).toBeUndefined();
    expect(await entriesOf(trusted.trustedIssuerId)).toEqual(['trusted_issuer.create']);
    const holders = await store().holdersOfScope('openid', 1_000);
    expect(holders.sample).toContain(trusted.trustedIssuerId);
    await store().delete(trusted, audit('trusted_issuer.delete', trusted));
  });

  test('the list comes newest first, in pages; an environment with a trusted issuer says so', async () => {
    const lonely = await createEnvironment();
    expect(await store().anyInEnvironment(lonely)).toBe(false);
    const older = record(lonely, { createdAt: '2999-01-01T00:00:00.000Z' });
    const newer = record(lonely, { createdAt: '2999-01-02T00:00:00.000Z' });
    for (const trusted of [older, newer]) await store().create(trusted, audit('trusted_issuer.create', trusted));
    const first = await store().list(1);
    expect(first.items.map((t) => t.trustedIssuerId)).toEqual([newer.trustedIssuerId]);
    const second = await store().list(1, first.next);
    expect(second.items.map((t) => t.trustedIssuerId)).toEqual([older.trustedIssuerId]);
    expect(await store().anyInEnvironment(lonely)).toBe(true);
    for (const trusted of [older, newer]) await store().delete(trusted, audit('trusted_issuer.delete', trusted));
  });
});
