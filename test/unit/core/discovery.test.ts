import { loadConfig } from '../../../lambdas/config/settings';
import { authorizationServerMetadata, openIdConfiguration } from '../../../lambdas/core/discovery';

const env = { BASE_URL: 'https://auth.example.com', JWKS_CDN_BASE_URL: 'https://cdn.example.com', MAIL_FROM: 'a@example.com' };
const scopes = [
  { name: 'openid', description: '', discoverable: true },
  { name: 'admin', description: '', discoverable: false },
];

describe('authorization server metadata (RFC 8414 section 2, behaviour DISC-2)', () => {
  const metadata = authorizationServerMetadata(loadConfig({ ...env, DCR_ENVIRONMENT_ID: 'env_1' }), scopes);

  it('derives every endpoint from the issuer and the JWKS from the CDN address', () => {
    expect(metadata).toMatchObject({
      issuer: 'https://auth.example.com',
      authorization_endpoint: 'https://auth.example.com/api/authorize',
      token_endpoint: 'https://auth.example.com/api/token',
      registration_endpoint: 'https://auth.example.com/api/register',
      introspection_endpoint: 'https://auth.example.com/api/token/introspect',
      userinfo_endpoint: 'https://auth.example.com/api/userinfo',
      jwks_uri: 'https://cdn.example.com/jwks.json',
    });
  });

  it('advertises resource indicators (RFC 8707), S256 PKCE only, and the iss response parameter (RFC 9207)', () => {
    expect(metadata.resource_parameter_supported).toBe(true);
    expect(metadata.code_challenge_methods_supported).toEqual(['S256']);
    expect(metadata.authorization_response_iss_parameter_supported).toBe(true);
    expect(metadata.response_types_supported).toEqual(['code']);
    expect(metadata.token_endpoint_auth_methods_supported).toContain('none');
  });

  it('lists the ID-JAG grant profile with the JWT-bearer grant it needs (draft-ietf-oauth-identity-assertion-authz-grant, behaviour DISC-2)', () => {
    expect(metadata.authorization_grant_profiles_supported).toEqual(['urn:ietf:params:oauth:grant-profile:id-jag']);
    expect(metadata.grant_types_supported).toContain('urn:ietf:params:oauth:grant-type:jwt-bearer');
  });

  it('lists discoverable scopes only (the admin scope stays unadvertised)', () => {
    expect(metadata.scopes_supported).toEqual(['openid']);
  });

  it('behaviour CIMD-1: advertises Client ID Metadata Documents by default, and not once they are turned off', () => {
    expect(metadata.client_id_metadata_document_supported).toBe(true);
    const off = loadConfig({ ...env, DCR_ENVIRONMENT_ID: 'env_1', CLIENT_ID_METADATA_DOCUMENTS: 'false' });
    expect(authorizationServerMetadata(off, scopes)).not.toHaveProperty('client_id_metadata_document_supported');
  });

  it.each([{}, { DCR_ENVIRONMENT_ID: 'env_1', DCR_ENABLED: 'false' }])(
    'behaviour DISC-3: omits registration_endpoint while DCR is disabled (%j)',
    (dcr) => {
      expect(authorizationServerMetadata(loadConfig({ ...env, ...dcr }), scopes)).not.toHaveProperty('registration_endpoint');
    },
  );
});

describe('OpenID Connect discovery', () => {
  it('extends the RFC 8414 document with the OIDC-required fields and the configured signing algorithm', () => {
    const config = loadConfig({ ...env, SIGNING_ALG: 'ES256' });
    const document = openIdConfiguration(config, scopes);
    expect(document).toMatchObject(authorizationServerMetadata(config, scopes));
    expect(document.subject_types_supported).toEqual(['public']);
    expect(document.id_token_signing_alg_values_supported).toEqual(['ES256']);
  });
});
