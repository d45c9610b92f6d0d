/**
 * Form fields of the passkey endpoints, zod/mini. A credential is the JSON of the
 * browser's PublicKeyCredential.toJSON() (WebAuthn L3 5.1.8), posted in the `credential`
 * field; what the verifier reads is checked here, the rest passes through untouched.
 */
import * as z from 'zod/mini';
import { requestIdField } from './forms';

const base64url = z.string().check(z.minLength(1), z.maxLength(8192), z.regex(/^[A-Za-z0-9_-]+$/, 'must be base64url'));

function jsonField<S extends z.ZodMiniType>(schema: S) {
  return z.pipe(
    z.pipe(
      z.string().check(z.maxLength(32_768)),
      z.transform((text): unknown => {
        try {
          return JSON.parse(text);
        } catch {
          return undefined;
        }
      }),
    ),
    schema,
  );
}

const credentialBase = { id: base64url, rawId: base64url, type: z.literal('public-key') };

export const registrationCredential = z.looseObject({
  ...credentialBase,
  response: z.looseObject({
    clientDataJSON: base64url,
    attestationObject: base64url,
    transports: z.optional(z.array(z.string().check(z.maxLength(32))).check(z.maxLength(10))),
  }),
});

export const assertionCredential = z.looseObject({
  ...credentialBase,
  response: z.looseObject({
    clientDataJSON: base64url,
    authenticatorData: base64url,
    signature: base64url,
    userHandle: z.optional(base64url),
  }),
});

/**
 * The owner's name for a new passkey (behaviour PASSKEY-11): one line of at most 64 characters
 * once spaces are collapsed, no control characters (it goes into mail text); empty means unnamed.
 */
export const passkeyNameField = z
  .pipe(
    z.string().check(z.maxLength(256)),
    z.transform((value) => value.replace(/\s+/g, ' ').trim()),
  )
  .check(z.maxLength(64, 'must have at most 64 characters'), z.regex(/^[^\p{Cc}\p{Cf}]*$/u, 'must be plain text'));

export const passkeyRegisterForm = z.object({ credential: jsonField(registrationCredential), name: z.optional(passkeyNameField) });
export const passkeyRemoveForm = z.object({ credential_id: base64url });
export const passkeySignInForm = z.object({
  credential: jsonField(assertionCredential),
  return_to: z.optional(z.string()),
  request_id: z.optional(requestIdField),
});
