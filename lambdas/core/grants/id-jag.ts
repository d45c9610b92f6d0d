/**
 * The ID-JAG profile of the JWT-bearer grant (draft-ietf-oauth-identity-assertion-authz-grant,
 * MCP's Enterprise-Managed Authorization): an enterprise IdP the client's environment trusts
 * asserts a user for this client and a resource; the client trades it for an access token for
 * that user (behaviour IDJAG-1..IDJAG-6). The rules are small pure steps; `idJagGrant` runs them,
 * then uses the assertion once and writes what it issues.
 */
import { requiredEnvironment } from '../authorization-code';
import { InvalidScopeError } from '../errors';
import { newId } from '../ids';
import { lifetimes } from '../lifetimes';
import type { AssertionExpectations } from '../jwt-assertions';
import type { Client, User } from '../model';
import { parseResource } from '../resource';
import { parseScope } from '../scope';
import { mintAccessToken } from '../tokens';
import type { TrustedIssuer } from '../trusted-issuers/model';
import type { TokenRequestActivity } from './activity';
import { refuseGrant, stringClaim, unverifiedIssuer, useAssertionOnce, verifyGrantAssertion } from './assertion-grant';
import type { GrantDependencies } from './grant';
import { tokenResponse, type TokenResponse } from './response';
import { epochSeconds, newRefreshToken } from './user-tokens';
import type { ProvenKey } from '../dpop';

/** Draft section 3: the JWT header `typ` of an ID-JAG (RFC 8725 3.11 explicit typing). */
export const idJagType = 'oauth-id-jag+jwt';

/**
 * Behaviour IDJAG-1: at most 10 minutes between `iat` and `exp`. An ID-JAG stands in for an
 * authorization code, which OAuth 2.1 keeps as short; IdPs issue them for about 5 minutes.
 */
export const idJagMaxLifetimeSeconds = 600;

export function idJagExpectations(issuer: string, trusted: Pick<TrustedIssuer, 'issuer'>): AssertionExpectations {
  return { audiences: [issuer], issuer: trusted.issuer, typ: idJagType, maxLifetimeSeconds: idJagMaxLifetimeSeconds };
}

/**
 * Draft "Processing Rules": `aud` is this issuer alone (an array only of one element: the verifier
 * checked that it names this server), `client_id` is the authenticated client, and `sub` names
 * someone (behaviour IDJAG-2).
 */
export function checkIdJagClaims(claims: Readonly<Record<string, unknown>>, client: Pick<Client, 'clientId'>): void {
  if (Array.isArray(claims.aud) && claims.aud.length !== 1) {
    throw refuseGrant('The assertion must be addressed to this server alone (aud).', `aud names ${claims.aud.length} audiences`);
  }
  if (claims.client_id !== client.clientId) {
    throw refuseGrant(
      'The assertion was issued for another client (client_id).',
      `assertion client_id ${String(claims.client_id).slice(0, 128)}, authenticated ${client.clientId}`,
    );
  }
  if (stringClaim(claims, 'sub') === undefined) throw refuseGrant('The assertion names no subject (sub).', 'no sub');
}

/**
 * Behaviour IDJAG-3: the token's `aud` is a resource the assertion names (`resource`, a string or
 * an array of them): the requested one, which must be among them, or the only one. A resource is
 * required, and never this server itself: tokens of this grant are for resource servers, not for
 * this server's own endpoints (userinfo, the admin API).
 */
export function idJagResource(requested: string | undefined, claims: Readonly<Record<string, unknown>>, issuer: string): string {
  const claim = claims.resource;
  const asserted = typeof claim === 'string' ? [claim] : Array.isArray(claim) ? claim : [];
  if (asserted.length === 0) throw refuseGrant('The assertion names no resource.', 'no resource claim');
  for (const value of asserted) {
    let valid = false;
    try {
      valid = typeof value === 'string' && parseResource(value) === value;
    } catch {
      valid = false;
    }
    if (!valid || value === issuer) {
      throw refuseGrant(
        'The assertion names a resource that is not a resource server URI.',
        `resource claim ${String(value).slice(0, 128)}`,
      );
    }
  }
  if (requested !== undefined) {
    if (!asserted.includes(requested))
      throw refuseGrant('The requested resource is not one the assertion grants.', `resource ${requested} not asserted`);
    return requested;
  }
  if (asserted.length > 1) {
    throw refuseGrant(
      'The assertion names several resources: choose one with the resource parameter.',
      `${asserted.length} resources asserted`,
    );
  }
  return asserted[0] as string;
}

/**
 * Behaviour IDJAG-4: requested (or, when none is requested, asserted) scopes, within those the
 * assertion grants (`scope`; absent: none) and those granted to the client. A requested scope the
 * assertion does not grant is `invalid_grant`; one the client was not granted is `invalid_scope`,
 * as for every grant; an asserted one the client lacks is left out.
 */
export function idJagScopes(
  requested: readonly string[],
  claims: Readonly<Record<string, unknown>>,
  client: Pick<Client, 'scopes'>,
): string[] {
  let asserted: string[] = [];
  const malformed = () => refuseGrant('The assertion carries a malformed scope claim.', 'scope claim malformed');
  if (claims.scope !== undefined) {
    if (typeof claims.scope !== 'string') throw malformed();
    try {
      asserted = parseScope(claims.scope);
    } catch {
      throw malformed();
    }
  }
  const notAsserted = requested.filter((scope) => !asserted.includes(scope));
  if (notAsserted.length > 0) {
    throw refuseGrant('The requested scope was not granted by the assertion.', `scope not asserted: ${notAsserted.join(' ')}`);
  }
  const notClients = requested.filter((scope) => !client.scopes.includes(scope));
  if (notClients.length > 0) {
    throw new InvalidScopeError(
      'The requested scope exceeds what was granted to the client.',
      `not granted to the client: ${notClients.join(' ')}`,
    );
  }
  return (requested.length > 0 ? requested : asserted).filter((scope) => client.scopes.includes(scope));
}

/** Which user the assertion names, by the trusted issuer's `userClaim` (behaviour IDJAG-5). */
export type AssertedUser = { readonly by: 'id'; readonly id: string } | { readonly by: 'email'; readonly email: string };

const emailPattern = /^[^\s@]+@[^\s@]+$/;

export function assertedUser(trusted: Pick<TrustedIssuer, 'userClaim'>, claims: Readonly<Record<string, unknown>>): AssertedUser {
  if ((trusted.userClaim ?? 'sub') === 'sub') return { by: 'id', id: String(claims.sub) };
  const email = stringClaim(claims, 'email')?.trim().toLowerCase();
  if (!email || email.length > 254 || !emailPattern.test(email)) {
    throw refuseGrant('The assertion carries no usable email claim, which names the user here.', 'no email claim');
  }
  return { by: 'email', email };
}

/**
 * Behaviour IDJAG-5: a user created on first use. The IdP vouched for the address, so it is
 * verified; there is no password (the user signs in through the IdP, or sets one by a reset);
 * never an administrator, never a test user.
 */
export function federatedUser(
  email: string,
  claims: Readonly<Record<string, unknown>>,
  nowMs: number,
  deps: Pick<GrantDependencies, 'random'>,
): User {
  const at = new Date(nowMs).toISOString();
  const name = stringClaim(claims, 'name')?.trim().slice(0, 200) || email;
  return { id: newId('usr_', deps.random), email, name, admin: false, test: false, createdAt: at, emailVerifiedAt: at };
}

/** Far above this server's user ids (`usr_` and 16 characters), far below DynamoDB's key bound. */
const maxUserIdLength = 128;

const unknownUser = (reason: string) => refuseGrant('The user the assertion names is not known here.', reason);
const noAccess = (userId: string, environmentId: string) =>
  refuseGrant(
    "The user the assertion names has no access to this client's environment.",
    `user ${userId} lacks environment ${environmentId}`,
  );

/** The user found, or the one to create (only by email, only when the issuer creates users). */
async function findUser(
  trusted: TrustedIssuer,
  claims: Readonly<Record<string, unknown>>,
  environmentId: string,
  activity: TokenRequestActivity,
  deps: GrantDependencies,
): Promise<{ readonly user: User; readonly create: boolean }> {
  const asserted = assertedUser(trusted, claims);
  // A user id here is short; a longer `sub` names no one, and is never sent to storage as a key.
  const found =
    asserted.by === 'email'
      ? await deps.assertionGrants.federatedUsers.findByEmail(asserted.email)
      : asserted.id.length <= maxUserIdLength
        ? await deps.users.get(asserted.id)
        : undefined;
  if (found) {
    activity.forUser(found.id);
    // Behaviour IDJAG-5: an existing user is never granted the environment by an assertion.
    if (!(await deps.environments.hasAccess(found.id, environmentId))) throw noAccess(found.id, environmentId);
    return { user: found, create: false };
  }
  if (asserted.by === 'email' && trusted.createUsers)
    return { user: federatedUser(asserted.email, claims, deps.clock.now(), deps), create: true };
  throw unknownUser(asserted.by === 'id' ? `no user ${asserted.id.slice(0, 128)}` : `no user with the asserted email`);
}

/** Creates the user with its grant of the environment; a concurrent first use that won is used instead. */
async function createUser(user: User, environmentId: string, activity: TokenRequestActivity, deps: GrantDependencies): Promise<User> {
  const outcome = await deps.assertionGrants.federatedUsers.createInEnvironment(user, environmentId, user.createdAt);
  if (outcome === 'no-environment') throw refuseGrant("The client's environment no longer exists.", `environment ${environmentId} gone`);
  if (outcome === 'created') {
    activity.forUser(user.id);
    return user;
  }
  const winner = await deps.assertionGrants.federatedUsers.findByEmail(user.email!);
  if (!winner) throw unknownUser('address taken, then gone');
  activity.forUser(winner.id);
  if (!(await deps.environments.hasAccess(winner.id, environmentId))) throw noAccess(winner.id, environmentId);
  return winner;
}

export interface IdJagRequest {
  readonly assertion: string;
  readonly scope?: string;
  readonly resource?: string;
}

export async function idJagGrant(
  client: Client,
  request: IdJagRequest,
  activity: TokenRequestActivity,
  deps: GrantDependencies,
  proven?: ProvenKey,
): Promise<TokenResponse> {
  const ports = deps.assertionGrants;
  const requestedScopes = parseScope(request.scope);
  const requestedResource = parseResource(request.resource);
  const iss = unverifiedIssuer(request.assertion);
  const environmentId = requiredEnvironment(client, deps.dcrEnvironmentId);
  // Behaviour IDJAG-1: only an issuer trusted for id-jag in the client's own environment.
  const trusted = await ports.trustedIssuers.idJagIssuer(environmentId, iss);
  if (trusted?.profile !== 'id-jag') {
    throw refuseGrant(
      "The assertion's issuer is not trusted for this client.",
      `issuer ${iss.slice(0, 256)} is not an id-jag issuer of environment ${environmentId}`,
    );
  }
  const { claims } = await verifyGrantAssertion(request.assertion, trusted, idJagExpectations(deps.issuer, trusted), ports);
  checkIdJagClaims(claims, client);
  const resource = idJagResource(requestedResource, claims, deps.issuer);
  const scopes = idJagScopes(requestedScopes, claims, client);
  const found = await findUser(trusted, claims, environmentId, activity, deps);
  await useAssertionOnce(claims, ports);
  const user = found.create ? await createUser(found.user, environmentId, activity, deps) : found.user;

  // Behaviour IDJAG-6: the user's token, no ID token; a refresh token only where the issuer allows it.
  if (trusted.allowRefreshTokens && client.grantTypes.includes('refresh_token')) {
    return issueWithRefresh(client, user, { scopes, resource, claims, jkt: proven?.jkt }, activity, deps);
  }
  // RFC 9449 5, behaviour TOKEN-8: bound to the request's DPoP key, as every grant of a client.
  const access = await mintAccessToken({ clientId: client.clientId, sub: user.id, scopes, resource, jkt: proven?.jkt }, deps);
  await deps.store.recordIssued({
    token: { jti: access.jti, clientId: client.clientId, sub: user.id, expiresAtEpoch: access.expiresAtEpoch },
    activity: activity.row(true),
  });
  return tokenResponse(access);
}

/**
 * Behaviour IDJAG-6: a refresh family begun by the ID-JAG, as a code redemption begins one: it
 * ends `refreshFamily` after the assertion was issued, keeps the user's password version, and
 * every rotation re-checks what the refresh grant re-checks (REFRESH-5, REFRESH-6).
 */
async function issueWithRefresh(
  client: Client,
  user: User,
  grant: {
    readonly scopes: readonly string[];
    readonly resource: string;
    readonly claims: Readonly<Record<string, unknown>>;
    readonly jkt?: string;
  },
  activity: TokenRequestActivity,
  deps: GrantDependencies,
): Promise<TokenResponse> {
  const nowEpoch = epochSeconds(deps.clock.now());
  const authTime = typeof grant.claims.iat === 'number' ? Math.min(Math.floor(grant.claims.iat), nowEpoch) : nowEpoch;
  const familyId = newId('fam_', deps.random);
  const family = { familyId, expiresAtEpoch: authTime + lifetimes.refreshFamily, credentialVersion: user.credentialVersion ?? 0 };
  const access = await mintAccessToken(
    { clientId: client.clientId, sub: user.id, scopes: grant.scopes, resource: grant.resource, jkt: grant.jkt },
    deps,
  );
  const refresh = newRefreshToken(
    {
      clientId: client.clientId,
      userId: user.id,
      scopes: [...grant.scopes],
      resource: grant.resource,
      authTime,
      credentialVersion: family.credentialVersion,
      familyId,
      expiresAtEpoch: family.expiresAtEpoch,
    },
    deps.random,
  );
  await deps.store.startFamily(family, {
    token: { jti: access.jti, clientId: client.clientId, sub: user.id, familyId, expiresAtEpoch: access.expiresAtEpoch },
    activity: activity.row(true),
    refresh,
  });
  return tokenResponse(access, { refreshToken: refresh.token });
}
