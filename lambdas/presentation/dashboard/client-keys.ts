/**
 * The dashboard's side of private_key_jwt clients (behaviour ADMIN-19, DASH-6): the key fields of
 * the create and edit forms, read into what core/admin/clients.ts checks, and the rows that show
 * how a client authenticates. The rules are the admin API's (core/client-keys.ts); this only turns
 * a textarea of JSON into a key set.
 */
import type { ClientKeysInput } from '../../core/client-keys';
import { InvalidRequestError } from '../../core/errors';
import { assertionSigningAlgorithms } from '../../core/jwt-assertions';
import type { Client } from '../../core/model';
import { html, type Html } from '../html';
import { blankToUndefined, describedBy, fieldError, type FormState, fieldValue } from './forms';

/** The JSON of a pasted key set; a few keys of any type fit well within it. */
const maxJwksText = 32 * 1024;

function parsedJwks(text: string | undefined): unknown {
  const given = blankToUndefined(text);
  if (given === undefined) return undefined;
  if (given.length > maxJwksText) throw new InvalidRequestError(`jwks: must be at most ${maxJwksText} characters.`);
  try {
    return JSON.parse(given);
  } catch {
    throw new InvalidRequestError('jwks: must be a JSON Web Key Set, {"keys": [...]}.');
  }
}

/** The keys the create form names, or undefined for a client with a secret (or a public one). */
export function keysOfCreateForm(form: Readonly<Record<string, string | undefined>>): ClientKeysInput | undefined {
  const jwks = parsedJwks(form.jwks);
  const jwksUri = blankToUndefined(form.jwks_uri)?.trim();
  const signingAlg = blankToUndefined(form.token_endpoint_auth_signing_alg);
  if (jwks === undefined && jwksUri === undefined && signingAlg === undefined) return undefined;
  return { jwks, jwksUri, signingAlg };
}

/** The keys the edit form replaces, when the client has keys and the field changed. */
export function keysOfEditForm(
  client: Client,
  form: Readonly<Record<string, string | undefined>>,
): Pick<ClientKeysInput, 'jwks' | 'jwksUri'> | undefined {
  if (client.jwks && form.jwks !== undefined) {
    const jwks = parsedJwks(form.jwks);
    return JSON.stringify(jwks) === JSON.stringify(client.jwks) ? undefined : { jwks };
  }
  if (client.jwksUri && form.jwks_uri !== undefined) {
    const jwksUri = form.jwks_uri.trim();
    return jwksUri === client.jwksUri ? undefined : { jwksUri };
  }
  return undefined;
}

/** The create form's key fields, filled in as posted after a refusal (behaviour DASH-14). */
export function createFormKeyFields(state: FormState): Html {
  const alg = fieldValue(state, 'token_endpoint_auth_signing_alg');
  return html`<fieldset><legend>Keys instead of a secret (private_key_jwt; confidential clients only, optional)</legend>
<label for="jwks">Public keys (a JWKS: {"keys": [...]})</label><textarea id="jwks" name="jwks" rows="4"${describedBy(state, 'jwks')}>${fieldValue(state, 'jwks')}</textarea>${fieldError(state, 'jwks')}
<label for="jwks_uri">or the https URL of its JWKS</label><input id="jwks_uri" name="jwks_uri" type="url" maxlength="2000" value="${fieldValue(state, 'jwks_uri')}"${describedBy(state, 'jwks_uri')}>${fieldError(state, 'jwks_uri')}
<label for="token_endpoint_auth_signing_alg">Signing algorithm</label><select id="token_endpoint_auth_signing_alg" name="token_endpoint_auth_signing_alg"><option value="">any of its keys'</option>${assertionSigningAlgorithms.map(
    (option) => html`<option value="${option}"${option === alg ? html` selected` : ''}>${option}</option>`,
  )}</select>${fieldError(state, 'token_endpoint_auth_signing_alg')}</fieldset>`;
}

/** The edit form's key field: the set or the URL, as the client registered it, or as posted after a refusal. */
export function editFormKeyFields(client: Client, state: FormState): Html {
  if (client.jwks) {
    return html`<label for="jwks">Public keys (JWKS; replace to rotate)</label><textarea id="jwks" name="jwks" rows="6"${describedBy(state, 'jwks')}>${fieldValue(state, 'jwks', JSON.stringify(client.jwks, null, 2))}</textarea>${fieldError(state, 'jwks')}`;
  }
  if (client.jwksUri) {
    return html`<label for="jwks_uri">JWKS URL</label><input id="jwks_uri" name="jwks_uri" type="url" maxlength="2000" value="${fieldValue(state, 'jwks_uri', client.jwksUri)}"${describedBy(state, 'jwks_uri')}>${fieldError(state, 'jwks_uri')}`;
  }
  return html``;
}

/** The detail page's row: how the client authenticates. */
export function authenticationRow(client: Client): Html {
  const how =
    client.type === 'public'
      ? 'none (PKCE)'
      : client.jwks
        ? `private_key_jwt, keys ${client.jwks.keys.map((key) => String(key.kid ?? '(no kid)')).join(', ')}`
        : client.jwksUri
          ? `private_key_jwt, keys at ${client.jwksUri}`
          : 'client secret';
  const alg = client.tokenEndpointAuthSigningAlg ? ` (${client.tokenEndpointAuthSigningAlg} only)` : '';
  return html`<tr><th>Authentication</th><td id="authentication">${how}${alg}</td></tr>`;
}
