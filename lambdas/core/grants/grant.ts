/**
 * What a grant type is, for the token endpoint (RFC 6749 4, 6): its name and facts
 * (grant-types.ts), the form parameters it reads, and how it issues. Each grant is one module in
 * this folder that exports its implementation; registry.ts joins each to its name, and everything
 * that only names the grant types (discovery, the OpenAPI document, client validation) reads
 * grant-types.ts instead. Adding a grant is one entry there, one module and one line in the registry.
 */
import * as z from 'zod/mini';
import type { ProvenKey } from '../dpop';
import type { MfaPolicy } from '../model';
import type { Client } from '../model';
import type { TokenDependencies } from '../tokens';
import type { TokenRequestActivity } from './activity';
import type { GrantType, GrantTypeFacts } from './grant-types';
import type { AssertionGrantPorts, EnvironmentAccess, GrantStore, UserDirectory } from './ports';
import type { TokenResponse } from './response';

/** How the token endpoint serves one grant type: what its module exports. */
export interface GrantImplementation<S extends z.ZodMiniType = z.ZodMiniType> {
  /** The grant's own form parameters (RFC 6749 3.2: unknown ones are ignored). */
  readonly parameters: S;
  /**
   * The client is authenticated and allowed this grant type; `params` passed `parameters`. `proven`: the
   * key of the request's valid DPoP proof, which its access token is bound to (RFC 9449 5, behaviour TOKEN-8).
   */
  issue(
    client: Client,
    params: z.output<S>,
    activity: TokenRequestActivity,
    deps: GrantDependencies,
    proven?: ProvenKey,
  ): Promise<TokenResponse>;
  /**
   * A grant that may be asked for with no client credentials at all (RFC 7523 2.1: client
   * authentication is optional for an assertion grant) serves such a request here (behaviour JWTB-1).
   */
  issueWithoutClient?(params: z.output<S>, activity: TokenRequestActivity, deps: GrantDependencies): Promise<TokenResponse>;
}

/** A grant type as the token endpoint serves it: its `grant_type` value and facts with its implementation. */
export interface Grant<S extends z.ZodMiniType = z.ZodMiniType> extends GrantTypeFacts, GrantImplementation<S> {
  readonly type: GrantType;
}

/** What a grant's `issue` is given: the ports of ports.ts, the signer, and the settings it reads. */
export interface GrantDependencies extends TokenDependencies {
  readonly store: GrantStore;
  readonly users: UserDirectory;
  readonly environments: EnvironmentAccess;
  /** Dynamic clients' users need this environment, whatever the client record says (behaviour ENV-1). */
  readonly dcrEnvironmentId?: string;
  /** Epoch seconds before which a sign-in counts for nothing (SIGN_INS_NOT_BEFORE, behaviour OPS-7). */
  readonly signInsNotBefore?: number;
  /** REFRESH_GRACE_SECONDS: the rotation grace window of clients that set none of their own (behaviour REFRESH-7); 0 or absent, none. */
  readonly refreshGraceSeconds?: number;
  /** The MFA policy in force (behaviour MFA-9), read only for a sign-in without a second factor. */
  readonly mfaPolicy: () => Promise<MfaPolicy>;
  /**
   * Marks a dynamic client as used, so it no longer expires unused; never fails the request
   * (the tokens are issued; a later redemption tries again).
   */
  readonly keepClient: (clientId: string) => Promise<void>;
  /** The JWT-bearer grant's trusted issuers, verifier, jti store, scope catalog and user directory (behaviour JWTB-1). */
  readonly assertionGrants: AssertionGrantPorts;
  /** Waits between re-reads after a lost race; injectable so tests need not wait. */
  readonly pause?: (ms: number) => Promise<void>;
}

/**
 * Form fields of the token endpoints. Required ones missing or oversized are
 * `invalid_request` (RFC 6749 5.2). Bounds are far above any legitimate value and keep
 * activity rows and reads small.
 */
export const formField = {
  required: (max: number) => z.string().check(z.minLength(1), z.maxLength(max)),
  /** An empty value counts as absent (parseScope and parseResource treat it so). */
  optional: (max: number) => z.optional(z.string().check(z.maxLength(max))),
};
