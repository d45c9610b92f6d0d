/**
 * The form parameters of the token, introspection and revocation endpoints. Required
 * ones missing or oversized are `invalid_request` (RFC 6749 5.2); unknown ones are
 * ignored (RFC 6749 3.2). Bounds are far above any legitimate value and keep activity
 * rows and reads small.
 */
import * as z from 'zod/mini';

const required = (max: number) => z.string().check(z.minLength(1), z.maxLength(max));
/** Optional; an empty value counts as absent (parseScope and parseResource treat it so). */
const optional = (max: number) => z.optional(z.string().check(z.maxLength(max)));

// client_id: metadata document URLs (Client ID Metadata Documents) run to 2000 characters.
const clientFields = { client_id: z.optional(required(2000)), client_secret: z.optional(required(512)) };

export const tokenRequestParams = z.object({ grant_type: required(128), ...clientFields });

export const authorizationCodeParams = z.object({
  code: required(512),
  // Optional for a client with one registered URI, which the authorization request could omit too.
  redirect_uri: optional(2048),
  code_verifier: required(256),
  resource: optional(2048),
});

export const refreshTokenParams = z.object({
  refresh_token: required(512),
  scope: optional(2048),
  resource: optional(2048),
});

export const clientCredentialsParams = z.object({ scope: optional(2048), resource: optional(2048) });

/** RFC 7662 2.1 and RFC 7009 2.1; `resource` (spec 4.9) only for introspection. */
export const tokenOperationParams = z.object({
  token: required(8192),
  token_type_hint: optional(128),
  resource: optional(2048),
  ...clientFields,
});
