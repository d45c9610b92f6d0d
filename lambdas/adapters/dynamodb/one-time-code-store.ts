/**
 * Mailed one-time codes in the ephemeral table (docs/storage-schema.md): sign-in challenges
 * (`MFA#<sha256(challenge id)>`) and email verification codes (`EMAILVERIFY#<userId>`).
 * Both hold `codeHash` (Argon2id), `maxAttempts`, `expiresAtEpoch` (= `ttl`) and the set
 * `attemptTokens`: counting an attempt adds its token under the condition that the set is
 * smaller than `maxAttempts`, so concurrent guesses cannot overrun the cap, and the DynamoDB
 * client's resend of a counted attempt (reply lost) is recognised by its token instead of counting twice.
 * A code with every attempt counted is used up in place (behaviour MFA-4): it reads as absent and
 * cannot be replaced, but is not deleted, since a counted attempt may still be verifying it.
 */
import { DeleteCommand, GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { PhysicalTableNames } from './client';
import { transactIfConditionsHold, updateIfConditionHolds } from './conditional-writes';
import { failedAgainst, isConditionFailure, putExpiring, withoutKeys } from './items';
import * as keys from './keys/item-keys';
import { claimOnce } from './claim';
import type {
  AttemptCount,
  ChallengeStore,
  SignInChallenge,
  StoredCode,
  VerificationCode,
  VerificationStore,
} from '../../core/account/ports';

type Key = { readonly pk: string; readonly sk: string };

const codeAttributes = new Set(['attemptTokens', 'consumedBy']);
function toRecord<T>(item: Record<string, unknown>): T {
  return Object.fromEntries(Object.entries(withoutKeys<Record<string, unknown>>(item)).filter(([name]) => !codeAttributes.has(name))) as T;
}

/** Every attempt of the code is counted: it is used up (behaviour MFA-4). */
function outOfAttempts(item: Record<string, unknown>): boolean {
  const tokens = item.attemptTokens as Set<string> | undefined;
  return (tokens?.size ?? 0) >= Number(item.maxAttempts);
}

/** A live, unused code item with attempts left (TTL deletes late, so `expiresAtEpoch` is compared too). */
function liveCode<T>(item: Record<string, unknown> | undefined, nowEpoch: number): T | undefined {
  if (!item || item.consumedBy !== undefined || Number(item.expiresAtEpoch) <= nowEpoch || outOfAttempts(item)) return undefined;
  return toRecord<T>(item);
}

async function countAttempt<T extends StoredCode>(
  db: DynamoDBDocumentClient,
  table: string,
  key: Key,
  attemptToken: string,
  nowEpoch: number,
): Promise<AttemptCount & { item?: T }> {
  try {
    const { Attributes } = await db.send(
      new UpdateCommand({
        TableName: table,
        Key: key,
        UpdateExpression: 'ADD attemptTokens :token',
        ConditionExpression:
          'attribute_exists(pk) AND expiresAtEpoch > :now AND attribute_not_exists(consumedBy) AND ' +
          '(attribute_not_exists(attemptTokens) OR size(attemptTokens) < maxAttempts) AND NOT contains(attemptTokens, :one)',
        ExpressionAttributeValues: { ':token': new Set([attemptToken]), ':one': attemptToken, ':now': nowEpoch },
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { kind: 'counted', used: (Attributes!.attemptTokens as Set<string>).size, item: toRecord<T>(Attributes!) };
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const old = failedAgainst(error);
    if (!old || old.consumedBy !== undefined || Number(old.expiresAtEpoch) <= nowEpoch) return { kind: 'absent' };
    const tokens = (old.attemptTokens as Set<string> | undefined) ?? new Set<string>();
    // This very update, resent by the DynamoDB client after its reply was lost: it was counted once.
    if (tokens.has(attemptToken)) return { kind: 'counted', used: tokens.size, item: toRecord<T>(old) };
    return { kind: 'exhausted' };
  }
}

export class DynamoChallengeStore implements ChallengeStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async save(id: string, challenge: SignInChallenge): Promise<void> {
    await putExpiring(this.db, this.table, keys.signInChallenge(id), challenge);
  }

  async get(id: string, nowEpoch: number): Promise<SignInChallenge | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: keys.signInChallenge(id), ConsistentRead: true }));
    return liveCode<SignInChallenge>(Item, nowEpoch);
  }

  countAttempt(id: string, attemptToken: string, nowEpoch: number) {
    return countAttempt<SignInChallenge>(this.db, this.table, keys.signInChallenge(id), attemptToken, nowEpoch);
  }

  /** Used up by a claim (claim.ts): safe against the DynamoDB client's resend. */
  async consume(id: string, nowEpoch: number): Promise<boolean> {
    return (await claimOnce(this.db, this.table, keys.signInChallenge(id), nowEpoch)) !== undefined;
  }

  async replaceCode(id: string, codeHash: string, expiresAtEpoch: number, nowEpoch: number): Promise<boolean> {
    return updateIfConditionHolds(this.db, {
      TableName: this.table,
      Key: keys.signInChallenge(id),
      // Idempotent as a whole: a resend sets the same values. A challenge out of attempts stays
      // used up (behaviour MFA-4, MFA-7): a new code would otherwise give it fresh attempts.
      UpdateExpression: 'SET codeHash = :hash, expiresAtEpoch = :exp, #ttl = :exp REMOVE attemptTokens',
      ConditionExpression:
        'attribute_exists(pk) AND expiresAtEpoch > :now AND attribute_not_exists(consumedBy) AND ' +
        '(attribute_not_exists(attemptTokens) OR size(attemptTokens) < maxAttempts)',
      ExpressionAttributeNames: { '#ttl': 'ttl' },
      ExpressionAttributeValues: { ':hash': codeHash, ':exp': expiresAtEpoch, ':now': nowEpoch },
    });
  }

  async delete(id: string): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.table, Key: keys.signInChallenge(id) }));
  }
}

export class DynamoVerificationStore implements VerificationStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tables: PhysicalTableNames,
  ) {}

  async save(userId: string, code: VerificationCode): Promise<void> {
    // Replaces the user's earlier code and its attempts: only the newest code works.
    await putExpiring(this.db, this.tables.ephemeral, keys.verificationCode(userId), code);
  }

  countAttempt(userId: string, attemptToken: string, nowEpoch: number) {
    return countAttempt<VerificationCode>(this.db, this.tables.ephemeral, keys.verificationCode(userId), attemptToken, nowEpoch);
  }

  async delete(userId: string): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.tables.ephemeral, Key: keys.verificationCode(userId) }));
  }

  /** Sets emailVerifiedAt (and updatedAt) while the user's address is still `email`. */
  async markVerified(userId: string, email: string, verifiedAt: string): Promise<boolean> {
    return updateIfConditionHolds(this.db, {
      TableName: this.tables.main,
      Key: keys.user(userId),
      UpdateExpression: 'SET emailVerifiedAt = :at, updatedAt = :at',
      ConditionExpression: 'attribute_exists(pk) AND email = :email',
      ExpressionAttributeValues: { ':at': verifiedAt, ':email': email },
    });
  }

  async confirm(code: VerificationCode, verifiedAt: string): Promise<boolean> {
    return transactIfConditionsHold(this.db, [
      {
        Delete: {
          TableName: this.tables.ephemeral,
          Key: keys.verificationCode(code.userId),
          ConditionExpression: 'codeHash = :hash AND email = :email',
          ExpressionAttributeValues: { ':hash': code.codeHash, ':email': code.email },
        },
      },
      {
        Update: {
          TableName: this.tables.main,
          Key: keys.user(code.userId),
          // updatedAt moves too, so an admin update read before this one fails its check instead of undoing it.
          UpdateExpression: 'SET emailVerifiedAt = :at, updatedAt = :at',
          ConditionExpression: 'attribute_exists(pk) AND email = :email',
          ExpressionAttributeValues: { ':at': verifiedAt, ':email': code.email },
        },
      },
    ]);
  }
}
