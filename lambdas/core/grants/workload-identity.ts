/**
 * The workload-identity profile of the JWT-bearer grant (MCP's Workload Identity Federation, SEP
 * 1933): a workload presents the JWT its platform signed (Kubernetes, SPIFFE, a CI system's OIDC
 * issuer) with no client registration and no client authentication (RFC 7523 2.1 makes it
 * optional), and gets a token for a resource its trusted issuer's rules allow (behaviour
 * WIF-1..WIF-5).
 */
import { typMatches, type AssertionExpectations } from '../jwt-assertions';
import { endpointPaths } from '../paths';
import { parseResource } from '../resource';
import { parseScope, withCatalogScopes } from '../scope';
import { mintAccessToken } from '../tokens';
import type { TrustedIssuer, WorkloadRule } from '../trusted-issuers/model';
import { matchingWorkloadRule } from '../trusted-issuers/subject-pattern';
import type { TokenRequestActivity } from './activity';
import { refuseGrant, unverifiedIssuer, useAssertionOnce, verifyGrantAssertion } from './assertion-grant';
import type { GrantDependencies } from './grant';
import { idJagType } from './id-jag';
import { tokenResponse, type TokenResponse } from './response';

/**
 * Behaviour WIF-2: at most 24 hours between `iat` and `exp`. Platform tokens are short (a CI job's
 * minutes, Kubernetes' default hour), but a cluster may project longer ones; past a day, a
 * stolen token is a long-lived secret again.
 */
export const workloadMaxLifetimeSeconds = 24 * 3600;

/**
 * Behaviour WIF-2: `aud` is this server's token endpoint URL (the workload's audience in RFC 7523
 * 3, point 3), or its issuer identifier, which platforms configured for OIDC federation send.
 */
export function workloadExpectations(issuer: string, trusted: Pick<TrustedIssuer, 'issuer'>): AssertionExpectations {
  return { audiences: [`${issuer}${endpointPaths.token}`, issuer], issuer: trusted.issuer, maxLifetimeSeconds: workloadMaxLifetimeSeconds };
}

/**
 * Behaviour WIF-4: the token's `sub` is the workload's `sub` qualified by its issuer,
 * `<iss>#<sub>`. A trusted issuer has no fragment, so the first `#` splits it, and no workload
 * subject can pass for a user id of this server or a workload of another issuer.
 */
export const workloadSubject = (iss: string, sub: string): string => `${iss}#${sub}`;

/**
 * Behaviour WIF-3: within the one rule that matched, the requested resource (none requested: the
 * rule's only one) and the requested scopes (none requested: all of the rule's that the catalog
 * still holds). Anything outside the rule is refused, never narrowed. A rule naming this server's
 * issuer as a resource gives nothing for it (behaviour JWTB-4): such a token would open this
 * server's own endpoints (userinfo, the admin API) to a platform's token.
 */
export function workloadAccess(
  rule: Pick<WorkloadRule, 'scopes' | 'resources'>,
  catalogScopes: readonly string[],
  requested: { readonly scopes: readonly string[]; readonly resource?: string },
  issuer: string,
): { readonly scopes: string[]; readonly resource: string } {
  let resource = requested.resource;
  if (resource === undefined) {
    if (rule.resources.length !== 1) {
      throw refuseGrant(
        'Name the resource the token is for (resource parameter).',
        `no resource requested; the rule allows ${rule.resources.length}`,
      );
    }
    resource = rule.resources[0] as string;
  } else if (!rule.resources.includes(resource)) {
    throw refuseGrant('The workload may not get a token for this resource.', `resource ${resource} outside the matching rule`);
  }
  if (resource === issuer) throw refuseGrant('The workload may not get a token for this server itself.', 'resource is the issuer');
  const outside = requested.scopes.filter((scope) => !catalogScopes.includes(scope));
  if (outside.length > 0) {
    throw refuseGrant('The workload may not get the requested scope.', `scope outside the matching rule: ${outside.join(' ')}`);
  }
  return { scopes: requested.scopes.length > 0 ? [...requested.scopes] : [...catalogScopes], resource };
}

export interface WorkloadRequest {
  readonly assertion: string;
  readonly scope?: string;
  readonly resource?: string;
}

export async function workloadGrant(
  request: WorkloadRequest,
  activity: TokenRequestActivity,
  deps: GrantDependencies,
): Promise<TokenResponse> {
  const ports = deps.assertionGrants;
  const requested = { scopes: parseScope(request.scope), resource: parseResource(request.resource) };
  const iss = unverifiedIssuer(request.assertion);
  const trusted = await ports.trustedIssuers.workloadIssuer(iss);
  if (trusted?.profile !== 'workload') {
    throw refuseGrant("The assertion's issuer is not trusted for workloads.", `issuer ${iss.slice(0, 256)} is not a workload issuer`);
  }
  // Behaviour WIF-4: the token's client_id is the trusted issuer's id, and so is the row's client.
  activity.forClient({ clientId: trusted.trustedIssuerId, environmentId: trusted.environmentId });
  const { header, claims } = await verifyGrantAssertion(request.assertion, trusted, workloadExpectations(deps.issuer, trusted), ports);
  // An ID-JAG is for a client that authenticates (behaviour IDJAG-1), never a workload's grant.
  if (typMatches(header.typ, idJagType)) throw refuseGrant('An ID-JAG needs client authentication.', 'id-jag presented without a client');
  const sub = typeof claims.sub === 'string' && claims.sub.length > 0 ? claims.sub : undefined;
  if (!sub) throw refuseGrant('The assertion names no subject (sub).', 'no sub');
  const rule = matchingWorkloadRule(trusted.rules, claims);
  if (!rule)
    throw refuseGrant('No rule of the trusted issuer admits this workload.', `no matching workload rule for sub ${sub.slice(0, 256)}`);
  // A scope deleted from the catalog is issued to no one, whatever a rule still names (behaviour ADMIN-18).
  const { scopes: catalogScopes } = await withCatalogScopes(rule, ports.catalogNames);
  const access = workloadAccess(rule, catalogScopes, requested, deps.issuer);
  await useAssertionOnce(claims, ports);

  const subject = workloadSubject(iss, sub);
  const minted = await mintAccessToken(
    { clientId: trusted.trustedIssuerId, sub: subject, scopes: access.scopes, resource: access.resource },
    deps,
  );
  await deps.store.recordIssued({
    token: {
      jti: minted.jti,
      clientId: trusted.trustedIssuerId,
      sub: subject,
      trustedIssuerId: trusted.trustedIssuerId,
      expiresAtEpoch: minted.expiresAtEpoch,
    },
    activity: activity.row(true),
  });
  return tokenResponse(minted);
}
