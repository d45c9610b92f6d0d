/**
 * The JWT-bearer grant's profile rules as pure functions (RFC 7523 2.1, 3;
 * draft-ietf-oauth-identity-assertion-authz-grant "Processing Rules"; MCP Workload Identity
 * Federation): what each assertion claim must be, and what the token gets from it.
 */
import { InvalidGrantError, InvalidScopeError } from '../../../lambdas/core/errors';
import { refusalOf, unverifiedIssuer } from '../../../lambdas/core/grants/assertion-grant';
import {
  assertedUser,
  checkIdJagClaims,
  federatedUser,
  idJagExpectations,
  idJagMaxLifetimeSeconds,
  idJagResource,
  idJagScopes,
} from '../../../lambdas/core/grants/id-jag';
import {
  workloadAccess,
  workloadExpectations,
  workloadMaxLifetimeSeconds,
  workloadSubject,
} from '../../../lambdas/core/grants/workload-identity';
import { AssertionRejected } from '../../../lambdas/core/jwt-assertions';

const issuer = 'https://auth.example.test';
const rs = 'https://mcp.example.test/mcp';
const other = 'https://other.example.test/mcp';
const client = { clientId: 'tgc_app', scopes: ['read', 'write'] };
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** The refusal's status and code: every one is 400 invalid_grant (RFC 7523 3.1). */
const refusedWith = (run: () => unknown, reason: RegExp) => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidGrantError);
    expect((error as InvalidGrantError).status).toBe(400);
    expect((error as InvalidGrantError).description).toMatch(/\w+ \w+/);
    expect((error as InvalidGrantError).reason).toMatch(reason);
    return;
  }
  throw new Error('not refused');
};

describe('reading the assertion before it is verified (RFC 7523 3, point 1)', () => {
  it('finds the issuer of a compact JWT, and nothing else', () => {
    expect(unverifiedIssuer(`${b64({ alg: 'ES256' })}.${b64({ iss: 'https://idp.example.test', sub: 'x' })}.sig`)).toBe(
      'https://idp.example.test',
    );
  });

  it.each([
    ['not a JWT', 'abc'],
    ['no iss', `${b64({})}.${b64({ sub: 'x' })}.sig`],
    ['a numeric iss', `${b64({})}.${b64({ iss: 5 })}.sig`],
    ['a payload that is not JSON', `${b64({})}.bm90IGpzb24.sig`],
  ])('refuses %s with invalid_grant (behaviour JWTB-2)', (_, jwt) => refusedWith(() => unverifiedIssuer(jwt), /malformed/));

  it('words each verifier reason for the caller and keeps the reason for the activity row (behaviour JWTB-2)', () => {
    const refusal = refusalOf(new AssertionRejected('expired', 'exp has passed'));
    expect(refusal).toBeInstanceOf(InvalidGrantError);
    expect(refusal.description).toBe('The assertion has expired.');
    expect(refusal.reason).toBe('assertion expired: exp has passed');
    expect(refusalOf(new AssertionRejected('something-new')).description).toBe('The assertion was refused.');
  });
});

describe('ID-JAG (draft-ietf-oauth-identity-assertion-authz-grant)', () => {
  it('expects typ oauth-id-jag+jwt, aud = this issuer, the trusted iss and at most 10 minutes of life (behaviour IDJAG-1)', () => {
    expect(idJagExpectations(issuer, { issuer: 'https://idp.example.test' })).toEqual({
      audiences: [issuer],
      issuer: 'https://idp.example.test',
      typ: 'oauth-id-jag+jwt',
      maxLifetimeSeconds: 600,
    });
    expect(idJagMaxLifetimeSeconds).toBe(600);
  });

  it('holds client_id to the authenticated client, aud to one audience and requires sub (behaviour IDJAG-2)', () => {
    expect(() => checkIdJagClaims({ aud: issuer, client_id: 'tgc_app', sub: 'usr_1' }, client)).not.toThrow();
    expect(() => checkIdJagClaims({ aud: [issuer], client_id: 'tgc_app', sub: 'usr_1' }, client)).not.toThrow();
    refusedWith(() => checkIdJagClaims({ aud: issuer, client_id: 'tgc_other', sub: 'usr_1' }, client), /client_id tgc_other/);
    refusedWith(() => checkIdJagClaims({ aud: [issuer, other], client_id: 'tgc_app', sub: 'usr_1' }, client), /2 audiences/);
    refusedWith(() => checkIdJagClaims({ aud: issuer, client_id: 'tgc_app' }, client), /no sub/);
  });

  it('takes the resource from the assertion: the requested one among them, or the only one (behaviour IDJAG-3)', () => {
    expect(idJagResource(undefined, { resource: rs }, issuer)).toBe(rs);
    expect(idJagResource(other, { resource: [rs, other] }, issuer)).toBe(other);
    refusedWith(() => idJagResource(undefined, { resource: [rs, other] }, issuer), /2 resources/);
    refusedWith(() => idJagResource(other, { resource: rs }, issuer), /not asserted/);
    refusedWith(() => idJagResource(undefined, {}, issuer), /no resource/);
    // Never this server's own endpoints, never a malformed URI.
    refusedWith(() => idJagResource(undefined, { resource: issuer }, issuer), /resource claim/);
    refusedWith(() => idJagResource(undefined, { resource: 'https://x.example/#f' }, issuer), /resource claim/);
    refusedWith(() => idJagResource(undefined, { resource: 'relative/path' }, issuer), /resource claim/);
  });

  it('grants requested ∩ asserted ∩ the client’s scopes (behaviour IDJAG-4)', () => {
    expect(idJagScopes([], { scope: 'read write admin' }, client)).toEqual(['read', 'write']);
    expect(idJagScopes(['read'], { scope: 'read write' }, client)).toEqual(['read']);
    expect(idJagScopes([], {}, client)).toEqual([]);
    refusedWith(() => idJagScopes(['write'], { scope: 'read' }, client), /not asserted: write/);
    refusedWith(() => idJagScopes(['read'], {}, client), /not asserted: read/);
    refusedWith(() => idJagScopes([], { scope: ['read'] }, client), /malformed/);
    expect(() => idJagScopes(['admin'], { scope: 'admin' }, client)).toThrow(InvalidScopeError);
  });

  it('names the user by sub (a user id here) or by the email claim, as the trusted issuer says (behaviour IDJAG-5)', () => {
    expect(assertedUser({}, { sub: 'usr_1', email: 'a@example.test' })).toEqual({ by: 'id', id: 'usr_1' });
    expect(assertedUser({ userClaim: 'email' }, { sub: 'x', email: ' Ana@Example.TEST ' })).toEqual({
      by: 'email',
      email: 'ana@example.test',
    });
    refusedWith(() => assertedUser({ userClaim: 'email' }, { sub: 'x' }), /no email/);
    refusedWith(() => assertedUser({ userClaim: 'email' }, { sub: 'x', email: 'not an address' }), /no email/);
  });

  it('creates a user with a verified address, no password, never an admin or a test user (behaviour IDJAG-5)', () => {
    const random = { bytes: (n: number) => new Uint8Array(n).fill(7) };
    const user = federatedUser('ana@example.test', { name: 'Ana' }, Date.parse('2026-01-01T00:00:00Z'), { random });
    expect(user).toEqual({
      id: expect.stringMatching(/^usr_/),
      email: 'ana@example.test',
      name: 'Ana',
      admin: false,
      test: false,
      createdAt: '2026-01-01T00:00:00.000Z',
      emailVerifiedAt: '2026-01-01T00:00:00.000Z',
    });
    expect(user).not.toHaveProperty('passwordHash');
    expect(federatedUser('bo@example.test', {}, 0, { random }).name).toBe('bo@example.test');
  });
});

describe('workload identity federation (MCP SEP-1933)', () => {
  it('expects aud = the token endpoint URL or the issuer, the trusted iss, at most 24 hours of life (behaviour WIF-2)', () => {
    expect(workloadExpectations(issuer, { issuer: 'https://k8s.example.test' })).toEqual({
      audiences: [`${issuer}/api/token`, issuer],
      issuer: 'https://k8s.example.test',
      maxLifetimeSeconds: 86_400,
    });
    expect(workloadMaxLifetimeSeconds).toBe(86_400);
  });

  it('qualifies the token’s sub by the issuer (behaviour WIF-4)', () => {
    expect(workloadSubject('https://k8s.example.test', 'system:serviceaccount:ns:sa')).toBe(
      'https://k8s.example.test#system:serviceaccount:ns:sa',
    );
  });

  const rule = { scopes: ['read', 'write'], resources: [rs] };
  it('gives the rule’s resource and scopes when the request names none, the requested ones within it (behaviour WIF-3)', () => {
    expect(workloadAccess(rule, ['read', 'write'], { scopes: [] }, issuer)).toEqual({ scopes: ['read', 'write'], resource: rs });
    expect(workloadAccess(rule, ['read', 'write'], { scopes: ['read'], resource: rs }, issuer)).toEqual({ scopes: ['read'], resource: rs });
    // A rule scope deleted from the catalog is not issued (behaviour ADMIN-18).
    expect(workloadAccess(rule, ['read'], { scopes: [] }, issuer).scopes).toEqual(['read']);
  });

  it('refuses what the rule does not allow, never narrowing it (behaviour WIF-3)', () => {
    refusedWith(() => workloadAccess(rule, ['read', 'write'], { scopes: ['admin'] }, issuer), /scope outside/);
    refusedWith(() => workloadAccess(rule, ['read'], { scopes: ['write'] }, issuer), /scope outside/);
    refusedWith(() => workloadAccess(rule, ['read'], { scopes: [], resource: other }, issuer), /outside the matching rule/);
    refusedWith(() => workloadAccess({ scopes: [], resources: [rs, other] }, [], { scopes: [] }, issuer), /allows 2/);
    refusedWith(() => workloadAccess({ scopes: [], resources: [] }, [], { scopes: [] }, issuer), /allows 0/);
    // Never this server itself (behaviour JWTB-4).
    refusedWith(() => workloadAccess({ scopes: [], resources: [issuer] }, [], { scopes: [] }, issuer), /resource is the issuer/);
  });
});
