/**
 * The time rules of the account flows, with an injected clock against the real DynamoDB
 * stores (behaviour MFA-3, MFA-4, MFA-7, MFA-8,
 * PWFAIL-1, PWFAIL-3..PWFAIL-5, RESET-3): a code lives exactly 10 minutes, a resend waits a minute and
 * replaces the code, the attempt cap follows MFA_OTP_MAX_ATTEMPTS and counts evaluations
 * exactly under parallel guesses, the failed-password window ends (and the owner is told once
 * per window), a device's failures outlast windows, a reset link lives 30 minutes.
 */
import { getApiKeyStore } from '../../lambdas/wiring/api-keys';
import { DynamoChallengeStore } from '../../lambdas/adapters/dynamodb/one-time-code-store';
import { DynamoDeviceStanding, DynamoPasswordAttempts, DynamoSendRate } from '../../lambdas/adapters/dynamodb/rate-stores';
import { DynamoResetLinkStore } from '../../lambdas/adapters/dynamodb/reset-link-store';
import { signInWithPassword, failuresPerWindow } from '../../lambdas/core/account/password-attempts';
import { deviceFailuresAllowed } from '../../lambdas/core/account/device-cookies';
import { findResetLink, sendResetLink } from '../../lambdas/core/account/password-reset';
import { completeChallenge, resendCode, startChallenge, type SecondFactorDependencies } from '../../lambdas/core/account/second-factor';
import { TooManyRequestsError } from '../../lambdas/core/errors';
import type { User } from '../../lambdas/core/model';
import type { Hasher, MailMessage } from '../../lambdas/core/ports';
import { mailNotifier } from '../../lambdas/presentation/mail/render';
import { templates } from '../../lambdas/presentation/mail/templates';
import { cryptoRandom } from '../../lambdas/adapters/system';
import { getContainer } from '../../lambdas/wiring/container';
import { getHasher, getSessions, getTokenStore, getUsers } from '../../lambdas/wiring/repositories';
import { getPasskeyStore } from '../../lambdas/wiring/passkeys';
import { getStorage } from '../../lambdas/wiring/storage';
import { createUserWithPassword } from '../support/fixtures';

const start = Date.UTC(2031, 0, 1, 12, 0, 0);
let now = start;
const clock = { now: () => now };
const sent: MailMessage[] = [];
const notifier = mailNotifier(
  { send: async (message: MailMessage) => void sent.push(message) },
  async () => ({ title: 'Tollgate' }),
  templates,
);
let evaluations = 0;
/** The real hasher, counting verifications: what "evaluated" means for the attempt cap. */
const countingHasher = (): Hasher => {
  const real = getHasher();
  return {
    hash: (s) => real.hash(s),
    verify: async (h, s) => {
      evaluations++;
      return real.verify(h, s);
    },
    verifyDummy: (s) => real.verifyDummy(s),
  };
};

function deps(maxAttempts = 5): SecondFactorDependencies & { currentUser: (id: string) => Promise<User | undefined> } {
  const { db, tables } = getStorage();
  return {
    challenges: new DynamoChallengeStore(db, tables.ephemeral),
    sendRate: new DynamoSendRate(db, tables.ephemeral),
    hasher: countingHasher(),
    notifier,
    clock,
    random: cryptoRandom,
    maxAttempts,
    mfaPolicy: async () => 'admins',
    currentUser: (id) => new DynamoResetLinkStore(db, tables).currentUser(id),
  };
}

const codeIn = (message: MailMessage | undefined) => /\b([0-9]{6})\b/.exec(message?.text ?? '')![1]!;
const other = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

async function challenge(maxAttempts = 5) {
  now = start;
  const { user } = await createUserWithPassword({ admin: true });
  const d = deps(maxAttempts);
  const { challengeId } = await startChallenge(d, user, { kind: 'code', email: user.email!, verifiesEmail: false }, {});
  return { d, user, challengeId, code: codeIn(sent[sent.length - 1]) };
}

describe('code lifetime: 10 minutes (behaviour MFA-3)', () => {
  it('accepted at 599 s', async () => {
    const { d, challengeId, code } = await challenge();
    now = start + 599_000;
    expect((await completeChallenge(d, challengeId, code, undefined)).kind).toBe('match');
  });

  it('refused at 600 s, without evaluating the code', async () => {
    const { d, challengeId, code } = await challenge();
    now = start + 600_000;
    evaluations = 0;
    expect(await completeChallenge(d, challengeId, code, undefined)).toMatchObject({ kind: 'expired' });
    expect(evaluations).toBe(0);
  });
});

describe('attempt cap (behaviour MFA-4, CONFIG-11)', () => {
  it('20 parallel wrong guesses: exactly 5 verifications run', async () => {
    const { d, challengeId, code } = await challenge();
    evaluations = 0;
    const results = await Promise.all(Array.from({ length: 20 }, () => completeChallenge(d, challengeId, other(code), undefined)));
    expect(evaluations).toBe(5);
    expect(results.filter((r) => r.kind === 'wrong')).toHaveLength(4);
    expect((await completeChallenge(d, challengeId, code, undefined)).kind).toBe('expired');
  });

  it('MFA_OTP_MAX_ATTEMPTS=3: 2 wrong then right works; 3 wrong then right is refused', async () => {
    const first = await challenge(3);
    for (let i = 0; i < 2; i++) await completeChallenge(first.d, first.challengeId, other(first.code), undefined);
    expect((await completeChallenge(first.d, first.challengeId, first.code, undefined)).kind).toBe('match');
    const second = await challenge(3);
    for (let i = 0; i < 3; i++) await completeChallenge(second.d, second.challengeId, other(second.code), undefined);
    expect((await completeChallenge(second.d, second.challengeId, second.code, undefined)).kind).toBe('expired');
  });
});

describe('resend (behaviour MFA-7, MFA-8)', () => {
  it('refused within 60 s; at 61 s a new code replaces the old one and gets 10 fresh minutes and fresh attempts', async () => {
    const { d, challengeId, code } = await challenge();
    await completeChallenge(d, challengeId, other(code), undefined);
    now = start + 30_000;
    await expect(resendCode(d, challengeId)).rejects.toBeInstanceOf(TooManyRequestsError);
    now = start + 61_000;
    expect(await resendCode(d, challengeId)).toBeDefined();
    const fresh = codeIn(sent[sent.length - 1]);
    if (fresh !== code) expect((await completeChallenge(d, challengeId, code, undefined)).kind).toBe('wrong');
    now = start + 61_000 + 599_000;
    expect((await completeChallenge(d, challengeId, fresh, undefined)).kind).toBe('match');
  });

  it('at most 10 codes an hour per user, whatever the challenge', async () => {
    now = start;
    const { user } = await createUserWithPassword({ admin: true });
    const d = deps();
    for (let i = 0; i < 10; i++) {
      now = start + i * 61_000;
      await startChallenge(d, user, { kind: 'code', email: user.email!, verifiesEmail: false }, {});
    }
    now = start + 10 * 61_000;
    await expect(startChallenge(d, user, { kind: 'code', email: user.email!, verifiesEmail: false }, {})).rejects.toBeInstanceOf(
      TooManyRequestsError,
    );
    now = start + 3601_000;
    await expect(startChallenge(d, user, { kind: 'code', email: user.email!, verifiesEmail: false }, {})).resolves.toBeDefined();
  });
});

describe('failed passwords: a per-account ceiling per 15-minute window, never a lockout (behaviour PWFAIL-1)', () => {
  /** Every call of `ceilingReached`: the owner's notice (behaviour PWFAIL-5). */
  const notices: { email: string; untilEpoch: number }[] = [];
  const signInDeps = () => {
    const { db, tables } = getStorage();
    const users = getUsers();
    const hasher = getHasher();
    return {
      findUserByEmail: (e: string) => users.findByEmail(e),
      hasher,
      attempts: new DynamoPasswordAttempts(db, tables.ephemeral),
      devices: new DynamoDeviceStanding(db, tables.ephemeral),
      clock,
      random: cryptoRandom,
      ceilingReached: async (email: string, untilEpoch: number) => void notices.push({ email, untilEpoch }),
    };
  };

  it(`${failuresPerWindow} failures fill the window (even the right password waits); the next window signs in`, async () => {
    now = Date.UTC(2031, 0, 2, 12, 0, 0); // a window start
    const { user, password } = await createUserWithPassword();
    for (let i = 0; i < failuresPerWindow; i++)
      expect(await signInWithPassword(signInDeps(), user.email!, 'wrong password')).toBeUndefined();
    await expect(signInWithPassword(signInDeps(), user.email!, password)).rejects.toBeInstanceOf(TooManyRequestsError);
    now += 900_000;
    expect((await signInWithPassword(signInDeps(), user.email!, password))?.id).toBe(user.id);
  });

  it('successes do not count', async () => {
    now = Date.UTC(2031, 0, 3, 12, 0, 0);
    const { user, password } = await createUserWithPassword();
    for (let i = 0; i < failuresPerWindow + 5; i++)
      expect((await signInWithPassword(signInDeps(), user.email!, password))?.id).toBe(user.id);
  });

  it('the owner is told once per window: at the failure that fills it, not again for the refusals after it; again in a later window that fills (behaviour PWFAIL-5)', async () => {
    now = Date.UTC(2031, 0, 4, 12, 0, 0); // a window start
    const { user } = await createUserWithPassword();
    const mine = () => notices.filter((n) => n.email === user.email);
    for (let i = 0; i < failuresPerWindow - 1; i++) await signInWithPassword(signInDeps(), user.email!, 'wrong password');
    expect(mine()).toEqual([]);
    await signInWithPassword(signInDeps(), user.email!, 'wrong password');
    expect(mine()).toEqual([{ email: user.email, untilEpoch: now / 1000 + 900 }]);
    for (let i = 0; i < 3; i++)
      await expect(signInWithPassword(signInDeps(), user.email!, 'x')).rejects.toBeInstanceOf(TooManyRequestsError);
    expect(mine()).toHaveLength(1);
    now += 900_000;
    for (let i = 0; i < failuresPerWindow; i++) await signInWithPassword(signInDeps(), user.email!, 'wrong password');
    expect(mine()).toEqual([
      { email: user.email, untilEpoch: now / 1000 },
      { email: user.email, untilEpoch: now / 1000 + 900 },
    ]);
  });

  it("a device's failures do not start over with a new window: the fifth, whenever it comes, ends its standing (behaviour PWFAIL-4)", async () => {
    now = Date.UTC(2031, 0, 5, 12, 0, 0);
    const { user } = await createUserWithPassword();
    const devices = signInDeps().devices;
    const device = {
      userId: user.id,
      nonce: Buffer.from(cryptoRandom.bytes(32)).toString('base64url'),
      expiresAtEpoch: now / 1000 + 86_400,
    };
    await devices.create(device.nonce, user.id, device.expiresAtEpoch, new Date(now).toISOString());
    for (let i = 0; i < deviceFailuresAllowed - 1; i++) {
      expect(await signInWithPassword(signInDeps(), user.email!, 'wrong password', device)).toBeUndefined();
      now += 900_000; // each in a window of its own
    }
    expect(await signInWithPassword(signInDeps(), user.email!, 'wrong password', device)).toBeUndefined();
    expect(await devices.take(device.nonce, user.id, 'probe', deviceFailuresAllowed, now / 1000)).toBe('at-ceiling');
    // None of them reached the strangers' window of the address.
    for (let i = 0; i < failuresPerWindow; i++)
      expect(await signInWithPassword(signInDeps(), user.email!, 'wrong password')).toBeUndefined();
  });

  it('a device record past its expiry gives no standing, though TTL has not removed it yet (behaviour PWFAIL-3)', async () => {
    now = Date.UTC(2031, 0, 6, 12, 0, 0);
    const { user } = await createUserWithPassword();
    const devices = signInDeps().devices;
    await devices.create('n'.repeat(43), user.id, now / 1000 + 60, new Date(now).toISOString());
    expect(await devices.take('n'.repeat(43), user.id, 'first', deviceFailuresAllowed, now / 1000)).toBe('taken');
    expect(await devices.take('n'.repeat(43), 'usr_someone_else', 'second', deviceFailuresAllowed, now / 1000)).toBe('no-standing');
    expect(await devices.take('n'.repeat(43), user.id, 'third', deviceFailuresAllowed, now / 1000 + 60)).toBe('no-standing');
  });
});

describe('reset link lifetime (behaviour RESET-3)', () => {
  it('found at 1799 s, dead at 1800 s (30 minutes, under the hour ASVS allows)', async () => {
    now = start;
    const { user } = await createUserWithPassword();
    const { db, tables } = getStorage();
    const base = {
      sessions: getSessions(),
      tokens: getTokenStore(),
      notifier,
      clock,
      log: getContainer().log,
      passkeys: getPasskeyStore(),
      apiKeys: getApiKeyStore(),
    };
    const resetDeps = {
      ...base,
      links: new DynamoResetLinkStore(db, tables),
      hasher: getHasher(),
      random: cryptoRandom,
      baseUrl: 'https://auth.example.test',
      resetPagePath: '/reset-password',
    };
    await sendResetLink(resetDeps, user);
    const token = /token=([A-Za-z0-9_-]{43})/.exec(sent[sent.length - 1]!.text)![1]!;
    now = start + 1_799_000;
    expect(await findResetLink(resetDeps, token)).toBeDefined();
    now = start + 1_800_000;
    expect(await findResetLink(resetDeps, token)).toBeUndefined();
  });
});
