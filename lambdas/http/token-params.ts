/**
 * The form parameters every token request shares (the grant type and client credentials)
 * and those of introspection and revocation. Each grant's own parameters are declared by its
 * module in lambdas/core/grants. Unknown parameters are ignored (RFC 6749 3.2).
 */
import * as z from 'zod/mini';
import { clientAuthFormFields } from '../core/client-auth/registry';
import { formField } from '../core/grants/grant';

/** The client-authentication methods' fields (lambdas/core/client-auth: each method declares its own). */
const clientFields = clientAuthFormFields;

export const tokenRequestParams = z.object({ grant_type: formField.required(128), ...clientFields });

/** RFC 7662 2.1 and RFC 7009 2.1; `resource` (behaviour INTRO-3) only for introspection. */
export const tokenOperationParams = z.object({
  token: formField.required(8192),
  token_type_hint: formField.optional(128),
  resource: formField.optional(2048),
  ...clientFields,
});
