/**
 * Paths of the account pages and endpoints (the endpoint table of docs/behaviour/account.md),
 * relative to the issuer: the route rows, the pages' form actions and the mailed links use
 * these one spellings.
 */
export const accountPaths = {
  signInCode: '/api/auth/otp',
  signInCodeResend: '/api/auth/otp/resend',
  emailVerificationRequest: '/api/users/email-verification/request',
  emailVerificationVerify: '/api/users/email-verification/verify',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
} as const;
