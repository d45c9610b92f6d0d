/**
 * The append-only copy of the admin audit log (behaviour IAM-4): invoked by the activity table's
 * DynamoDB stream with the records of audit entries only (the event source's filter keeps
 * `AUDIT#` partitions; token activity rows never invoke it), it writes each record as one object
 * to a bucket under S3 Object Lock, where no one can change or delete it before its retention ends.
 *
 * Every stream record is kept, not only new entries: a change or a deletion of an audit entry
 * (which no function is granted; TTL's removal after the retention is the one expected) shows up
 * as its own object beside the original, marked with who removed it (`userIdentity`: DynamoDB's
 * TTL service for an expiry).
 */
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { DynamoDBStreamEvent, DynamoDBRecord } from 'aws-lambda';
import { awsClient, backgroundCallBounds } from '../adapters/aws/sdk-clients';
import { withinDeadline } from '../adapters/aws/invocation-deadline';
import { awsClientSettings } from '../wiring/aws';

export interface AuditExportEnvironment {
  readonly AUDIT_ARCHIVE_BUCKET: string;
}

/** `audit/<yyyy-mm-dd>/<event id>.json`: one object per stream record, so a retried batch rewrites the same keys. */
export function archiveKey(record: DynamoDBRecord): string {
  const seconds = record.dynamodb?.ApproximateCreationDateTime ?? 0;
  const day = new Date(seconds * 1000).toISOString().slice(0, 10);
  return `audit/${day}/${record.eventID}.json`;
}

/** What is kept of a record: the event, when, the keys and both images as DynamoDB sent them. */
export function archiveBody(record: DynamoDBRecord): string {
  return JSON.stringify({
    eventName: record.eventName,
    eventID: record.eventID,
    approximateCreationDateTime: record.dynamodb?.ApproximateCreationDateTime,
    sequenceNumber: record.dynamodb?.SequenceNumber,
    keys: record.dynamodb?.Keys,
    newImage: record.dynamodb?.NewImage,
    oldImage: record.dynamodb?.OldImage,
    ...(record.userIdentity ? { userIdentity: record.userIdentity } : {}),
  });
}

export function createHandler(deps: { readonly s3: Pick<S3Client, 'send'>; readonly env: Readonly<Record<string, string | undefined>> }) {
  return async (event: DynamoDBStreamEvent): Promise<void> => {
    const bucket = deps.env.AUDIT_ARCHIVE_BUCKET;
    if (!bucket) throw new Error('AUDIT_ARCHIVE_BUCKET is not set');
    // In order: a failure stops the batch, and the event source retries it (bisected) from there.
    for (const record of event.Records) {
      await deps.s3.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: archiveKey(record),
          Body: archiveBody(record),
          ContentType: 'application/json',
          // Object Lock buckets take a write only with an integrity checksum.
          ChecksumAlgorithm: 'SHA256',
        }),
      );
    }
  };
}

export const handler = withinDeadline(
  createHandler({
    s3: awsClient((config) => new S3Client(config), backgroundCallBounds, awsClientSettings(process.env)),
    env: process.env,
  }),
);
