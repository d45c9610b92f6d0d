/**
 * A door bundles the dependencies of the answers it can give, not its neighbours': the sign-in doors
 * that send a code (behaviour MFA-2) never check one, so they hold neither the reset links nor
 * address verification (lambdas/wiring/account.ts); adding a passkey sends only its own mail
 * (PASSKEY-12, lambdas/wiring/passkeys.ts); the consent decision (AUTHZ-9) only redirects, so it
 * holds no consent page (lambdas/presentation/authorize-flow.ts). Each pair names the door that
 * does need the module, so the check sees real bundles. Bundled with the stack's own esbuild
 * settings (lib/bundling.ts).
 */
import { bundleHandler } from '../support/handler-bundles';

/** The modules of lambdas/ with code in the handler's bundle. */
async function emittedModules(handler: string): Promise<Set<string>> {
  const { bytesOf } = await bundleHandler(handler);
  return new Set(
    Object.entries(bytesOf)
      .filter(([path, bytes]) => path.includes('lambdas/') && bytes > 0)
      .map(([path]) => path.replace(/.*lambdas\//, '')),
  );
}

test.each([
  ['adapters/dynamodb/reset-link-store.ts', ['sign-in', 'sign-in-step-up', 'authorize-sign-in'], 'sign-in-code'],
  ['presentation/mail/templates/passkey-removed.ts', ['passkey-register'], 'passkey-remove'],
  ['presentation/views/consent.ts', ['authorize-complete'], 'authorize'],
])(
  '%s is left out of %j and bundled by %s, which uses it',
  async (module, without, withIt) => {
    for (const handler of without) expect([handler, (await emittedModules(handler)).has(module)]).toEqual([handler, false]);
    expect([withIt, (await emittedModules(withIt)).has(module)]).toEqual([withIt, true]);
  },
  120_000,
);
