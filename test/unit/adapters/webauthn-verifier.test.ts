/**
 * The WebAuthn adapter (lambdas/adapters/webauthn.ts): a response the library rejects is a plain
 * refusal (undefined), its reason logged and never shown (behaviour PASSKEY-5, PASSKEY-6). The
 * ceremonies that pass are covered end to end by test/handlers/passkeys.test.ts.
 */
import { webAuthnVerifier } from '../../../lambdas/adapters/webauthn';
import type { Passkey } from '../../../lambdas/core/account/ports';
import type { Logger } from '../../../lambdas/core/ports';

const expected = { challenge: 'Y2hhbGxlbmdl', origin: 'https://as.example', rpId: 'as.example' };
const passkey = { credentialId: 'Y3JlZA', publicKey: 'AAAA', counter: 0 } as Passkey;

function recordingLog() {
  const lines: [string, Record<string, unknown> | undefined][] = [];
  const log: Logger = { debug: () => undefined, info: (m, f) => void lines.push([m, f]), warn: () => undefined, error: () => undefined };
  return { log, lines };
}

test('a malformed assertion resolves undefined and logs why (PASSKEY-6: every refusal is the same answer)', async () => {
  const { log, lines } = recordingLog();
  const response = {
    id: 'Y3JlZA',
    rawId: 'Y3JlZA',
    type: 'public-key',
    response: { clientDataJSON: 'e30', authenticatorData: '', signature: '' },
  };
  await expect(webAuthnVerifier(log).assertion(response, expected, passkey)).resolves.toBeUndefined();
  expect(lines).toEqual([['passkey assertion failed verification', { reason: expect.any(String) }]]);
});

test('a malformed registration resolves undefined and logs why (PASSKEY-5)', async () => {
  const { log, lines } = recordingLog();
  const response = { id: 'Y3JlZA', rawId: 'Y3JlZA', type: 'public-key', response: { clientDataJSON: 'e30', attestationObject: '' } };
  await expect(webAuthnVerifier(log).registration(response, expected)).resolves.toBeUndefined();
  expect(lines).toEqual([['passkey registration failed verification', { reason: expect.any(String) }]]);
});
