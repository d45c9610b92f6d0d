/** client_secret_post (RFC 6749 2.3.1): client_id and client_secret in the form, without an Authorization header. */
import { verifyClientSecret } from './client-secret';
import * as z from 'zod/mini';
import { formField } from '../grants/grant';
import { type ClientAuthMethodImplementation, clientIdField } from './method';

export const clientSecretPost: ClientAuthMethodImplementation<'client_secret_post'> = {
  description: '`client_secret_post`: `client_id` and `client_secret` in the form (RFC 6749 2.3.1)',
  formFields: { client_id: clientIdField, client_secret: z.optional(formField.required(512)) },
  present: ({ authorization, form }) =>
    !authorization && form.client_id && form.client_secret !== undefined
      ? { clientId: form.client_id, secret: form.client_secret, method: 'client_secret_post' }
      : undefined,
  verify: verifyClientSecret,
};
