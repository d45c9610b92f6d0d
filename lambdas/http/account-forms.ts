/** Form and body fields of the account endpoints, zod/mini. */
import * as z from 'zod/mini';
import { requestIdField } from './forms';

/** newSecret's shape, like request ids: challenge ids and reset tokens. */
export const secretField = z.string().check(z.regex(/^[A-Za-z0-9_-]{43}$/, 'has an invalid format'));

/** Spaces a user may type or paste around or within the digits are dropped before the check. */
export const codeField = z
  .pipe(
    z.string().check(z.maxLength(32)),
    z.transform((value) => value.replace(/[\s-]/g, '')),
  )
  .check(z.regex(/^[0-9]{6}$/, 'must be the 6 digits of the code'));

export const signInCodeForm = z.object({ challenge_id: secretField, code: codeField, request_id: z.optional(requestIdField) });
export const resendCodeForm = z.object({ challenge_id: secretField, request_id: z.optional(requestIdField) });
/** Behaviour MFA-10: within an authorization its request_id, else the page to return to (same-origin paths only, SIGNIN-6). */
export const stepUpForm = z.object({ request_id: z.optional(requestIdField), return_to: z.optional(z.string()) });
export const verifyEmailBody = z.object({ code: codeField });
export const forgotPasswordForm = z.object({
  email: z.string().check(z.trim(), z.toLowerCase(), z.minLength(3), z.maxLength(254), z.email('must be an email address')),
});
export const resetPasswordForm = z
  .object({
    /** Behaviour RESET-8: only from a caller that read the link itself; a browser's comes in the link's cookie. */
    token: z.optional(secretField),
    password: z.string().check(z.minLength(8, 'must have at least 8 characters'), z.maxLength(256)),
    password_confirmation: z.string().check(z.maxLength(256)),
  })
  .check(
    z.refine((form) => form.password === form.password_confirmation, {
      message: 'the two passwords differ',
      path: ['password_confirmation'],
    }),
  );
export const resetTokenQuery = z.object({ token: secretField });
/** Behaviour RESET-4, RESET-8: the link (with the token) or the bare page after its 303. */
export const resetPageQuery = z.object({ token: z.optional(secretField) });
/** Behaviour RESET-9: the completion's one button; the proof is in its cookie, never in the form. */
export const resetPasskeysRemoveForm = z.object({ remove: z.literal('all') });
