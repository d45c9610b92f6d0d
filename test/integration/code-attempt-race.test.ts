/**
 * The attempt cap never takes a code away from a counted attempt still being checked
 * (behaviour MFA-4, VERIFY-4): the real stores on DynamoDB Local and the real
 * Argon2id hasher, whose verification is held until every attempt over the cap has answered,
 * so the race once seen (an attempt over the cap deleted the challenge while a
 * counted, correct attempt was still being verified: no session) runs the same way every time.
 */
import { DynamoChallengeStore, DynamoVerificationStore } from '../../lambdas/adapters/dynamodb/one-time-code-store';
import { DynamoSendRate } from '../../lambdas/adapters/dynamodb/rate-stores';
import { DynamoResetLinkStore } from '../../lambdas/adapters/dynamodb/reset-link-store';
import { cryptoRandom } from '../../lambdas/adapters/system';
import { confirmVerification, requestVerification } from '../../lambdas/core/account/email-verification';
import { completeChallenge, resendCode, startChallenge, type SecondFactorDependencies } from '../../lambdas/core/account/second-factor';
import type { User } from '../../lambdas/core/model';
import type { Hasher, MailMessage } from '../../lambdas/core/ports';
import { mailNotifier } from '../../lambdas/presentation/mail/render';
import { templates } from '../../lambdas/presentation/mail/templates';
import { getHasher, getUsers } from '../../lambdas/wiring/repositories';
import { getStorage } from '../../lambdas/wiring/storage';
import { createUserWithPassword } from '../support/fixtures';

const sent: MailMessage[] = [];
const notifier = mailNotifier(
  { send: async (message: MailMessage) => void sent.push(message) },
  async () => ({ title: 'Tollgate' }),
  templates,
);
const codeIn = (message: MailMessage | undefined) => /\b([0-9]{6})\b/.exec(message?.text ?? '')![1]!;
const other = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

/**
 * The real hasher, whose verifications wait until `release()`: the attempts over the cap
 * (which never reach a verification) answer first, as they did in the reproduced race.
 */
function heldHasher(): Hasher & { release: () => void; verifications: () => number } {
  const real = getHasher();
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let verifications = 0;
  return {
    hash: (s) => real.hash(s),
    verify: async (h, s) => {
      verifications++;
      await released;
      return real.verify(h, s);
    },
    verifyDummy: (s) => real.verifyDummy(s),
    release,
    verifications: () => verifications,
  };
}

function challengeDeps(
  hasher: Hasher,
  maxAttempts = 5,
): SecondFactorDependencies & { currentUser: (id: string) => Promise<User | undefined> } {
  const { db, tables } = getStorage();
  return {
    challenges: new DynamoChallengeStore(db, tables.ephemeral),
    sendRate: new DynamoSendRate(db, tables.ephemeral),
    hasher,
    notifier,
    clock: { now: () => Date.now() },
    random: cryptoRandom,
    maxAttempts,
    mfaPolicy: async () => 'admins',
    currentUser: (id) => new DynamoResetLinkStore(db, tables).currentUser(id),
  };
}

/** Runs `attempt` `count` times in parallel; verifications are released once `overCap` of them answered. */
async function inParallel<T>(
  count: number,
  overCap: number,
  hasher: ReturnType<typeof heldHasher>,
  attempt: () => Promise<T>,
): Promise<T[]> {
  let answered = 0;
  const runs = Array.from({ length: count }, () =>
    attempt().finally(() => {
      answered++;
      if (answered === overCap) hasher.release();
    }),
  );
  return Promise.all(runs);
}

async function newChallenge(hasher: Hasher, maxAttempts = 5) {
  const { user } = await createUserWithPassword({ admin: true });
  const d = challengeDeps(hasher, maxAttempts);
  const { challengeId } = await startChallenge(d, user, { kind: 'code', email: user.email!, verifiesEmail: false }, {});
  return { d, user, challengeId, code: codeIn(sent[sent.length - 1]) };
}

describe('the code-attempt cap never deletes a challenge under a counted attempt (behaviour MFA-4, MFA-6)', () => {
  it('10 parallel posts of the right sign-in code, cap 5: the 5 over the cap are refused first, then exactly one of the 5 counted starts the session', async () => {
    const hasher = heldHasher();
    const { d, challengeId, code } = await newChallenge(hasher);
    const results = await inParallel(10, 5, hasher, () => completeChallenge(d, challengeId, code, undefined));
    expect(hasher.verifications()).toBe(5);
    expect(results.filter((r) => r.kind === 'match')).toHaveLength(1);
    expect(results.filter((r) => r.kind === 'expired')).toHaveLength(9);
  });

  it('the last attempt counted is wrong and answers first, while a right one counted before it is still checked: the right one starts the session', async () => {
    const real = getHasher();
    let releaseRight!: () => void;
    const rightHeld = new Promise<void>((resolve) => (releaseRight = resolve));
    let rightCounted!: () => void;
    const rightReachedCheck = new Promise<void>((resolve) => (rightCounted = resolve));
    let code = '';
    const hasher: Hasher = {
      hash: (s) => real.hash(s),
      verify: async (h, s) => {
        if (s === code) {
          rightCounted();
          await rightHeld;
        }
        return real.verify(h, s);
      },
      verifyDummy: (s) => real.verifyDummy(s),
    };
    const started = await newChallenge(hasher, 2);
    code = started.code;
    const right = completeChallenge(started.d, started.challengeId, code, undefined);
    await rightReachedCheck;
    // Counted second, so it takes the last attempt; it is wrong and answers while the right one waits.
    expect((await completeChallenge(started.d, started.challengeId, other(code), undefined)).kind).toBe('expired');
    releaseRight();
    expect((await right).kind).toBe('match');
  });

  it('31 parallel wrong guesses, cap 5: exactly 5 are evaluated, and afterwards the right code and a resend are refused', async () => {
    const hasher = heldHasher();
    const { d, challengeId, code } = await newChallenge(hasher);
    const results = await inParallel(31, 26, hasher, () => completeChallenge(d, challengeId, other(code), undefined));
    expect(hasher.verifications()).toBe(5);
    expect(results.filter((r) => r.kind === 'wrong')).toHaveLength(4);
    expect(results.filter((r) => r.kind === 'expired')).toHaveLength(27);
    hasher.release();
    expect((await completeChallenge(d, challengeId, code, undefined)).kind).toBe('expired');
    expect(hasher.verifications()).toBe(5);
    // Out of attempts means out: a resend does not bring the challenge back (behaviour MFA-7).
    const mails = sent.length;
    expect(await resendCode(d, challengeId)).toBeUndefined();
    expect(sent).toHaveLength(mails);
  });
});

describe('the same for email verification codes (behaviour VERIFY-4)', () => {
  it('10 parallel posts of the right verification code, cap 5: the address is verified', async () => {
    const hasher = heldHasher();
    const { user } = await createUserWithPassword({ emailVerifiedAt: undefined });
    const { db, tables } = getStorage();
    const deps = {
      codes: new DynamoVerificationStore(db, tables),
      sendRate: new DynamoSendRate(db, tables.ephemeral),
      hasher,
      notifier,
      clock: { now: () => Date.now() },
      random: cryptoRandom,
      maxAttempts: 5,
    };
    await requestVerification(deps, user);
    const code = codeIn(sent[sent.length - 1]);
    const results = await inParallel(10, 5, hasher, () =>
      confirmVerification(deps, user, code).then(
        () => 'verified',
        () => 'refused',
      ),
    );
    expect(results.filter((r) => r === 'verified')).toHaveLength(1);
    expect((await getUsers().get(user.id))?.emailVerifiedAt).toEqual(expect.any(String));
  });
});
