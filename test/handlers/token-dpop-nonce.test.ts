/**
 * DPOP_NONCE_REQUIRED (behaviour TOKEN-10, RFC 9449 8): the token endpoint asks every DPoP proof for
 * a server nonce; a proof without a good one is 400 use_dpop_nonce with a fresh DPoP-Nonce, nothing
 * issued and its jti not used up; a request without a proof is not asked.
 */
import { resetContainer } from '../../lambdas/wiring/container';
import { dpopKey, type DpopKey } from '../support/dpop';
import { headerOf } from '../support/events';
import { createTokenClient, setUpTokenFamily, type TestClient } from '../support/fixtures';
import { basic, claimsOf, issuer, postToken, storedFor } from '../support/token-calls';

let service: TestClient;
let key: DpopKey;
const saved = process.env.DPOP_NONCE_REQUIRED;
const tokenUrl = () => `${issuer()}/api/token`;

beforeAll(async () => {
  process.env.DPOP_NONCE_REQUIRED = 'true';
  resetContainer();
  const { environmentId } = await setUpTokenFamily();
  service = await createTokenClient({ environmentId, type: 'confidential', grantTypes: ['client_credentials'], scopes: ['read'] });
  key = await dpopKey();
});

afterAll(() => {
  if (saved === undefined) delete process.env.DPOP_NONCE_REQUIRED;
  else process.env.DPOP_NONCE_REQUIRED = saved;
  resetContainer();
});

const request = (proof?: string) =>
  postToken(
    { grant_type: 'client_credentials' },
    { headers: { Authorization: basic(service.client.clientId, service.secret!), ...(proof ? { DPoP: proof } : {}) } },
  );

describe('server nonces at the token endpoint (behaviour TOKEN-10, RFC 9449 8)', () => {
  it('a proof without a nonce: 400 use_dpop_nonce with DPoP-Nonce, nothing issued; the retry with it gets a DPoP token', async () => {
    const first = await request(await key.proof('POST', tokenUrl()));
    expect(first.status).toBe(400);
    expect(first.body).toMatchObject({
      error: 'use_dpop_nonce',
      error_description: 'The DPoP proof must carry the server nonce of DPoP-Nonce.',
    });
    const nonce = headerOf(first.result, 'dpop-nonce');
    expect(nonce).toMatch(/^[A-Za-z0-9_-]+\.[0-9]+\.[A-Za-z0-9_-]{43}$/);
    expect(await storedFor(service.client.clientId)).toEqual({ tokenRecords: 0, refreshTokens: 0, families: 0 });
    const retried = await request(await key.proof('POST', tokenUrl(), { claims: { nonce } }));
    expect([retried.status, retried.body.token_type]).toEqual([200, 'DPoP']);
    expect(claimsOf(retried.body.access_token).cnf).toEqual({ jkt: key.jkt });
  });

  it('a forged or malformed nonce is refused the same way', async () => {
    const good = headerOf((await request(await key.proof('POST', tokenUrl()))).result, 'dpop-nonce')!;
    const [id, step] = good.split('.');
    for (const nonce of [`${id}.${step}.${'A'.repeat(43)}`, 'not-a-nonce', `${id}.${Number(step) + 5}.${good.split('.')[2]}`]) {
      const refused = await request(await key.proof('POST', tokenUrl(), { claims: { nonce } }));
      expect([refused.status, refused.body.error]).toEqual([400, 'use_dpop_nonce']);
      expect(refused.body.error_description).toBe('The DPoP proof nonce is no longer valid; use the one in DPoP-Nonce.');
    }
  });

  it('a request without a proof is not asked for a nonce: a Bearer token', async () => {
    const { status, body } = await request();
    expect([status, body.token_type]).toEqual([200, 'Bearer']);
  });
});
