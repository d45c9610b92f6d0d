/**
 * The WebAuthn verifier (lambdas/adapters/webauthn.ts), for the two functions that verify a passkey
 * (POST /api/auth/passkey/verify and /api/users/passkey/verify) and no other: it bundles
 * @simplewebauthn/server (test/infra/request-path-bundles.test.ts).
 */
import { webAuthnVerifier } from '../adapters/webauthn';
import { getContainer } from './container';

export const getPasskeyVerifier = () => webAuthnVerifier(getContainer().log);
