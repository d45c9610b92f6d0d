/**
 * The DPoP proof rules of core (behaviour TOKEN-7, RFC 9449 4.3) at their edges: the iat window's
 * bounds, htu normalisation, and a jti used up only by a proof that passed every other rule.
 */
import { checkDpopProof, comparableHtu, type DpopDependencies } from '../../../lambdas/core/dpop';
import { InvalidDpopProofError, UseDpopNonceError } from '../../../lambdas/core/errors';
import { dpopProofSignature } from '../../../lambdas/adapters/dpop-proof-signature';
import { dpopKey, type DpopKey } from '../../support/dpop';

const url = 'https://auth.example.test/api/token';
let key: DpopKey;
beforeAll(async () => {
  key = await dpopKey();
});

function dependencies(nowMs = Date.now()): DpopDependencies & { used: string[] } {
  const used: string[] = [];
  return {
    used,
    signature: dpopProofSignature,
    clock: { now: () => nowMs },
    singleUseIds: {
      use: async (_purpose, issuer, jti) => {
        if (used.includes(`${issuer}:${jti}`)) return false;
        used.push(`${issuer}:${jti}`);
        return true;
      },
    },
  };
}

const now = () => Math.floor(Date.now() / 1000);

describe('behaviour TOKEN-7: the iat window', () => {
  it.each([
    ['60 s old', -60, true],
    ['61 s old', -61, false],
    ['5 s ahead', 5, true],
    ['6 s ahead', 6, false],
  ])('a proof %s (iat offset %i s) is accepted: %s', async (_name, offset, accepted) => {
    const deps = dependencies(now() * 1000);
    const proof = await key.proof('POST', url, { claims: { iat: now() + offset } });
    const outcome = checkDpopProof(proof, { method: 'POST', url }, deps);
    if (accepted) await expect(outcome).resolves.toEqual({ jkt: key.jkt });
    else await expect(outcome).rejects.toBeInstanceOf(InvalidDpopProofError);
  });
});

describe('behaviour TOKEN-7: htu (RFC 9449 4.3 item 9)', () => {
  it('normalises scheme, host and default port, and drops query and fragment', () => {
    expect(comparableHtu('HTTPS://Auth.Example.TEST:443/api/token?a=1#x')).toBe(url);
    expect(comparableHtu('https://auth.example.test:8443/api/token')).not.toBe(url);
    expect(comparableHtu('not a url')).toBeUndefined();
  });

  it('the path is compared exactly', async () => {
    const proof = await key.proof('POST', `${url}/`);
    await expect(checkDpopProof(proof, { method: 'POST', url }, dependencies())).rejects.toThrow(/htu must be/);
  });
});

describe('behaviour TOKEN-7: the jti is used up last', () => {
  it('a proof refused for another rule uses up nothing; a valid one, its jti once', async () => {
    const deps = dependencies();
    const jti = 'one-proof';
    await expect(checkDpopProof(await key.proof('GET', url, { claims: { jti } }), { method: 'POST', url }, deps)).rejects.toThrow();
    expect(deps.used).toEqual([]);
    const proof = await key.proof('POST', url, { claims: { jti } });
    await checkDpopProof(proof, { method: 'POST', url }, deps);
    expect(deps.used).toEqual([`${key.jkt}:${jti}`]);
    await expect(checkDpopProof(proof, { method: 'POST', url }, deps)).rejects.toThrow('The DPoP proof was already used.');
  });
});

describe('server nonces, when given (RFC 9449 8, 9)', () => {
  it('refuses a proof without an accepted nonce with use_dpop_nonce and the current nonce, using up nothing', async () => {
    const deps = { ...dependencies(), nonces: { current: () => 'n2', accepts: (nonce: string) => nonce === 'n2' } };
    const error = await checkDpopProof(await key.proof('POST', url), { method: 'POST', url }, deps).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UseDpopNonceError);
    expect((error as UseDpopNonceError).headers['DPoP-Nonce']).toBe('n2');
    expect(deps.used).toEqual([]);
    await expect(checkDpopProof(await key.proof('POST', url, { claims: { nonce: 'n2' } }), { method: 'POST', url }, deps)).resolves.toEqual(
      {
        jkt: key.jkt,
      },
    );
  });
});
