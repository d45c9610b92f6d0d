/**
 * Paths of the account pages and endpoints (the endpoint table of docs/behaviour/account.md),
 * relative to the issuer: the route rows, the pages' form actions and the mailed links use
 * these one spellings.
 */
export const accountPaths = {
  signInCode: '/api/auth/otp',
  signInCodeResend: '/api/auth/otp/resend',
  /** The first code for a session the MFA policy now asks a second factor of (behaviour MFA-10). */
  stepUp: '/api/auth/step-up',
  emailVerificationRequest: '/api/users/email-verification/request',
  emailVerificationVerify: '/api/users/email-verification/verify',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  /** Behaviour RESET-9: the reset completion's "remove every passkey". */
  resetPasskeysRemove: '/reset-password/passkeys/remove',
  /** Behaviour PASSKEY-2, PASSKEY-3: the list page, and the two verify paths of the passkey ceremonies. */
  passkeys: '/api/users/passkey',
  passkeyRegister: '/api/users/passkey/verify',
  passkeyRemove: '/api/users/passkey/remove',
  passkeySignInOptions: '/api/auth/passkey/options',
  passkeySignIn: '/api/auth/passkey/verify',
} as const;
