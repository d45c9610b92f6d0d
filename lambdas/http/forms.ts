/** The form fields of the sign-in and consent posts (zod/mini). Bounds keep junk out of DynamoDB keys and Argon2id. */
import * as z from 'zod/mini';

export const credentialFields = {
  email: z.string().check(z.minLength(1), z.maxLength(254)),
  password: z.string().check(z.minLength(1), z.maxLength(1024)),
};

/** newSecret's shape: 43 base64url characters. */
export const requestIdField = z.string().check(z.regex(/^[A-Za-z0-9_-]{43}$/));

export const signInForm = z.object({ ...credentialFields, return_to: z.optional(z.string()) });
export const authorizeSignInForm = z.object({ ...credentialFields, request_id: requestIdField });
export const consentForm = z.object({ request_id: requestIdField, decision: z.enum(['approve', 'deny']) });

/** One message for an unknown email and a wrong password (no account enumeration). */
export const badCredentials = 'The email or password is incorrect.';
