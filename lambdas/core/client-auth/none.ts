/**
 * `none` (RFC 7591 2): a public client sends its client_id alone and proves possession of the
 * authorization code with PKCE instead (OAuth 2.1 2.4, behaviour TOKEN-3).
 */
import { type ClientAuthMethodImplementation, clientIdField } from './method';
import { presentsAssertion } from './private-key-jwt';

export const none: ClientAuthMethodImplementation<'none'> = {
  description: '`none`: `client_id` alone in the form, for public clients, which prove possession with PKCE',
  formFields: { client_id: clientIdField },
  present: ({ authorization, form }) =>
    !authorization && form.client_id && form.client_secret === undefined && !presentsAssertion(form)
      ? { clientId: form.client_id, method: 'none' }
      : undefined,
  verify: async () => undefined,
};
