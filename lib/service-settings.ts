/**
 * Service settings on the CDK side. The construct takes them as typed props
 * (`ServiceSettingsProps`); the CDK app of this repository reads them from context under
 * the environment variables' names (`settingsFromContext`). Either way they are validated
 * by the schemas the functions use (lambdas/config/settings.ts) and become the functions'
 * environment variables.
 */
import { Token, Tokenization } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import {
  ConfigError,
  type HashMethod,
  type LogLevel,
  type MfaPolicy,
  parseSettings,
  passkeyRpId,
  type SettingName,
  type SigningAlgorithm,
  settingNames,
} from '../lambdas/config/settings';

/**
 * The service's settings as construct props, one per setting of lambdas/config/settings.ts
 * (the README configuration table gives the variable names). Invalid values stop synthesis
 * with a ConfigError naming the prop, its variable and what it accepts. String values that
 * are CDK tokens (addresses of resources in the same app) are passed through unchecked.
 */
export interface ServiceSettingsProps {
  /**
   * Sender address of notification mail (`MAIL_FROM`). It becomes an SES email identity:
   * SES mails it a verification link, and mail is sent only once it is verified (and,
   * while the account is in the SES sandbox, only to verified recipients). The first
   * admin's default address is `admin@` its domain.
   */
  readonly mailFrom: string;
  /**
   * The issuer `{base_url}` (`BASE_URL`): https, no query or fragment; every endpoint URL is
   * derived from it. Set it when a CDN or proxy in front of the API is the public address.
   * @default `https://<customDomain.domainName>` with a custom domain, else the API stage URL
   */
  readonly baseUrl?: string;
  /**
   * Base address where `jwks.json` is served (`JWKS_CDN_BASE_URL`).
   * @default - the address of the CloudFront distribution this construct creates
   */
  readonly jwksBaseUrl?: string;
  /**
   * Environment dynamically registered clients are placed in (`DCR_ENVIRONMENT_ID`):
   * letters, digits, `_` and `-`, at most 64. The first deploy creates it.
   * @default 'env_dcr'
   */
  readonly dcrEnvironmentId?: string;
  /**
   * Dynamic client registration (RFC 7591) at `/api/register` (`DCR_ENABLED`).
   * @default true
   */
  readonly dcrEnabled?: boolean;
  /**
   * Registrations per client IP per day, refused attempts included (`DCR_RATE_LIMIT_PER_DAY`), 1 to 1000000.
   * @default 10
   */
  readonly dcrRateLimitPerDay?: number;
  /**
   * Days after which a dynamically registered client that completed no token request is
   * deleted (`DCR_CLIENT_EXPIRY_DAYS`), 0 to 3650; 0 keeps them forever.
   * @default 30
   */
  readonly dcrClientExpiryDays?: number;
  /**
   * Accept https URLs as `client_id` whose JSON document describes the client (Client ID
   * Metadata Documents, which the MCP authorization specification asks clients to use;
   * `CLIENT_ID_METADATA_DOCUMENTS`). Such clients join the DCR environment and see the
   * consent screen; discovery says `client_id_metadata_document_supported: true`. Set `false`
   * to accept only registered clients (the server then fetches no client's URL).
   * @default true
   */
  readonly clientIdMetadataDocuments?: boolean;
  /**
   * Every authorization request must be pushed first (RFC 9126 pushed authorization requests,
   * `REQUIRE_PUSHED_AUTHORIZATION_REQUESTS`): one sent straight to `/api/authorize` is refused.
   * @default false
   */
  readonly requirePushedAuthorizationRequests?: boolean;
  /**
   * Make every DPoP proof at the token endpoint carry a server nonce (`DPOP_NONCE_REQUIRED`, RFC 9449
   * section 8): a proof without a current one is refused with `use_dpop_nonce` and a fresh `DPoP-Nonce`.
   * @default false
   */
  readonly dpopNonceRequired?: boolean;
  /**
   * Who must enter a 6-digit code mailed to them after a correct password (`MFA_POLICY`):
   * `off`, `admins` (every user who can call the admin API) or `everyone`.
   * @default 'admins'
   */
  readonly mfaPolicy?: MfaPolicy;
  /**
   * Attempts allowed per mailed one-time code (`MFA_OTP_MAX_ATTEMPTS`), 1 to 100.
   * @default 5
   */
  readonly mfaOtpMaxAttempts?: number;
  /**
   * Users whose address is not verified get a mailed code at sign-in, which verifies it
   * (`REQUIRE_VERIFIED_EMAIL`); users without an address cannot sign in.
   * @default false
   */
  readonly requireVerifiedEmail?: boolean;
  /**
   * WebAuthn relying-party ID passkeys are bound to (`PASSKEY_RP_ID`): the host of the
   * issuer or a registrable parent domain of it. Passkeys registered under one RP ID never
   * work under another: choose the final domain before users add passkeys.
   * @default - the host of `baseUrl`
   */
  readonly passkeyRpId?: string;
  /**
   * Hash policy for passwords, client secrets and API key secrets (`HASH_METHOD`).
   * `argon2id-fast` is for development and tests only.
   * @default 'argon2id'
   */
  readonly hashMethod?: HashMethod;
  /**
   * Fixed prefix of every issued `client_id` (`CLIENT_ID_PREFIX`): 1 to 16 lower-case
   * letters, digits, `_` or `-`, starting with a letter.
   * @default 'tgc_'
   */
  readonly clientIdPrefix?: string;
  /**
   * JWS algorithm of the signing keys (`SIGNING_ALG`). RS256 has the widest resource-server
   * support. A change applies from the next rotated key.
   * @default 'RS256'
   */
  readonly signingAlgorithm?: SigningAlgorithm;
  /**
   * Sessions, authorization codes and refresh tokens resting on a sign-in before this time count for
   * nothing (`SIGN_INS_NOT_BEFORE`, an ISO 8601 time that has passed): set it after restoring a table
   * from a backup, which brings back sessions and refresh tokens revoked since (behaviour OPS-7).
   * Only ever move it forward.
   * @default - none
   */
  readonly signInsNotBefore?: string;
  /**
   * Lowest level the functions write to their logs (`LOG_LEVEL`).
   * @default 'info'
   */
  readonly logLevel?: LogLevel;
  /**
   * Seconds a rotated refresh token still gets the successor it got the first time
   * (`REFRESH_GRACE_SECONDS`, 0 to 300), for clients that lose a reply; outside it, reuse revokes
   * the family. An admin may set a client's own value.
   * @default 0 (off)
   */
  readonly refreshGraceSeconds?: number;
}

/** The setting (environment variable) each prop sets. */
export const settingOfProp = {
  mailFrom: 'MAIL_FROM',
  baseUrl: 'BASE_URL',
  jwksBaseUrl: 'JWKS_CDN_BASE_URL',
  dcrEnvironmentId: 'DCR_ENVIRONMENT_ID',
  dcrEnabled: 'DCR_ENABLED',
  dcrRateLimitPerDay: 'DCR_RATE_LIMIT_PER_DAY',
  dcrClientExpiryDays: 'DCR_CLIENT_EXPIRY_DAYS',
  clientIdMetadataDocuments: 'CLIENT_ID_METADATA_DOCUMENTS',
  requirePushedAuthorizationRequests: 'REQUIRE_PUSHED_AUTHORIZATION_REQUESTS',
  dpopNonceRequired: 'DPOP_NONCE_REQUIRED',
  mfaPolicy: 'MFA_POLICY',
  mfaOtpMaxAttempts: 'MFA_OTP_MAX_ATTEMPTS',
  requireVerifiedEmail: 'REQUIRE_VERIFIED_EMAIL',
  passkeyRpId: 'PASSKEY_RP_ID',
  hashMethod: 'HASH_METHOD',
  clientIdPrefix: 'CLIENT_ID_PREFIX',
  signingAlgorithm: 'SIGNING_ALG',
  signInsNotBefore: 'SIGN_INS_NOT_BEFORE',
  logLevel: 'LOG_LEVEL',
  refreshGraceSeconds: 'REFRESH_GRACE_SECONDS',
} as const satisfies { readonly [K in keyof ServiceSettingsProps]-?: SettingName };

type SettingProp = keyof typeof settingOfProp;
/** Fails to compile when a setting of lambdas/config/settings.ts has no prop. */
const everySettingHasAProp: Record<Exclude<SettingName, (typeof settingOfProp)[SettingProp]>, never> = {};
void everySettingHasAProp;

const settingProps = Object.keys(settingOfProp) as SettingProp[];
const propOfSetting = Object.fromEntries(settingProps.map((prop) => [settingOfProp[prop], prop])) as Record<SettingName, SettingProp>;

/** How validation messages name a setting given as a prop: `signingAlgorithm (SIGNING_ALG)`. */
export const propLabel = (name: SettingName): string => `${propOfSetting[name]} (${name})`;

/** Settings whose default is an address only known once the stack is built. */
export const deployTimeDefaults: ReadonlySet<SettingName> = new Set(['BASE_URL', 'JWKS_CDN_BASE_URL']);

/**
 * What is wrong with the settings given as props, one message per prop (`mfaPolicy
 * (MFA_POLICY) must be ...`); tokens are not checked. `mailFrom` is required.
 */
export function settingsProblems(props: ServiceSettingsProps): string[] {
  const values = settingValues(props);
  const literal = settingNames.filter((name) => (name === 'MAIL_FROM' || values[name] !== undefined) && !Token.isUnresolved(values[name]));
  try {
    parseSettings(values, literal, propLabel);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return [...error.problems];
    throw error;
  }
}

/** The props' values as the functions' variables would hold them, by variable name; unset props are left out. */
export function settingValues(props: ServiceSettingsProps): Partial<Record<SettingName, string>> {
  const values: Partial<Record<SettingName, string>> = {};
  for (const prop of settingProps) {
    const value = props[prop];
    // A number token (`Token.asNumber`) stays a token, so validation skips it as it skips string tokens.
    if (value !== undefined) values[settingOfProp[prop]] = typeof value === 'number' ? Tokenization.stringifyNumber(value) : String(value);
  }
  return values;
}

/**
 * Reads every setting from context (`-c NAME=value` or cdk.json `context`), validates it
 * and returns the settings given (non-empty) as props. cdk.json may hold JSON booleans and
 * numbers; they are read as their string form.
 * @throws ConfigError naming every invalid or missing setting by its variable name
 */
export function settingsFromContext(scope: Construct): ServiceSettingsProps {
  const values: Partial<Record<SettingName, string>> = {};
  for (const name of settingNames) {
    const value: unknown = scope.node.tryGetContext(name);
    if (value !== undefined && value !== null && String(value).trim() !== '') values[name] = String(value).trim();
  }
  const parsed: Partial<Record<SettingName, unknown>> = parseSettings(
    values,
    settingNames.filter((name) => values[name] !== undefined || !deployTimeDefaults.has(name)),
  );
  const props: Record<string, unknown> = {};
  for (const name of settingNames) {
    if (values[name] !== undefined) props[propOfSetting[name]] = parsed[name];
  }
  return props as unknown as ServiceSettingsProps;
}

/**
 * Validates the settings and returns them as environment variables, defaults applied,
 * so the function configuration shows every value in effect. Values that are CDK tokens
 * (addresses of deployed resources) are passed through unvalidated. Optional settings
 * left unset are omitted. A PASSKEY_RP_ID that cannot serve a literal BASE_URL fails here
 * rather than at the functions' first start.
 * @throws ConfigError naming every invalid or missing setting with `label`
 */
export function settingsEnvironment(
  values: Readonly<Partial<Record<SettingName, string>>>,
  label: (name: SettingName) => string = (name) => name,
): Record<string, string> {
  const literal = settingNames.filter((name) => !Token.isUnresolved(values[name]));
  const parsed: Partial<Record<SettingName, unknown>> = parseSettings(values, literal, label);
  if (typeof parsed.BASE_URL === 'string') passkeyRpId(parsed.BASE_URL, parsed.PASSKEY_RP_ID as string | undefined);
  const environment: Record<string, string> = {};
  for (const name of settingNames) {
    const value = Token.isUnresolved(values[name]) ? values[name] : parsed[name];
    if (value !== undefined) environment[name] = String(value);
  }
  return environment;
}
