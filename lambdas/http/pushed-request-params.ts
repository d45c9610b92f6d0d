/**
 * The form of POST /api/par (RFC 9126 2.1): the authorization request's parameters (behaviour
 * AUTHZ-1; lambdas/core/authorization-request.ts checks them) with the client's credentials.
 * Bounded here (behaviour LIMIT-2), so an oversized value is a 400 naming it; other parameters
 * are kept, as a query would carry them, and ignored by the authorization endpoint.
 */
import * as z from 'zod/mini';
import { clientAuthFormFields } from '../core/client-auth/registry';
import { formField } from '../core/grants/grant';

export const pushedRequestParams = z.object({
  response_type: formField.optional(64),
  redirect_uri: formField.optional(2048),
  scope: formField.optional(4096),
  state: formField.optional(1024),
  code_challenge: formField.optional(128),
  code_challenge_method: formField.optional(16),
  resource: formField.optional(2048),
  nonce: formField.optional(1024),
  prompt: formField.optional(128),
  max_age: formField.optional(16),
  ...clientAuthFormFields,
});

/** The client-authentication fields: checked, never stored with the request. */
export const credentialFieldNames: readonly string[] = Object.keys(clientAuthFormFields).filter((name) => name !== 'client_id');
