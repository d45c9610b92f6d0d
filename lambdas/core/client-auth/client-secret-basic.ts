/** client_secret_basic (RFC 6749 2.3.1): the client id and secret in the Authorization header. */
import { InvalidClientError, InvalidRequestError } from '../errors';
import { verifyClientSecret } from './client-secret';
import { type ClientAuthMethodImplementation, clientIdField } from './method';

export const clientSecretBasic: ClientAuthMethodImplementation<'client_secret_basic'> = {
  description: '`client_secret_basic`: the HTTP Basic Authorization header (RFC 6749 2.3.1)',
  // A client_id in the form too must match the header's.
  formFields: { client_id: clientIdField },
  present({ authorization, form }) {
    const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization ?? '');
    if (!authorization || !basic) return undefined;
    // RFC 6749 2.3: never the header and the form's secret together.
    if (form.client_secret !== undefined) throw new InvalidRequestError('Use one client authentication method, not several.');
    const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw new InvalidClientError('Client authentication failed.', 'malformed Basic credentials');
    try {
      // RFC 6749 2.3.1: both parts are form-urlencoded before base64.
      const clientId = decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' '));
      const secret = decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' '));
      // The form's bounds: a longer id cannot exist (metadata document URLs stop at 2000).
      if (clientId.length === 0 || clientId.length > 2000 || secret.length > 512) {
        throw new InvalidClientError('Client authentication failed.', 'Basic credentials out of bounds');
      }
      if (form.client_id !== undefined && form.client_id !== clientId) {
        throw new InvalidRequestError('client_id does not match the authenticated client.');
      }
      return { clientId, secret, method: 'client_secret_basic' };
    } catch (error) {
      if (error instanceof InvalidRequestError) throw error;
      throw new InvalidClientError('Client authentication failed.', 'malformed Basic credentials');
    }
  },
  verify: verifyClientSecret,
};
