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
import type { ExpectedCeremony, PasskeyVerifier } from '../core/account/ports';

type WebAuthn = typeof import('@simplewebauthn/server');
let webAuthn: Promise<WebAuthn> | undefined;
const loadWebAuthn = () => (webAuthn ??= import('@simplewebauthn/server'));

/** The browser's response as the library types it; the JSON form never carries extension results here. */
const responseOf = <T>(response: unknown) => ({ clientExtensionResults: {}, ...(response as object) }) as T;

/** What both ceremonies check besides the signature: challenge, origin, RP ID and user verification (behaviour PASSKEY-5). */
const expectations = (expected: ExpectedCeremony) => ({
  expectedChallenge: expected.challenge,
  expectedOrigin: expected.origin,
  expectedRPID: expected.rpId,
  requireUserVerification: true,
});

/** Runs one verification; any failure resolves undefined, its reason logged (origin, RP ID, flags, signature, counter), never shown. */
async function verified<T>(log: Logger, ceremony: 'registration' | 'assertion', run: (library: WebAuthn) => Promise<T | undefined>) {
  try {
    return await run(await loadWebAuthn());
  } catch (error) {
    log.info(`passkey ${ceremony} failed verification`, { reason: (error as Error).message });
    return undefined;
  }
}

export function webAuthnVerifier(log: Logger): Required<PasskeyVerifier> {
  return {
    registration: (response, expected) =>
      verified(log, 'registration', async ({ verifyRegistrationResponse }) => {
        const result = await verifyRegistrationResponse({
          response: responseOf<Parameters<WebAuthn['verifyRegistrationResponse']>[0]['response']>(response),
          ...expectations(expected),
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
      }),
    assertion: (response, expected, passkey) =>
      verified(log, 'assertion', async ({ verifyAuthenticationResponse }) => {
        const result = await verifyAuthenticationResponse({
          response: responseOf<Parameters<WebAuthn['verifyAuthenticationResponse']>[0]['response']>(response),
          ...expectations(expected),
          credential: {
            id: passkey.credentialId,
            publicKey: Buffer.from(passkey.publicKey, 'base64url'),
            counter: passkey.counter,
            ...(passkey.transports ? { transports: passkey.transports as never } : {}),
          },
        });
        return result.verified ? { counter: result.authenticationInfo.newCounter } : undefined;
      }),
  };
}
