/**
 * The append-only copy of the admin audit log (behaviour IAM-4). The activity table's stream
 * invokes a small function with the records of audit entries only (an event filter on the `AUDIT#`
 * partitions, so the token activity rows beside them invoke nothing), and the function writes each
 * record to a bucket under S3 Object Lock: for the retention no one, not the functions, not an
 * operator, can change or delete it (COMPLIANCE mode, the default; GOVERNANCE lets principals with
 * `s3:BypassGovernanceRetention` do so).
 *
 * A stream and a function rather than Kinesis Data Streams and Firehose: audit entries are admin
 * changes, a few a day; DynamoDB Streams cost nothing to read from Lambda and the filter keeps
 * token traffic out, whereas a Kinesis stream bills every shard-hour whether or not anything is
 * written, and Firehose would batch what needs no batching.
 *
 * A record is retried until it is written or leaves the stream (24 hours); a batch that still
 * failed is named (shard and sequence numbers) on a queue, kept 14 days, and the entries themselves
 * stay in the table for their retention, so they can be exported again.
 */
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sources from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { AuditExportEnvironment } from '../lambdas/jobs/export-audit-entries';
import { serviceFunction } from './functions';
import { grantObjects } from './narrow-grants';

export interface AuditArchiveOptions {
  /**
   * Days each exported record stays locked (S3 Object Lock default retention). At least the audit
   * log's own retention in the table (365 days), so no entry leaves both.
   * @default 365
   */
  readonly retentionDays?: number;
  /**
   * Object Lock mode: `COMPLIANCE` (no one can delete or shorten a lock, root included) or
   * `GOVERNANCE` (principals allowed `s3:BypassGovernanceRetention` can).
   * @default 'COMPLIANCE'
   */
  readonly mode?: 'COMPLIANCE' | 'GOVERNANCE';
}

export interface AuditArchiveProps extends AuditArchiveOptions {
  /** The activity table, with its stream on. */
  readonly table: dynamodb.ITableV2;
  readonly logRetention: logs.RetentionDays;
}

/** The audit log's retention in the table (lambdas/core/lifetimes.ts `auditRetention`), in days. */
export const auditRetentionDays = 365;

export class AuditArchive extends Construct {
  readonly bucket: s3.Bucket;
  readonly function: NodejsFunction;
  /** Batches that could not be exported before they left the stream. */
  readonly failures: sqs.Queue;

  constructor(scope: Construct, id: string, props: AuditArchiveProps) {
    super(scope, id);
    const retentionDays = props.retentionDays ?? auditRetentionDays;
    if (!Number.isInteger(retentionDays) || retentionDays < auditRetentionDays) {
      throw new Error(`auditArchive.retentionDays must be a whole number of at least ${auditRetentionDays} (got ${retentionDays})`);
    }
    const retention = Duration.days(retentionDays);
    this.bucket = new s3.Bucket(this, 'Bucket', {
      objectLockEnabled: true,
      objectLockDefaultRetention:
        props.mode === 'GOVERNANCE' ? s3.ObjectLockRetention.governance(retention) : s3.ObjectLockRetention.compliance(retention),
      versioned: true,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      // Locked evidence: a stack deletion must never take it.
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.failures = new sqs.Queue(this, 'Failures', {
      retentionPeriod: Duration.days(14),
      enforceSSL: true,
      encryption: sqs.QueueEncryption.SQS_MANAGED,
    });
    const environment: AuditExportEnvironment = { AUDIT_ARCHIVE_BUCKET: this.bucket.bucketName };
    this.function = serviceFunction(this, 'Exporter', {
      entry: 'lambdas/jobs/export-audit-entries.ts',
      description: 'Copies the audit entries of the activity table to the Object Lock bucket',
      environment: { ...environment },
      memorySize: 256,
      timeout: Duration.minutes(1),
      logRetention: props.logRetention,
    });
    grantObjects(this.bucket, this.function, ['s3:PutObject'], 'audit/*');
    this.function.addEventSource(
      new sources.DynamoEventSource(props.table as unknown as dynamodb.ITable, {
        startingPosition: lambda.StartingPosition.TRIM_HORIZON,
        batchSize: 100,
        bisectBatchOnError: true,
        filters: [lambda.FilterCriteria.filter({ dynamodb: { Keys: { pk: { S: lambda.FilterRule.beginsWith('AUDIT#') } } } })],
        onFailure: new sources.SqsDlq(this.failures),
      }),
    );
  }
}
