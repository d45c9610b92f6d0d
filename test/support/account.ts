/**
 * Helpers for the account-flow tests: codes and links read from the outbox, what the
 * ephemeral table holds for one key prefix, a user's sessions. Their users come from
 * test/support/fixtures (createUserWithPassword).
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import { QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { OutboxMail } from '../../lambdas/adapters/outbox-mailer';
import { getStorage } from '../../lambdas/wiring/storage';
import { outboxMails } from './api-keys';

export const mailsTo = (outbox: string, address: string): OutboxMail[] => outboxMails(outbox).filter((m) => m.to === address);

/** The 6-digit code of the newest mail to `address`. */
export function latestCode(outbox: string, address: string): string {
  const mails = mailsTo(outbox, address);
  const code = /\b([0-9]{6})\b/.exec(mails[mails.length - 1]?.text ?? '')?.[1];
  if (!code) throw new Error(`no code mailed to ${address}`);
  return code;
}

/** The reset token of the newest link mailed to `address`. */
export function latestResetToken(outbox: string, address: string): string {
  const mails = mailsTo(outbox, address).filter((m) => m.subject === 'Reset your password');
  const token = /\/reset-password\?token=([A-Za-z0-9_-]{43})/.exec(mails[mails.length - 1]?.text ?? '')?.[1];
  if (!token) throw new Error(`no reset link mailed to ${address}`);
  return token;
}

/** Every ephemeral item whose pk starts with `prefix` (a scan: tests only). */
export async function ephemeralItems(prefix: string): Promise<Record<string, unknown>[]> {
  const { db, tables } = getStorage();
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new ScanCommand({
        TableName: tables.ephemeral,
        FilterExpression: 'begins_with(pk, :p)',
        ExpressionAttributeValues: { ':p': prefix },
        ExclusiveStartKey: start,
        ConsistentRead: true,
      }),
    );
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

export async function sessionsOf(userId: string): Promise<number> {
  const { db, tables } = getStorage();
  const page = await db.send(
    new QueryCommand({
      TableName: tables.ephemeral,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': `USER#${userId}#SESSIONS` },
    }),
  );
  return page.Count ?? 0;
}

export const statusOf = (result: APIGatewayProxyResult) => result.statusCode;
