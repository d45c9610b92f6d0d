/**
 * The audit log's append-only copy (behaviour IAM-4): one object per stream record, keyed by day and
 * event id, with both images, written in order with an integrity checksum (Object Lock requires one).
 */
import type { DynamoDBRecord } from 'aws-lambda';
import { archiveBody, archiveKey, createHandler } from '../../../lambdas/jobs/export-audit-entries';

const record = (eventID: string, eventName: 'INSERT' | 'MODIFY' | 'REMOVE', extra: Partial<DynamoDBRecord> = {}): DynamoDBRecord => ({
  eventID,
  eventName,
  dynamodb: {
    ApproximateCreationDateTime: Date.parse('2026-11-26T10:00:00Z') / 1000,
    SequenceNumber: `${eventID}00`,
    Keys: { pk: { S: 'AUDIT#tgc_x' }, sk: { S: '2026-11-26T10:00:00.000Z#a' } },
    NewImage: { pk: { S: 'AUDIT#tgc_x' }, type: { S: 'api_key.create' } },
    ...(eventName !== 'INSERT' ? { OldImage: { pk: { S: 'AUDIT#tgc_x' }, type: { S: 'api_key.create' } } } : {}),
  },
  ...extra,
});

describe('behaviour IAM-4: audit records exported to the Object Lock bucket', () => {
  test('each stream record is one object under audit/<day>/<event id>.json, so a retried batch rewrites the same keys', () => {
    expect(archiveKey(record('e1', 'INSERT'))).toBe('audit/2026-11-26/e1.json');
  });

  test('a change or a removal is kept beside the original, with the old image and who removed it (TTL)', () => {
    const removed = JSON.parse(
      archiveBody(record('e2', 'REMOVE', { userIdentity: { type: 'Service', principalId: 'dynamodb.amazonaws.com' } })),
    );
    expect(removed).toMatchObject({
      eventName: 'REMOVE',
      eventID: 'e2',
      keys: { pk: { S: 'AUDIT#tgc_x' } },
      oldImage: { type: { S: 'api_key.create' } },
      userIdentity: { principalId: 'dynamodb.amazonaws.com' },
    });
  });

  test('writes every record in order with a SHA-256 checksum, and stops at the first failure so the batch is retried', async () => {
    const sent: Record<string, unknown>[] = [];
    const s3 = {
      send: async (command: { input: Record<string, unknown> }) => {
        if (command.input.Key === 'audit/2026-11-26/e2.json') throw new Error('S3 is down');
        sent.push(command.input);
        return {};
      },
    };
    const handler = createHandler({ s3: s3 as never, env: { AUDIT_ARCHIVE_BUCKET: 'archive' } });
    await expect(handler({ Records: [record('e1', 'INSERT'), record('e2', 'MODIFY'), record('e3', 'INSERT')] })).rejects.toThrow(
      'S3 is down',
    );
    expect(sent.map((input) => [input.Bucket, input.Key, input.ChecksumAlgorithm])).toEqual([
      ['archive', 'audit/2026-11-26/e1.json', 'SHA256'],
    ]);
  });
});
