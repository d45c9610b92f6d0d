/**
 * The service's settings: one definition serves the Lambda functions and the local
 * server (read from environment variables) and the CDK app (read from context,
 * `-c NAME=value` or cdk.json), so a value is validated the same way everywhere.
 * This module reads no environment itself: callers pass the variables in.
 */
// zod/mini: the same validation as `zod`, tree-shakable; the full build would add hundreds of KiB
// to every function bundle (bench/README.md).
import * as z from 'zod/mini';
import { isCidr } from '../core/admin-network';
import { mfaPolicies, type MfaPolicy } from '../core/model';
import { maxRefreshGraceSeconds } from '../core/lifetimes';

export { mfaPolicies, type MfaPolicy };

export const hashMethods = ['argon2id', 'argon2id-fast'] as const;
export type HashMethod = (typeof hashMethods)[number];
export const signingAlgorithms = ['RS256', 'ES256'] as const;
export type SigningAlgorithm = (typeof signingAlgorithms)[number];
/** `silent` writes nothing: for test runs whose refusals are expected (VERBOSE_TESTS=1 shows them). */
export const logLevels = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

/** An absolute URL without query or fragment: https, or http on a loopback host (local runs). */
const serviceUrl = z.string().check(
  z.refine((value) => {
    try {
      const url = new URL(value);
      if (url.search || url.hash || url.username || url.password) return false;
      return url.protocol === 'https:' || (url.protocol === 'http:' && loopbackHosts.has(url.hostname));
    } catch {
      return false;
    }
  }),
);

/** How far ahead of the clock SIGN_INS_NOT_BEFORE may be: a deployer's clock a little ahead of AWS's. */
const signInsNotBeforeLeewayMs = 5 * 60_000;

/** "true" or "false", as the environment and CDK context carry a switch. */
export const booleanFlag = z.pipe(
  z.enum(['true', 'false']),
  z.transform((value) => value === 'true'),
);
const integer = (min: number, max: number) => z.coerce.number().check(z.int(), z.minimum(min), z.maximum(max));

interface Setting {
  readonly schema: z.ZodMiniType;
  /** What is accepted, as the error message states it. */
  readonly accepts: string;
  readonly description: string;
}

/** Every user-facing setting; README's configuration table mirrors this list. */
export const settings = {
  BASE_URL: {
    schema: serviceUrl,
    accepts: 'an https URL (http only on localhost), no query or fragment',
    description: 'The issuer address `{base_url}`; every endpoint URL is derived from it.',
  },
  JWKS_CDN_BASE_URL: {
    schema: serviceUrl,
    accepts: 'an https URL (http only on localhost), no query or fragment',
    description: 'Base address where `jwks.json` is served (the CloudFront distribution by default).',
  },
  MAIL_FROM: {
    schema: z.email(),
    accepts: 'an email address',
    description: 'Sender address of notification mail (an SES identity in AWS).',
  },
  DCR_ENVIRONMENT_ID: {
    schema: z.optional(z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/))),
    accepts: 'an environment id (letters, digits, _ and -, at most 64), or unset to disable DCR',
    description: 'Environment that dynamically registered clients are placed in. Unset disables DCR.',
  },
  DCR_ENABLED: {
    schema: z._default(booleanFlag, true),
    accepts: '"true" or "false"',
    description: 'Set to `false` to disable DCR even when DCR_ENVIRONMENT_ID is set.',
  },
  DCR_RATE_LIMIT_PER_DAY: {
    schema: z._default(integer(1, 1_000_000), 10),
    accepts: 'a whole number from 1 to 1000000',
    description: 'Registrations per client IP per day, rejected attempts included.',
  },
  DCR_CLIENT_EXPIRY_DAYS: {
    schema: z._default(integer(0, 3650), 30),
    accepts: 'a whole number of days from 0 to 3650 (0: never expire)',
    description: 'A dynamically registered client that completes no token request within this many days is deleted.',
  },
  CLIENT_ID_METADATA_DOCUMENTS: {
    schema: z._default(booleanFlag, true),
    accepts: '"true" or "false"',
    description:
      'Accept https URLs as client_id whose JSON document describes the client (Client ID Metadata Documents, preferred by MCP). Such clients join DCR_ENVIRONMENT_ID, which must be set. On by default (behaviour CIMD-1); `false` turns it off.',
  },
  REQUIRE_PUSHED_AUTHORIZATION_REQUESTS: {
    schema: z._default(booleanFlag, false),
    accepts: '"true" or "false"',
    description:
      'When `true`, every authorization request must be pushed first (RFC 9126: POST /api/par, then `request_uri` at /api/authorize); one that was not is refused. Off, a client can still be made to push with its own `require_pushed_authorization_requests`.',
  },
  DPOP_NONCE_REQUIRED: {
    schema: z._default(booleanFlag, false),
    accepts: '"true" or "false"',
    description:
      'Make every DPoP proof at the token endpoint carry a server nonce (RFC 9449 8): a proof without a current one is refused with use_dpop_nonce and a fresh DPoP-Nonce, and the client retries.',
  },
  MFA_OTP_MAX_ATTEMPTS: {
    schema: z._default(integer(1, 100), 5),
    accepts: 'a whole number from 1 to 100',
    description: 'Attempts allowed per email/MFA one-time code.',
  },
  MFA_POLICY: {
    schema: z._default(z.enum(mfaPolicies), 'admins'),
    accepts: mfaPolicies.map((p) => `"${p}"`).join(', '),
    description:
      'Who must enter a 6-digit code mailed to them after a correct password: nobody, `admins` (every user who can call the admin API) or `everyone`.',
  },
  REQUIRE_VERIFIED_EMAIL: {
    schema: z._default(booleanFlag, false),
    accepts: '"true" or "false"',
    description:
      'When `true`, a user whose address is not verified gets a mailed code at sign-in; entering it verifies the address. Users without an address cannot sign in.',
  },
  PASSKEY_RP_ID: {
    schema: z.optional(z.string().check(z.regex(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/))),
    accepts: 'a lower-case host name: the host of BASE_URL or a registrable parent domain of it',
    description:
      'The WebAuthn relying-party ID passkeys are bound to (default: the host of BASE_URL). Passkeys registered under one RP ID never work under another: choose the final domain before users add passkeys.',
  },
  HASH_METHOD: {
    schema: z._default(z.enum(hashMethods), 'argon2id'),
    accepts: hashMethods.map((m) => `"${m}"`).join(' or '),
    description: 'Hash policy for passwords, client secrets and API key secrets. `argon2id-fast` is for local development and tests only.',
  },
  CLIENT_ID_PREFIX: {
    schema: z._default(z.string().check(z.regex(/^[a-z][a-z0-9_-]{0,15}$/)), 'tgc_'),
    accepts: 'a lower-case literal of 1 to 16 letters, digits, _ or -, starting with a letter',
    description: 'Fixed prefix of every issued `client_id`.',
  },
  SIGNING_ALG: {
    schema: z._default(z.enum(signingAlgorithms), 'RS256'),
    accepts: signingAlgorithms.map((a) => `"${a}"`).join(' or '),
    description: 'JWS algorithm of the signing key. RS256 has the widest resource-server support.',
  },
  SIGN_INS_NOT_BEFORE: {
    // Never in the future: every sign-in until then would count for nothing, the new ones included.
    schema: z.optional(
      z.iso.datetime({ offset: true }).check(z.refine((value) => Date.parse(value) <= Date.now() + signInsNotBeforeLeewayMs)),
    ),
    accepts: 'an ISO 8601 time that has passed, such as 2026-12-01T09:30:00Z',
    description:
      'Sessions, authorization codes and refresh tokens of sign-ins before this time count for nothing (behaviour OPS-7): set after restoring a table from a backup. Only ever move it forward.',
  },
  REFRESH_GRACE_SECONDS: {
    schema: z._default(integer(0, maxRefreshGraceSeconds), 0),
    accepts: `a whole number of seconds from 0 to ${maxRefreshGraceSeconds}`,
    description:
      'Seconds a rotated refresh token still gets the successor it got the first time (behaviour REFRESH-7), for clients that lose a reply; 0 turns it off. A client may set its own.',
  },
  LOG_LEVEL: {
    schema: z._default(z.enum(logLevels), 'info'),
    accepts: logLevels.map((l) => `"${l}"`).join(', '),
    description: 'Lowest level written to the structured logs.',
  },
} as const satisfies Record<string, Setting>;

export type SettingName = keyof typeof settings;
export const settingNames = Object.keys(settings) as SettingName[];

export interface ServiceConfig {
  /** Issuer, without a trailing slash. */
  readonly baseUrl: string;
  readonly jwksCdnBaseUrl: string;
  readonly jwksUri: string;
  readonly mailFrom: string;
  readonly dcr: {
    /** Behaviour CONFIG-3: enabled exactly when DCR_ENVIRONMENT_ID is set and DCR_ENABLED is not false. */
    readonly enabled: boolean;
    readonly environmentId: string | undefined;
    readonly rateLimitPerDay: number;
    /** Days an unused dynamic client lives; 0 means forever. */
    readonly unusedClientExpiryDays: number;
  };
  /** Client ID Metadata Documents: on only with an environment to place such clients in. */
  readonly clientIdMetadataDocuments: boolean;
  /** Behaviour AUTHZ-18: every authorization request must be pushed (RFC 9126 5 `require_pushed_authorization_requests`). */
  readonly requirePushedAuthorizationRequests: boolean;
  /** Local runs (an http loopback issuer): metadata documents may live on loopback too. */
  readonly localMode: boolean;
  /** DPOP_NONCE_REQUIRED: the token endpoint asks DPoP proofs for a server nonce (behaviour TOKEN-10). */
  readonly dpopNonceRequired: boolean;
  readonly mfaOtpMaxAttempts: number;
  readonly mfaPolicy: MfaPolicy;
  readonly requireVerifiedEmail: boolean;
  /** WebAuthn RP ID (behaviour PASSKEY-7): BASE_URL's host, or the parent domain PASSKEY_RP_ID names. */
  readonly passkeyRpId: string;
  readonly hashMethod: HashMethod;
  readonly signingAlg: SigningAlgorithm;
  readonly clientIdPrefix: string;
  /** Epoch seconds of SIGN_INS_NOT_BEFORE: earlier sign-ins count for nothing (behaviour OPS-7). */
  readonly signInsNotBefore: number | undefined;
  readonly logLevel: LogLevel;
  /** REFRESH_GRACE_SECONDS (behaviour REFRESH-7): 0, none. */
  readonly refreshGraceSeconds: number;
  /**
   * ADMIN_ALLOWED_CIDRS, given by the construct only to the functions the web ACL lets through from
   * anywhere (the self-service key routes): admin callers must still come from these networks
   * (behaviour EDGE-4). Empty: not restricted.
   */
  readonly adminAllowedCidrs: readonly string[];
}

export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Source = Readonly<Record<string, string | undefined>>;

/** Empty strings count as unset: CDK and shells pass them for "no value". */
function present(source: Source, name: string): string | undefined {
  const value = source[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/**
 * Validates the named settings from `source`; every problem is reported at once,
 * each naming the variable (or what `label` calls it: the CDK construct names its
 * props) and what it accepts.
 */
export function parseSettings<N extends SettingName>(
  source: Source,
  names: readonly N[],
  label: (name: SettingName) => string = (name) => name,
): { [K in N]: z.output<(typeof settings)[K]['schema']> } {
  const problems: string[] = [];
  const values: Record<string, unknown> = {};
  for (const name of names) {
    const setting: Setting = settings[name];
    const raw = present(source, name);
    const result = setting.schema.safeParse(raw);
    if (result.success) {
      values[name] = result.data;
    } else {
      const got = raw === undefined ? 'it is not set' : `got ${JSON.stringify(raw)}`;
      problems.push(`${label(name)} must be ${setting.accepts} (${got})`);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return values as { [K in N]: z.output<(typeof settings)[K]['schema']> };
}

/**
 * WebAuthn 5.1.4.1 / HTML "registrable domain suffix": the RP ID is the origin's host or a
 * parent of it. A single label (`com`) is refused; a public suffix with a dot (`co.uk`) is
 * not detected here, and browsers refuse it at the first ceremony.
 */
export function passkeyRpId(baseUrl: string, configured: string | undefined): string {
  const host = new URL(baseUrl).hostname;
  if (configured === undefined || configured === host) return host;
  if (configured.includes('.') && host.endsWith(`.${configured}`)) return configured;
  throw new ConfigError([
    `PASSKEY_RP_ID must be the host of BASE_URL (${host}) or a parent domain of it (got ${JSON.stringify(configured)})`,
  ]);
}

const withoutTrailingSlash = (url: string) => url.replace(/\/+$/, '');

/** ADMIN_ALLOWED_CIDRS as the construct passes it (a deploy-time option, lib/deployment-options.ts): comma-separated CIDRs. */
export function adminAllowedCidrs(value: string | undefined): readonly string[] {
  const cidrs = (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  const wrong = cidrs.filter((cidr) => !isCidr(cidr));
  if (wrong.length > 0)
    throw new ConfigError([`ADMIN_ALLOWED_CIDRS must be comma-separated CIDRs (got ${JSON.stringify(wrong.join(','))})`]);
  return cidrs;
}

/** Builds the runtime configuration from environment variables (Lambda or local server). */
export function loadConfig(env: Source): ServiceConfig {
  const s = parseSettings(env, settingNames);
  const jwksCdnBaseUrl = withoutTrailingSlash(s.JWKS_CDN_BASE_URL);
  const environmentId = s.DCR_ENVIRONMENT_ID;
  return {
    baseUrl: withoutTrailingSlash(s.BASE_URL),
    jwksCdnBaseUrl,
    jwksUri: `${jwksCdnBaseUrl}/jwks.json`,
    mailFrom: s.MAIL_FROM,
    dcr: {
      enabled: environmentId !== undefined && s.DCR_ENABLED !== false,
      environmentId,
      rateLimitPerDay: s.DCR_RATE_LIMIT_PER_DAY,
      unusedClientExpiryDays: s.DCR_CLIENT_EXPIRY_DAYS,
    },
    clientIdMetadataDocuments: s.CLIENT_ID_METADATA_DOCUMENTS && environmentId !== undefined,
    requirePushedAuthorizationRequests: s.REQUIRE_PUSHED_AUTHORIZATION_REQUESTS,
    localMode: s.BASE_URL.startsWith('http:'),
    dpopNonceRequired: s.DPOP_NONCE_REQUIRED,
    mfaOtpMaxAttempts: s.MFA_OTP_MAX_ATTEMPTS,
    mfaPolicy: s.MFA_POLICY,
    requireVerifiedEmail: s.REQUIRE_VERIFIED_EMAIL,
    passkeyRpId: passkeyRpId(s.BASE_URL, s.PASSKEY_RP_ID),
    hashMethod: s.HASH_METHOD,
    signingAlg: s.SIGNING_ALG,
    clientIdPrefix: s.CLIENT_ID_PREFIX,
    signInsNotBefore: s.SIGN_INS_NOT_BEFORE === undefined ? undefined : Math.floor(Date.parse(s.SIGN_INS_NOT_BEFORE) / 1000),
    logLevel: s.LOG_LEVEL,
    refreshGraceSeconds: s.REFRESH_GRACE_SECONDS,
    adminAllowedCidrs: adminAllowedCidrs(env.ADMIN_ALLOWED_CIDRS),
  };
}
