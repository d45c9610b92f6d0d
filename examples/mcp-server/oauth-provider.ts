/**
 * What an MCP client keeps for the MCP SDK's OAuth support, in memory: its registration, its
 * tokens, the PKCE verifier and the state of the sign-in under way. A real client stores them
 * across runs (tokens encrypted at rest).
 */
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { randomBytes } from 'node:crypto';

export class InMemoryOAuthProvider implements OAuthClientProvider {
  information?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  authorizationUrl?: URL;
  private verifier = '';
  /** RFC 9700 4.7.1: the callback must bring back the state this client sent. */
  readonly expectedState = randomBytes(16).toString('base64url');

  constructor(
    readonly redirectUrl: string,
    private readonly clientName: string,
    /** Sends the user to sign in (opens a browser, prints the URL). */
    private readonly onRedirect: (url: URL) => void = () => undefined,
    /** A Client ID Metadata Document's URL: the SDK names the client by it instead of registering. */
    readonly clientMetadataUrl?: string,
  ) {}

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.clientName,
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  state() {
    return this.expectedState;
  }
  clientInformation() {
    return this.information;
  }
  saveClientInformation(information: OAuthClientInformationMixed) {
    this.information = information;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
    this.onRedirect(url);
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}
