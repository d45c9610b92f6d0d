/**
 * What a grant type is, for the token endpoint (RFC 6749 4, 6): its `grant_type` value, the
 * form parameters it reads, and how it issues. Each grant is one module in this folder that
 * exports one of these; registry.ts lists them, and handlers/token.ts dispatches through it.
 * Adding a grant is one module and one line in the registry.
 */
import * as z from 'zod/mini';
import type { Client, GrantType } from '../model';
import type { TokenRequestActivity } from './activity';
import type { GrantDependencies } from './ports';
import type { TokenResponse } from './response';

export interface Grant<S extends z.ZodMiniType = z.ZodMiniType> {
  readonly type: GrantType;
  /** The grant's own form parameters (RFC 6749 3.2: unknown ones are ignored). */
  readonly parameters: S;
  /** The client is authenticated and allowed this grant type; `params` passed `parameters`. */
  issue(client: Client, params: z.output<S>, activity: TokenRequestActivity, deps: GrantDependencies): Promise<TokenResponse>;
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
