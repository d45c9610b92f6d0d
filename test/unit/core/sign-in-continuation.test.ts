/**
 * The sign-in continuation (lambdas/core/sign-in/continuation.ts) and the authorization decisions
 * it and the consent post lead to (core/authorization-decision.ts, core/authorization-consent.ts),
 * with in-memory ports: which answer each factor and destination gets, and what was started on the
 * way (session, device cookie, challenge, code). The doors' responses are covered by
 * test/handlers/sign-in*.test.ts and test/handlers/authorize*.test.ts.
 */
import { passkeyAmr } from '../../../lambdas/core/account/passkeys';
import { passwordAndCodeAmr, type SecondFactorDependencies } from '../../../lambdas/core/account/second-factor';
import type { SignedInUser } from '../../../lambdas/core/authorization-code';
import { decideConsent } from '../../../lambdas/core/authorization-consent';
import { startAuthorization } from '../../../lambdas/core/authorization-start';
import { decideAuthorization, type AuthorizationDependencies } from '../../../lambdas/core/authorization-decision';
import type { PendingAuthorization } from '../../../lambdas/core/authorization-request';
import { AccessDeniedError } from '../../../lambdas/core/errors';
import type { Client, User } from '../../../lambdas/core/model';
import { sessionToStepUp, type Destination, type SignInBrowser } from '../../../lambdas/core/sign-in/continuation';
import { continueSignIn, pageSignInSteps } from '../../../lambdas/core/sign-in/page';
import { continuePasskeyOrCodeSignIn, passkeyOrCodeSteps } from '../../../lambdas/core/sign-in/passkey-or-code';
import { continueAuthorizingSignIn, signInSteps, type AuthorizingSignInDependencies } from '../../../lambdas/core/sign-in/resume';
import type { SignInChallenge } from '../../../lambdas/core/account/ports';
import type { CodeAskingDependencies } from '../../../lambdas/core/sign-in/needs-code';

const now = Date.UTC(2026, 0, 1);
const clock = { now: () => now };
const random = { bytes: (n: number) => new Uint8Array(n).fill(7) };
const user: User = { id: 'usr_1', email: 'ann@example.com', name: 'Ann', admin: false, test: false, createdAt: '2026-01-01T00:00:00Z' };
const client = { clientId: 'cli_1', name: 'App', registrationType: 'static', environmentId: 'env_1' } as Client;
const request = {
  clientId: 'cli_1',
  redirectUri: 'https://app.example/cb',
  scopes: ['openid'],
  state: 's1',
  codeChallenge: 'x'.repeat(43),
  expiresAtEpoch: now / 1000 + 600,
} as unknown as PendingAuthorization;

function harness(options: { policy?: 'off' | 'everyone'; hasAccess?: boolean; challenge?: Partial<SignInChallenge> } = {}) {
  const log: [string, Record<string, unknown> | undefined][] = [];
  const counted: [string, unknown][] = [];
  const saved: Record<string, SignInChallenge> = {};
  const codes: string[] = [];
  const usersRead: string[] = [];
  const stored: string[] = [];
  const consumed: string[] = [];
  const secondFactor = {
    challenges: {
      save: async (id: string, challenge: SignInChallenge) => void (saved[id] = challenge),
      get: async () => ({ email: 'ann@example.com', ...options.challenge }) as SignInChallenge,
    },
    sendRate: { take: async () => ({ allowed: true }) },
    hasher: { hash: async () => 'hash' },
    notifier: { notify: async () => undefined },
    clock,
    random,
    maxAttempts: 5,
    mfaPolicy: async () => options.policy ?? 'off',
  } as unknown as SecondFactorDependencies;
  const authorization: AuthorizationDependencies = {
    sessions: {
      getAuthorizationRequest: async () => undefined,
      saveAuthorizationRequest: async (id: string) => void stored.push(id),
      consumeAuthorizationRequest: async <T>(id: string) => {
        consumed.push(id);
        return request as T;
      },
    },
    codes: { saveCode: async (code) => void codes.push(code) },
    environments: { hasAccess: async () => options.hasAccess ?? true },
    scopes: async () => [],
    clock,
    random,
    issuer: 'https://as.example',
    dcrEnvironmentId: undefined,
  };
  const deps: AuthorizingSignInDependencies & CodeAskingDependencies = {
    secondFactor,
    requireVerifiedEmail: false,
    resume: { authorization, findClient: async () => client },
    findUser: async (id) => {
      usersRead.push(id);
      return id === user.id ? user : undefined;
    },
    log: { debug: () => undefined, info: (m, f) => void log.push([m, f]), warn: () => undefined, error: () => undefined },
    metrics: { count: (metric, dimensions) => void counted.push([metric, dimensions]) },
  };
  const sessions: { userId: string; amr: readonly string[] }[] = [];
  const devices: string[] = [];
  const browser: SignInBrowser = {
    async startSession(who, amr) {
      sessions.push({ userId: who.id, amr });
      return { userId: who.id, authTime: now / 1000, amr };
    },
    async renewDevice(userId) {
      devices.push(userId);
    },
  };
  return { deps, browser, log, counted, saved, codes, consumed, sessions, devices, usersRead, stored };
}

const page = (returnTo?: string): Destination => ({ kind: 'page', returnTo });
const authorizationOf = (withClient = true): Destination => ({
  kind: 'authorization',
  requestId: 'req_1',
  request,
  ...(withClient ? { client } : {}),
});

describe('the sign-in continuation (named steps; the first answer stands)', () => {
  test('the steps run in the documented order', () => {
    expect(signInSteps.map((step) => step.name)).toEqual([
      'refused',
      'needsCode',
      'startSession',
      'resumeAuthorization',
      'returnTo',
      'signedIn',
    ]);
  });

  test("the sign-in page's own door runs the same steps but the resume of an authorization", async () => {
    expect(pageSignInSteps.map((step) => step.name)).toEqual(['refused', 'needsCode', 'startSession', 'returnTo', 'signedIn']);
    const h = harness();
    const answer = await continueSignIn(h.deps, h.browser, { kind: 'password', user }, { kind: 'page', returnTo: '/dashboard' });
    expect(answer).toEqual({ kind: 'return-to', path: '/dashboard' });
    expect(h.sessions).toEqual([{ userId: user.id, amr: ['pwd'] }]);
    expect(h.devices).toEqual([user.id]);
  });

  test("the passkey's and the code's doors never ask for a code: they run no needsCode step (PASSKEY-3, MFA-4)", () => {
    expect(passkeyOrCodeSteps.map((step) => step.name)).toEqual([
      'passkeyRefused',
      'codeRefused',
      'startSession',
      'resumeAuthorization',
      'returnTo',
      'signedIn',
    ]);
  });

  test('a wrong password is refused: logged and counted, and no session, device cookie or code (SIGNIN-2)', async () => {
    const h = harness({ policy: 'everyone' });
    const answer = await continueAuthorizingSignIn(h.deps, h.browser, { kind: 'password', user: undefined }, authorizationOf());
    expect(answer).toEqual({ kind: 'refused', factor: 'password', destination: authorizationOf() });
    expect(h.log).toEqual([['sign-in refused', { reason: 'unknown email or wrong password', clientId: 'cli_1' }]]);
    expect(h.counted).toEqual([['SignInFailed', { method: 'password' }]]);
    expect([h.sessions, h.devices, Object.keys(h.saved)]).toEqual([[], [], []]);
  });

  test('a password the MFA policy asks more of needs a code: a challenge bound to return_to, no session yet (MFA-1, MFA-2)', async () => {
    const h = harness({ policy: 'everyone' });
    const answer = await continueAuthorizingSignIn(h.deps, h.browser, { kind: 'password', user }, page('/dashboard'));
    expect(answer).toMatchObject({
      kind: 'needs-code',
      maskedEmail: expect.stringContaining('@example.com'),
      destination: page('/dashboard'),
    });
    const challengeId = (answer as { challengeId: string }).challengeId;
    expect(h.saved[challengeId]).toMatchObject({ userId: user.id, returnTo: '/dashboard' });
    expect([h.sessions, h.devices]).toEqual([[], []]);
  });

  test('a password alone, when it is enough: session with amr pwd, device cookie, then return_to (SIGNIN-6)', async () => {
    const h = harness();
    const answer = await continueAuthorizingSignIn(h.deps, h.browser, { kind: 'password', user }, page('/dashboard'));
    expect(answer).toEqual({ kind: 'return-to', path: '/dashboard' });
    expect(h.sessions).toEqual([{ userId: user.id, amr: ['pwd'] }]);
    expect(h.devices).toEqual([user.id]);
  });

  test('a passkey without return_to shows who signed in, as the factor read them (no second read of the user)', async () => {
    const h = harness();
    const answer = await continuePasskeyOrCodeSignIn(h.deps, h.browser, { kind: 'passkey', outcome: { kind: 'signed-in', user } }, page());
    expect(answer).toEqual({ kind: 'signed-in', userId: user.id, user });
    expect(h.usersRead).toEqual([]);
  });

  test('a passkey within an authorization resumes it: the request is consumed and a code issued (PASSKEY-3)', async () => {
    const h = harness({ policy: 'everyone' });
    const answer = await continuePasskeyOrCodeSignIn(
      h.deps,
      h.browser,
      { kind: 'passkey', outcome: { kind: 'signed-in', user } },
      authorizationOf(false),
    );
    expect(answer).toMatchObject({ kind: 'resume-authorization', decision: { kind: 'issued' } });
    const { location } = (answer as { decision: { location: string } }).decision;
    expect(new URL(location).searchParams.get('state')).toBe('s1');
    expect(h.consumed).toEqual(['req_1']);
    expect(h.codes).toHaveLength(1);
    expect(h.sessions).toEqual([{ userId: user.id, amr: passkeyAmr }]);
  });

  test('the right code returns to the page its challenge remembers, and reads the user for the signed-in page otherwise (MFA-6)', async () => {
    const item = { userId: user.id, credentialVersion: 3, returnTo: '/account' } as SignInChallenge;
    const h = harness();
    const toPage = await continuePasskeyOrCodeSignIn(
      h.deps,
      h.browser,
      { kind: 'code', challengeId: 'c', check: { kind: 'match', item } },
      page(),
    );
    expect(toPage).toEqual({ kind: 'return-to', path: '/account' });
    expect(h.sessions).toEqual([{ userId: user.id, amr: passwordAndCodeAmr }]);
    const plain = { ...item, returnTo: undefined };
    const signedIn = await continuePasskeyOrCodeSignIn(
      h.deps,
      h.browser,
      { kind: 'code', challengeId: 'c', check: { kind: 'match', item: plain } },
      page(),
    );
    expect(signedIn).toEqual({ kind: 'signed-in', userId: user.id, user });
    expect(h.usersRead).toEqual([user.id]);
  });

  test('a wrong code is refused with the tries left and the masked address of its challenge (MFA-4)', async () => {
    const h = harness();
    const answer = await continuePasskeyOrCodeSignIn(
      h.deps,
      h.browser,
      { kind: 'code', challengeId: 'c', check: { kind: 'wrong', triesLeft: 2 } },
      page(),
    );
    expect(answer).toMatchObject({ kind: 'refused', factor: 'code', challengeId: 'c', wrong: { triesLeft: 2 } });
    await expect((answer as { wrong: { maskedEmail: () => Promise<string> } }).wrong.maskedEmail()).resolves.toMatch(/@example\.com$/);
    expect(h.counted).toEqual([['SignInCodeFailed', { reason: 'wrong' }]]);
    expect(h.sessions).toEqual([]);
  });

  test('a step-up with nothing missing any more keeps its session: no new session, no device cookie (MFA-10)', async () => {
    const h = harness();
    const signedIn: SignedInUser = { userId: user.id, authTime: 1, amr: ['pwd'] };
    const answer = await continueAuthorizingSignIn(h.deps, h.browser, { kind: 'session', user, signedIn }, page());
    expect(answer).toEqual({ kind: 'signed-in', userId: user.id, user });
    expect([h.sessions, h.devices]).toEqual([[], []]);
  });

  test("a step-up needs a live session of the request's own user (MFA-10, AUTHZ-9)", () => {
    const live = { user, signedIn: { userId: user.id, authTime: 1 } };
    expect(sessionToStepUp(undefined, page('/x'))).toBeUndefined();
    expect(() => sessionToStepUp(undefined, authorizationOf())).toThrow(AccessDeniedError);
    const other: Destination = { kind: 'authorization', requestId: 'r', request: { ...request, userId: 'usr_2' } };
    expect(() => sessionToStepUp(live, other)).toThrow('This request was started by another sign-in.');
    expect(sessionToStepUp(live, authorizationOf())).toBe(live);
  });
});

describe('the authorization decision (core/authorization-decision.ts)', () => {
  test('without the environment grant a static client gets the error at its redirect URI, the request consumed (ENV-1)', async () => {
    const h = harness({ hasAccess: false });
    const decision = await decideAuthorization(h.deps.resume!.authorization, {
      client,
      request,
      requestId: 'req_1',
      user: { userId: user.id, authTime: 1 },
    });
    expect(decision).toMatchObject({ kind: 'refused', clientId: 'cli_1' });
    expect(new URL((decision as { location: string }).location).searchParams.get('error')).toBe('access_denied');
    expect(h.consumed).toEqual(['req_1']);
  });

  test('a dynamic client is asked for consent, never redirected to before (RFC 9700 4.11.2)', async () => {
    const h = harness();
    const dynamic = { ...client, registrationType: 'dynamic' } as Client;
    const decision = await decideAuthorization(h.deps.resume!.authorization, {
      client: dynamic,
      request,
      user: { userId: user.id, authTime: 1 },
    });
    expect(decision).toMatchObject({ kind: 'consent', scopes: [{ name: 'openid' }] });
    expect(h.codes).toEqual([]);
  });
});

describe('the consent decision (core/authorization-consent.ts, behaviour AUTHZ-9, AUTHZ-12)', () => {
  const signedIn: SignedInUser = { userId: user.id, authTime: 1, amr: ['pwd'] };
  function consent(shownTo: string | undefined, policy: 'off' | 'everyone' = 'off') {
    const h = harness();
    const named: string[] = [];
    const stored = { ...request, ...(shownTo ? { userId: shownTo } : {}) };
    const sessions = {
      ...h.deps.resume!.authorization.sessions,
      getAuthorizationRequest: async <T>() => stored as T,
      consumeAuthorizationRequest: async <T>(id: string) => {
        h.consumed.push(id);
        return stored as T;
      },
    };
    const deps = {
      authorization: { ...h.deps.resume!.authorization, sessions },
      findClient: async () => client,
      mfaPolicy: async () => policy,
    };
    const live = { user, signedIn };
    const decide = (approve: boolean, session: typeof live | undefined) =>
      decideConsent(deps, { requestId: 'req_1', approve, session, nameClient: (id) => void named.push(id) });
    return { h, named, live, decide };
  }

  test('without a live session nothing is claimed', async () => {
    const { h, decide } = consent(user.id);
    await expect(decide(true, undefined)).rejects.toThrow(AccessDeniedError);
    expect(h.consumed).toEqual([]);
  });

  test("another user's consent page is refused with no redirect, the request used up", async () => {
    const { h, live, decide } = consent('usr_2');
    await expect(decide(true, live)).rejects.toThrow('This request was started by another sign-in.');
    expect(h.consumed).toEqual(['req_1']);
  });

  test('an approval that lacks the second factor now asked for is the step-up page; the request stays', async () => {
    const { h, live, decide } = consent(user.id, 'everyone');
    await expect(decide(true, live)).resolves.toEqual({ kind: 'step-up', redirectUri: request.redirectUri });
    expect(h.consumed).toEqual([]);
  });

  test('a denial needs no second factor and redirects access_denied; an approval issues the code and names the client', async () => {
    const denied = consent(user.id, 'everyone');
    const refused = await denied.decide(false, denied.live);
    expect(new URL((refused as { location: string }).location).searchParams.get('error')).toBe('access_denied');
    expect(denied.named).toEqual([]);
    const approved = consent(user.id);
    await expect(approved.decide(true, approved.live)).resolves.toMatchObject({ kind: 'issued' });
    expect(approved.named).toEqual(['cli_1']);
    expect(approved.h.codes).toHaveLength(1);
  });
});

describe('starting an authorization (core/authorization-start.ts, behaviour AUTHZ-7, AUTHZ-10, AUTHZ-12)', () => {
  const start = (policy: 'off' | 'everyone', prompt: Record<string, unknown> | undefined, session = true) => {
    const h = harness();
    const deps = { authorization: h.deps.resume!.authorization, mfaPolicy: async () => policy };
    const live = { user, signedIn: { userId: user.id, authTime: now / 1000, amr: ['pwd'] } };
    const asked = { ...request, ...(prompt ? { prompt } : {}) } as unknown as PendingAuthorization;
    return { h, answer: startAuthorization(deps, client, asked, session ? live : undefined) };
  };

  test('a live session the policy is content with decides at once: the code, nothing stored', async () => {
    const { h, answer } = start('off', undefined);
    await expect(answer).resolves.toMatchObject({ kind: 'decided', decision: { kind: 'issued' } });
    expect([h.stored, h.codes.length]).toEqual([[], 1]);
  });

  test('a session without the factor now asked for stores the request for the step-up page', async () => {
    const { h, answer } = start('everyone', undefined);
    const started = await answer;
    expect(started).toMatchObject({ kind: 'step-up', user });
    expect(h.stored).toEqual([(started as { requestId: string }).requestId]);
  });

  test('prompt=none with no usable session redirects login_required and stores nothing (OIDC Core 3.1.2.6)', async () => {
    const { h, answer } = start('everyone', { none: true });
    const { decision } = (await answer) as { decision: { kind: string; location: string } };
    expect(decision.kind).toBe('refused');
    expect(new URL(decision.location).searchParams.get('error')).toBe('login_required');
    expect(h.stored).toEqual([]);
  });

  test('prompt=login, or no session, is the sign-in page with the request stored', async () => {
    for (const [prompt, session] of [
      [{ login: true }, true],
      [undefined, false],
    ] as const) {
      const { h, answer } = start('off', prompt, session);
      await expect(answer).resolves.toMatchObject({ kind: 'sign-in' });
      expect(h.stored).toHaveLength(1);
    }
  });
});
