/**
 * Who manages a client's keys (behaviour KEYM-1..KEYM-7): an admin caller, who names the bound
 * user, or a self-service caller, confined to its own user. lambdas/http decides which.
 */
import type { ApiKeyCreator } from '../model';

export type KeyManager =
  | {
      readonly kind: 'admin';
      readonly actor: Exclude<ApiKeyCreator, { kind: 'user' }>;
      /** An admin user's sign-in methods: kept with a key bound to their own account (behaviour MFA-12). */
      readonly amr?: readonly string[];
      /** An admin user's key generation as their token's check read it (behaviour KEY-17). */
      readonly generation?: number;
    }
  | {
      readonly kind: 'self-service';
      readonly userId: string;
      /** The scopes of the caller's own token: the most its keys may carry. */
      readonly scopes: readonly string[];
      /** RFC 8176 methods of the sign-in behind the caller's token: kept with its keys (behaviour MFA-12). */
      readonly amr?: readonly string[];
      /** The user's key generation as the token's check read it (behaviour KEY-17). */
      readonly generation?: number;
    };

export const actorOf = (manager: KeyManager): ApiKeyCreator =>
  manager.kind === 'admin' ? manager.actor : { kind: 'user', userId: manager.userId };
