/** Input fields shared by the admin API's schemas (zod/mini). */
import * as z from 'zod/mini';
import { maxRefreshGraceSeconds } from '../core/lifetimes';
import { clientKeyLimits } from '../core/client-keys';
import { assertionSigningAlgorithms } from '../core/jwt-assertions';

/** A display name: trimmed, 1 to 200 characters. */
export const displayName = z.string().check(z.trim(), z.minLength(1), z.maxLength(200));

/** Stored lower-cased: the uniqueness item is keyed by it, and sign-in looks it up so. */
export const emailAddress = z.string().check(z.trim(), z.toLowerCase(), z.maxLength(254), z.email('must be an email address'));

/** Hashed with Argon2id; the upper bound keeps one hash cheap enough. */
export const password = z.string().check(z.minLength(8), z.maxLength(256));

/** RFC 6749 section 3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E ) */
export const scopeName = z
  .string()
  .check(
    z.maxLength(128),
    z.regex(/^[\x21\x23-\x5B\x5D-\x7E]+$/, 'must be a scope token (RFC 6749 section 3.3: printable ASCII, no space, " or \\)'),
  );

/** Same rule as DCR_ENVIRONMENT_ID, so any environment can be named there. */
export const environmentId = z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1 to 64 letters, digits, _ or -'));

/** A client's refresh rotation grace window in seconds (behaviour REFRESH-7); null: the server's REFRESH_GRACE_SECONDS. */
export const refreshGraceSeconds = z.nullable(
  z.number().check(z.int('must be a whole number of seconds'), z.minimum(0), z.maximum(maxRefreshGraceSeconds)),
);
/**
 * A private_key_jwt client's keys (RFC 7591 2 `jwks`, `jwks_uri`; behaviour ADMIN-19): the shape
 * here, the rules (public signing keys only, https) in core/client-keys.ts.
 */
export const clientJwks = z.object({ keys: z.array(z.record(z.string(), z.unknown())).check(z.maxLength(clientKeyLimits.keys)) });
export const clientJwksUri = z.string().check(z.maxLength(clientKeyLimits.jwksUri));
export const signingAlgorithm = z.enum(assertionSigningAlgorithms);
