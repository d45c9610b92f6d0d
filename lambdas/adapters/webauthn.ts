/**
 * The WebAuthn checks of lambdas/core/account/passkeys.ts (PasskeyVerifier) with
 * @simplewebauthn/server: origin, RP ID hash, the user-verified flag and the challenge (behaviour
 * PASSKEY-5); attestation statements are not asked for (attestation `none`). Only the two verify
 * functions bundle it (lambdas/wiring/webauthn.ts).
 *
 * The library is loaded on the first verification, not at import (esbuild turns the import() into
 * a lazy init, as for Argon2 in wiring/repositories.ts): its 290 KiB would otherwise add about
 * 20-30 ms to the function's module import, over the 50 ms budget. A container pays it once.
 */
import type { Logger } from '../core/ports';
import type { ExpectedCeremony, Passkey, PasskeyVerifier } from '../core/account/ports';

type WebAuthn = typeof import('@simplewebauthn/server');
let webAuthn: Promise<WebAuthn> | undefined;
const loadWebAuthn = () => (webAuthn ??= import('@simplewebauthn/server'));

/** The browser's response as the library types it; the JSON form never carries extension results here. */
const responseOf = <T>(response: unknown) => ({ clientExtensionResults: {}, ...(response as object) }) as T;

/** Every failed check resolves undefined; the library's reasons (origin, RP ID, flags, signature, counter) are logged, never shown. */
export function webAuthnVerifier(log: Logger): Required<PasskeyVerifier> {
  return {
    async registration(response: unknown, expected: ExpectedCeremony) {
      try {
        const { verifyRegistrationResponse } = await loadWebAuthn();
        const result = await verifyRegistrationResponse({
          response: responseOf<Parameters<WebAuthn['verifyRegistrationResponse']>[0]['response']>(response),
          expectedChallenge: expected.challenge,
          expectedOrigin: expected.origin,
          expectedRPID: expected.rpId,
          requireUserVerification: true,
        });
        if (!result.verified) return undefined;
        const { credential, credentialBackedUp } = result.registrationInfo;
        return {
          credentialId: credential.id,
          publicKey: Buffer.from(credential.publicKey).toString('base64url'),
          counter: credential.counter,
          ...(credential.transports ? { transports: credential.transports } : {}),
          backedUp: credentialBackedUp,
        };
      } catch (error) {
        log.info('passkey registration failed verification', { reason: (error as Error).message });
        return undefined;
      }
    },
    async assertion(response: unknown, expected: ExpectedCeremony, passkey: Passkey) {
      try {
        const { verifyAuthenticationResponse } = await loadWebAuthn();
        const result = await verifyAuthenticationResponse({
          response: responseOf<Parameters<WebAuthn['verifyAuthenticationResponse']>[0]['response']>(response),
          expectedChallenge: expected.challenge,
          expectedOrigin: expected.origin,
          expectedRPID: expected.rpId,
          credential: {
            id: passkey.credentialId,
            publicKey: Buffer.from(passkey.publicKey, 'base64url'),
            counter: passkey.counter,
            ...(passkey.transports ? { transports: passkey.transports as never } : {}),
          },
          requireUserVerification: true,
        });
        return result.verified ? { counter: result.authenticationInfo.newCounter } : undefined;
      } catch (error) {
        log.info('passkey assertion failed verification', { reason: (error as Error).message });
        return undefined;
      }
    },
  };
}
