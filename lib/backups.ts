/**
 * AWS Backup for the tables that cannot be recreated (behaviour OPS-6): a daily backup of the
 * main table (users, clients, API keys, environments, scopes, site settings) and the activity
 * table (token activity, the admin audit log) into a vault of this deployment, kept `retention`
 * days, and each copied to the vaults `copyTo` names (another region, another account of the
 * organization, or both). Point-in-time recovery stays on for all three tables (35 days, to the
 * second, in the region).
 *
 * The ephemeral table (sessions, codes, refresh tokens, counters: everything expires within a
 * day, device standings within a year) is not in the plan: it is never restored into service,
 * because a restored copy would bring back sessions and refresh tokens revoked since
 * (docs/deployment.md, "Restoring from a backup").
 */
import { Duration, Names, RemovalPolicy } from 'aws-cdk-lib';
import * as backup from 'aws-cdk-lib/aws-backup';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import { Construct } from 'constructs';

export interface BackupOptions {
  /**
   * Whether the stack makes the backup plan. Turn off only where an organization-wide AWS Backup
   * policy already backs up the tables.
   * @default true
   */
  readonly enabled?: boolean;
  /**
   * How long each daily backup is kept in this deployment's vault (AWS Backup's own minimum: 1 day).
   * @default Duration.days(35)
   */
  readonly retention?: Duration;
  /**
   * ARNs of backup vaults each backup is copied to: in another region (survives the region), in
   * another account of the same AWS Organization (survives this account), or both. The
   * destination vault's access policy must allow `backup:CopyIntoBackupVault` from this account.
   * @default - no copies
   */
  readonly copyTo?: readonly string[];
  /**
   * How long the copies are kept.
   * @default - `retention`
   */
  readonly copyRetention?: Duration;
}

/** When the daily backup starts (UTC): after the night's jobs (counter pruning 00:17, key rotation 03:41). */
export const backupSchedule = { hour: 4, minute: 53 } as const;
export const defaultBackupRetention = Duration.days(35);

export interface TableBackupsProps extends BackupOptions {
  readonly tables: readonly dynamodb.ITableV2[];
}

export class TableBackups extends Construct {
  readonly vault: backup.BackupVault;
  readonly plan: backup.BackupPlan;

  constructor(scope: Construct, id: string, props: TableBackupsProps) {
    super(scope, id);
    const retention = props.retention ?? defaultBackupRetention;
    // Backups outlive the stack, like the tables they come from.
    this.vault = new backup.BackupVault(this, 'Vault', { removalPolicy: RemovalPolicy.RETAIN });
    // Named after the construct's path: CDK would name every deployment's plan "Plan".
    this.plan = new backup.BackupPlan(this, 'Plan', {
      backupPlanName: Names.uniqueResourceName(this, { maxLength: 50 }),
      backupVault: this.vault,
    });
    this.plan.addRule(
      new backup.BackupPlanRule({
        ruleName: 'Daily',
        scheduleExpression: events.Schedule.cron({ hour: String(backupSchedule.hour), minute: String(backupSchedule.minute) }),
        startWindow: Duration.hours(1),
        completionWindow: Duration.hours(8),
        deleteAfter: retention,
        copyActions: (props.copyTo ?? []).map((arn, i) => ({
          destinationBackupVault: backup.BackupVault.fromBackupVaultArn(this, `CopyDestination${i + 1}`, arn),
          deleteAfter: props.copyRetention ?? retention,
        })),
      }),
    );
    this.plan.addSelection('Tables', {
      resources: props.tables.map((table) => backup.BackupResource.fromArn(table.tableArn)),
      // The same role may restore a recovery point into a new table (docs/deployment.md).
      allowRestores: true,
    });
  }
}
