/**
 * A bounded soak under DynamoDB trouble: 35% of all DynamoDB attempts fail, half
 * before they reach the database, half with their reply lost after it (the fault double,
 * test/support/dynamo-faults.ts), over code + refresh chains (OAuth 2.1 4.1, 4.3),
 * registrations (RFC 7591, behaviour REG-6), API key create / exchange / revoke (behaviour KEYX-1, KEYM-5..KEYM-7) and
 * client_credentials (OAuth 2.1 4.2). Calls are made one after another, so the seed fixes the
 * run. Then, with the faults off, what was acknowledged and what was refused is checked:
 *
 * - every answer is a success or a clean 503 temporarily_unavailable with Retry-After;
 * - no refresh family is revoked (the soak's clients never reuse a token and never lose access);
 * - nothing acknowledged is lost: acknowledged tokens are active, clients and keys stored,
 *   revocations in force, and a refresh token whose rotation did not land still rotates;
 * - no refused request leaves a client or an active key behind;
 * - the registration cap counts each request at most once.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyResult } from 'aws-lambda';
import type { User } from '../../lambdas/core/model';
import { DynamoScopeRepository } from '../../lambdas/adapters/dynamodb/scope-repository';
import { handler as registerHandler } from '../../lambdas/handlers/register';
import { getClientRepository, getTokenStore } from '../../lambdas/wiring/repositories';
import { getStorage } from '../../lambdas/wiring/storage';
import { createKeyAs, exchangeKey, listKeysAs, revokeKeyAs, storedKey } from '../support/api-keys';
import { DynamoFaults } from '../support/dynamo-faults';
import { apiGatewayEvent, headerOf, jsonBody, lambdaContext } from '../support/events';
import { basic, introspectWith, postToken, redeem, refresh, resourceA } from '../support/token-calls';
import { adminClientToken, createClient, createTokenClient, issueCode, setUpTokenFamily, type TestClient } from '../support/fixtures';

const faultRate = 0.35;
const seed = 19;
const chains = 8;
const refreshesPerChain = 4;
const registrationIps = 4;
const registrationsPerIp = 5;
const keys = 6;
const clientCredentialCalls = 12;

interface Answered {
  readonly what: string;
  readonly status: number;
  readonly body: Record<string, unknown>;
  readonly retryAfter?: string;
}

/** Everything the soak did and was told, checked after the faults are off. */
const answers: Answered[] = [];
function note(
  what: string,
  result: APIGatewayProxyResult | { status: number; body: Record<string, unknown>; result: APIGatewayProxyResult },
): Answered {
  const raw = 'statusCode' in result ? result : result.result;
  const entry = { what, status: raw.statusCode, body: raw.body ? jsonBody(raw) : {}, retryAfter: headerOf(raw, 'retry-after') };
  answers.push(entry);
  return entry;
}
const refusedForTrouble = (a: Answered) => a.status === 503 && a.body.error === 'temporarily_unavailable' && a.retryAfter !== undefined;

interface Chain {
  readonly client: TestClient;
  /** The last refresh and access tokens the client was given. */
  lastRefresh?: string;
  lastAccess?: string;
  /** The refresh that ended the chain with a 503, if one did. */
  endedInTrouble: boolean;
}

let environmentId: string;
let user: User;
let resourceServer: TestClient;
let admin: string;
const run = randomUUID().slice(0, 8);
const chainsRun: Chain[] = [];
const registered: { ip: string; sent: number; created: string[] }[] = [];
const createdKeys: { keyId: string; key: string; revoked: boolean; exchangedToken?: string }[] = [];
let keyClientId: string;
const clientCredentialTokens: string[] = [];
let faults: DynamoFaults;

beforeAll(async () => {
  ({ environmentId, user, resourceServer } = await setUpTokenFamily());
  admin = (await adminClientToken()).token;
  await new DynamoScopeRepository(getStorage().db, getStorage().tables.main).createScope({
    name: 'openid',
    description: 'openid',
    discoverable: true,
  });
  keyClientId = (await createClient({ scopes: ['read'], environmentId })).clientId;
  const machine = await createTokenClient({ environmentId, type: 'confidential', grantTypes: ['client_credentials'], scopes: ['read'] });
  const codes = await Promise.all(
    Array.from({ length: chains }, async () => {
      const { client } = await createTokenClient({ environmentId });
      return { client, code: await issueCode(client, user, { resource: resourceA }) };
    }),
  );

  faults = DynamoFaults.install().randomly({ rate: faultRate, seed });
  try {
    for (const { client, code } of codes) {
      const chain: Chain = { client: { client }, endedInTrouble: false };
      chainsRun.push(chain);
      const first = note('redeem', await redeem(client, code));
      if (first.status !== 200) continue;
      chain.lastRefresh = String(first.body.refresh_token);
      chain.lastAccess = String(first.body.access_token);
      for (let i = 0; i < refreshesPerChain; i++) {
        const next = note('refresh', await refresh(client, chain.lastRefresh));
        // A client that got no answer does not present the same token again: that would be reuse.
        if (next.status !== 200) {
          chain.endedInTrouble = true;
          break;
        }
        chain.lastRefresh = String(next.body.refresh_token);
        chain.lastAccess = String(next.body.access_token);
      }
    }

    for (let i = 0; i < registrationIps; i++) {
      const entry = { ip: `198.51.100.${i}-${run}`, sent: 0, created: [] as string[] };
      registered.push(entry);
      for (let j = 0; j < registrationsPerIp; j++) {
        entry.sent += 1;
        const body = JSON.stringify({ client_name: `soak ${run}`, redirect_uris: ['http://127.0.0.1:33418/callback'], scope: 'openid' });
        const event = apiGatewayEvent({
          method: 'POST',
          path: '/api/register',
          headers: { 'Content-Type': 'application/json' },
          body,
          sourceIp: entry.ip,
        });
        const result = note('register', await registerHandler(event, lambdaContext));
        if (result.status === 201) entry.created.push(String(result.body.client_id));
      }
    }

    for (let i = 0; i < keys; i++) {
      const created = note('key create', await createKeyAs(admin, keyClientId, { userId: user.id, name: `soak ${run}` }));
      if (created.status !== 201) continue;
      const key = { keyId: String(created.body.key_id), key: String(created.body.api_key), revoked: false } as (typeof createdKeys)[number];
      createdKeys.push(key);
      const exchanged = note('key exchange', await exchangeKey({ bearer: key.key, fields: { resource: resourceA } }));
      if (exchanged.status === 200) key.exchangedToken = String(exchanged.body.access_token);
      // Revocation is idempotent: an admin repeats it until it is confirmed (bounded).
      for (let attempt = 0; attempt < 4 && !key.revoked; attempt++) {
        key.revoked = note('key revoke', await revokeKeyAs(admin, keyClientId, key.keyId)).status === 200;
      }
    }

    for (let i = 0; i < clientCredentialCalls; i++) {
      const result = note(
        'client_credentials',
        await postToken(
          { grant_type: 'client_credentials', scope: 'read', resource: resourceA },
          { headers: { Authorization: basic(machine.client.clientId, machine.secret!) } },
        ),
      );
      if (result.status === 200) clientCredentialTokens.push(String(result.body.access_token));
    }
  } finally {
    faults.uninstall();
  }
}, 120_000);

const isActive = async (token: string) => (await introspectWith(resourceServer, token, { resource: resourceA })).body.active === true;

describe(`${faultRate * 100}% DynamoDB faults, seed ${seed}`, () => {
  it('faults were injected on both sides of the database, and some requests were refused for them', () => {
    expect(faults.injected.filter((f) => f.phase === 'before').length).toBeGreaterThan(10);
    expect(faults.injected.filter((f) => f.phase === 'after').length).toBeGreaterThan(10);
    expect(answers.some(refusedForTrouble)).toBe(true);
  });

  it('every answer is a success or 503 temporarily_unavailable with Retry-After: never a 4xx or a bare 500', () => {
    const unclean = answers.filter((a) => a.status >= 300 && !refusedForTrouble(a));
    expect(unclean).toEqual([]);
  });

  it('no refresh family is revoked (RFC 9700 4.14.2: only reuse or a loss of access revokes), and acknowledged tokens stay active', async () => {
    const acknowledged = chainsRun.filter((c) => c.lastRefresh);
    expect(acknowledged.length).toBeGreaterThan(0);
    for (const chain of acknowledged) {
      const stored = await getTokenStore().getRefreshToken(chain.lastRefresh!, Math.floor(Date.now() / 1000));
      expect(stored).toBeDefined();
      expect(await getTokenStore().isFamilyRevoked(stored!.familyId)).toBe(false);
      expect(await isActive(chain.lastAccess!)).toBe(true);
      // The last token the client holds still rotates, unless a rotation answered 503 but landed.
      if (stored!.rotatedAtEpoch === undefined) expect((await refresh(chain.client.client, chain.lastRefresh!)).status).toBe(200);
      else expect(chain.endedInTrouble).toBe(true);
    }
  });

  it('registration: each acknowledged client is stored, no refused one is, and the cap counts each request at most once (behaviour REG-8)', async () => {
    const all: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await getClientRepository().list('dynamic', 100, cursor);
      all.push(
        ...page.entries
          .map((entry) => entry.item)
          .filter((c) => c.name === `soak ${run}`)
          .map((c) => c.clientId),
      );
      cursor = page.next;
    } while (cursor);
    const acknowledged = registered.flatMap((r) => r.created);
    expect(acknowledged.length).toBeGreaterThan(0);
    expect(all.sort()).toEqual([...acknowledged].sort());
    const day = new Date().toISOString().slice(0, 10);
    for (const { ip, sent, created } of registered) {
      const { Item } = await getStorage().db.send(
        new GetCommand({
          TableName: getStorage().tables.ephemeral,
          Key: { pk: `DCRRATE#${day}#${ip}`, sk: 'DCRRATE' },
          ConsistentRead: true,
        }),
      );
      const counted = (Item?.count as number | undefined) ?? 0;
      expect(counted).toBeLessThanOrEqual(sent);
      expect(counted).toBeGreaterThanOrEqual(created.length);
    }
  });

  it('API keys: acknowledged keys are stored, confirmed revocations hold, no refused create left an active key, minted tokens stay active', async () => {
    expect(createdKeys.length).toBeGreaterThan(0);
    const listed = (await listKeysAs(admin, keyClientId, { limit: '100' })).body.items as {
      key_id: string;
      status: string;
      name?: string;
    }[];
    const acknowledged = new Set(createdKeys.map((k) => k.keyId));
    // Behaviour KEY-15: a refused create left at most a pending key, which no list shows.
    expect(listed.filter((k) => k.name === `soak ${run}` && !acknowledged.has(k.key_id))).toEqual([]);
    for (const key of createdKeys) {
      const stored = await storedKey(key.keyId);
      expect(stored).toBeDefined();
      if (key.revoked) {
        expect(stored!.revokedAt).toBeDefined();
        expect((await exchangeKey({ bearer: key.key })).status).toBe(401);
      }
      // Behaviour KEY-8: tokens minted before a revocation live out their hour.
      if (key.exchangedToken) expect(await isActive(key.exchangedToken)).toBe(true);
    }
  });

  it('client_credentials: every acknowledged access token is active (OAuth 2.1 4.2)', async () => {
    expect(clientCredentialTokens.length).toBeGreaterThan(0);
    for (const token of clientCredentialTokens) expect(await isActive(token)).toBe(true);
  });
});
