/**
 * The bodies of /api/admin/trusted-issuers (behaviour TRUST-3..TRUST-7), shared by the admin API
 * and the dashboard's forms. Their shape and bounds only: the rules beyond parsing (https, public
 * keys, one set of keys, each profile's settings, known scopes) are lambdas/core's.
 */
import * as z from 'zod/mini';
import { trustedIssuerProfiles } from '../core/trusted-issuers/model';
import { maxKeys, maxRuleClaims, maxRules, maxUrlLength } from '../core/trusted-issuers/validation';
import { maxSubjectPatternLength } from '../core/trusted-issuers/subject-pattern';
import { environmentId, scopeName } from './admin-schemas';

const url = z.string().check(z.minLength(1), z.maxLength(maxUrlLength));

/** A JSON Web Key Set (RFC 7517 §5): its keys as given; members outside `keys` are dropped. */
export const jwksField = z.object({ keys: z.array(z.record(z.string(), z.unknown())).check(z.maxLength(maxKeys)) });

export const descriptionField = z.string().check(z.trim(), z.maxLength(500));

export const workloadRuleField = z.strictObject({
  subject: z.string().check(z.minLength(1), z.maxLength(maxSubjectPatternLength)),
  claims: z.optional(
    z
      .record(z.string().check(z.minLength(1), z.maxLength(100)), z.string().check(z.maxLength(500)))
      .check(z.refine((claims) => Object.keys(claims).length <= maxRuleClaims, `at most ${maxRuleClaims} claims`)),
  ),
  scopes: z.array(scopeName).check(z.maxLength(50)),
  resources: z.array(url).check(z.minLength(1), z.maxLength(20)),
});

const settings = {
  jwks: z.optional(jwksField),
  jwks_uri: z.optional(url),
  user_claim: z.optional(z.enum(['sub', 'email'])),
  create_users: z.optional(z.boolean()),
  allow_refresh_tokens: z.optional(z.boolean()),
  rules: z.optional(z.array(workloadRuleField).check(z.maxLength(maxRules))),
};

/** POST /api/admin/trusted-issuers. */
export const createTrustedIssuerBody = z.strictObject({
  issuer: url,
  profile: z.enum(trustedIssuerProfiles),
  environment_id: environmentId,
  description: z.optional(descriptionField),
  ...settings,
});

/** PATCH /api/admin/trusted-issuers/{trusted_issuer_id}: what identifies the trust (issuer, profile, environment) cannot change. */
export const updateTrustedIssuerBody = z
  .strictObject({ description: z.optional(z.nullable(descriptionField)), ...settings })
  .check(z.refine((body) => Object.values(body).some((value) => value !== undefined), 'the body must set at least one field'));

/** The domain's settings from a body's wire names. */
export function trustedIssuerSettingsOf(body: z.output<typeof updateTrustedIssuerBody>) {
  return {
    ...(body.jwks !== undefined ? { jwks: body.jwks } : {}),
    ...(body.jwks_uri !== undefined ? { jwksUri: body.jwks_uri } : {}),
    ...(body.description !== undefined ? { description: body.description } : {}),
    ...(body.user_claim !== undefined ? { userClaim: body.user_claim } : {}),
    ...(body.create_users !== undefined ? { createUsers: body.create_users } : {}),
    ...(body.allow_refresh_tokens !== undefined ? { allowRefreshTokens: body.allow_refresh_tokens } : {}),
    ...(body.rules !== undefined ? { rules: body.rules } : {}),
  };
}
