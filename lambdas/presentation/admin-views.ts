/**
 * The admin API's wire shapes: snake_case, built field by field so that nothing stored
 * (a password or secret hash, a storage key) can reach a response by accident.
 */
import { passkeyLabel } from '../core/account/passkeys';
import { keyStatus } from '../core/api-keys/status';
import type { ActivityRow, AdminAuditEntry, ApiKey, Client, Environment, User } from '../core/model';
import type { Page } from '../core/admin/ports';
import type { ScopeDefinition } from '../core/ports';
import { actorView } from './actor-view';
import type { Passkey } from '../core/account/ports';
import type { TrustedIssuer } from '../core/trusted-issuers/model';

export const userView = (user: User) => ({
  id: user.id,
  email: user.email ?? null,
  name: user.name,
  admin: user.admin,
  test: user.test,
  has_password: user.passwordHash !== undefined,
  email_verified: user.emailVerifiedAt !== undefined,
  created_at: user.createdAt,
  updated_at: user.updatedAt ?? null,
});

/** A passkey without its public key: the credential id is what removal names. */
export const passkeyView = (passkey: Passkey) => ({
  credential_id: passkey.credentialId,
  // Behaviour PASSKEY-11: the name the owner's mails use.
  name: passkeyLabel(passkey),
  created_at: passkey.createdAt,
  last_used_at: passkey.lastUsedAt ?? null,
  backed_up: passkey.backedUp,
  transports: passkey.transports ?? [],
});

/** `dcr` reflects DCR_ENVIRONMENT_ID, the setting that decides where dynamic clients go. */
export const environmentView = (environment: Environment, dcrEnvironmentId: string | undefined) => ({
  id: environment.id,
  name: environment.name,
  dcr: environment.id === dcrEnvironmentId,
  created_at: environment.createdAt,
});

export const scopeView = (scope: ScopeDefinition) => ({
  name: scope.name,
  description: scope.description,
  discoverable: scope.discoverable,
});

export const clientView = (client: Client) => ({
  client_id: client.clientId,
  name: client.name,
  type: client.type,
  environment_id: client.environmentId,
  redirect_uris: client.redirectUris,
  grant_types: client.grantTypes,
  scopes: client.scopes,
  registration_type: client.registrationType,
  admin: client.admin,
  test: client.test,
  introspect_all: client.introspectAll === true,
  // Behaviour REFRESH-7: null follows the server's REFRESH_GRACE_SECONDS.
  refresh_grace_seconds: client.refreshGraceSeconds ?? null,
  require_pushed_authorization_requests: client.requirePushedAuthorizationRequests === true,
  // Behaviour ADMIN-19: a client whose credential is its public keys says so, and shows them.
  ...(client.jwks || client.jwksUri ? { token_endpoint_auth_method: 'private_key_jwt' } : {}),
  ...(client.jwks ? { jwks: client.jwks } : {}),
  ...(client.jwksUri ? { jwks_uri: client.jwksUri } : {}),
  ...(client.tokenEndpointAuthSigningAlg ? { token_endpoint_auth_signing_alg: client.tokenEndpointAuthSigningAlg } : {}),
  dpop_bound_access_tokens: client.dpopBoundAccessTokens === true,
  created_at: client.createdAt,
});

/** Behaviour TRUST-1: every field, snake_case; the other profile's settings are absent, not null. */
export const trustedIssuerView = (trusted: TrustedIssuer) => ({
  trusted_issuer_id: trusted.trustedIssuerId,
  environment_id: trusted.environmentId,
  issuer: trusted.issuer,
  profile: trusted.profile,
  jwks: trusted.jwks ?? null,
  jwks_uri: trusted.jwksUri ?? null,
  description: trusted.description ?? null,
  ...(trusted.profile === 'id-jag'
    ? {
        user_claim: trusted.userClaim ?? 'sub',
        create_users: trusted.createUsers === true,
        allow_refresh_tokens: trusted.allowRefreshTokens === true,
      }
    : {
        rules: (trusted.rules ?? []).map((rule) => ({
          subject: rule.subject,
          ...(rule.claims ? { claims: rule.claims } : {}),
          scopes: rule.scopes,
          resources: rule.resources,
        })),
      }),
  created_at: trusted.createdAt,
  updated_at: trusted.updatedAt ?? null,
});

/** Never the secret nor its hash: those are in the create response once (the secret) or nowhere. */
export const apiKeyView = (key: ApiKey, nowMs: number) => ({
  key_id: key.keyId,
  client_id: key.clientId,
  user_id: key.userId,
  name: key.name ?? null,
  scopes: key.scopes,
  status: keyStatus(key, nowMs),
  created_at: key.createdAt,
  created_by: actorView(key.createdBy),
  expires_at: key.expiresAt ?? null,
  revoked_at: key.revokedAt ?? null,
  last_used_at: key.lastUsedAt ?? null,
});

export function pageView<T, V>(page: Page<T>, view: (item: T) => V): { items: V[]; next_cursor?: string } {
  return { items: page.items.map(view), ...(page.next ? { next_cursor: page.next } : {}) };
}

/** A token request as the activity listing shows it; `reason` is the real one (admins only, never on the token endpoint's wire). */
export const activityView = (row: ActivityRow) => ({
  at: row.startedAt,
  request_type: row.requestType,
  success: row.success,
  reason: row.reason ?? null,
  user_id: row.userId ?? null,
  api_key_id: row.apiKeyId ?? null,
  environment_id: row.environmentId ?? null,
  ip: row.ip,
  duration_ms: row.durationMs,
});

export const auditEntryView = (entry: AdminAuditEntry) => ({
  at: entry.at,
  type: entry.type,
  actor: actorView(entry.actor),
  client_id: entry.clientId ?? null,
  key_id: entry.keyId ?? null,
  user_id: entry.userId ?? null,
  environment_id: entry.environmentId ?? null,
  scope: entry.scope ?? null,
  scopes: entry.scopes ?? null,
  trusted_issuer_id: entry.trustedIssuerId ?? null,
  issuer: entry.issuer ?? null,
  reason: entry.reason ?? null,
  changes: entry.changes ?? null,
});
