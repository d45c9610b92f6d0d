/**
 * A deployable stack around the AuthorizationServer construct. Environment-agnostic
 * by default (no account or region), so `cdk synth` needs no credentials. Termination
 * protection is on unless the props turn it off (behaviour OPS-6): the tables are retained
 * anyway, but a deleted stack takes the API, the keys' rotation and the alarms with it.
 */
import { CfnOutput, Fn, Stack, type StackProps, Tags } from 'aws-cdk-lib';
import * as sns from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import { tableNames } from '../lambdas/adapters/dynamodb/table-definitions';
import { AuthorizationServer, type AuthorizationServerProps, resourceTags } from './authorization-server';
import { tableId } from './tables';

export interface AuthorizationServerStackProps extends StackProps, AuthorizationServerProps {
  /**
   * ARN of an existing SNS topic for the alarms (an alternative to `alarmTopic`).
   * @default - none
   */
  readonly alarmTopicArn?: string;
  /**
   * CloudFormation termination protection: `cdk destroy` and a stack deletion fail until it is turned off.
   * @default true
   */
  readonly terminationProtection?: boolean;
}

export class AuthorizationServerStack extends Stack {
  readonly server: AuthorizationServer;

  constructor(scope: Construct, id: string, props: AuthorizationServerStackProps) {
    super(scope, id, { ...props, tags: undefined, terminationProtection: props.terminationProtection ?? true });
    // On the stack too, so that CloudFormation tags the stack and what the server does not create.
    for (const [key, value] of Object.entries(resourceTags(this, props.tags))) Tags.of(this).add(key, value);
    this.server = new AuthorizationServer(this, 'Server', {
      ...props,
      alarmTopic: props.alarmTopic ?? (props.alarmTopicArn ? sns.Topic.fromTopicArn(this, 'AlarmTopic', props.alarmTopicArn) : undefined),
    });

    new CfnOutput(this, 'IssuerUrl', {
      description: 'Issuer (BASE_URL); discovery is at /.well-known/oauth-authorization-server',
      value: this.server.issuerUrl,
    });
    new CfnOutput(this, 'JwksUrl', { description: 'Public JWKS (jwks_uri)', value: this.server.jwksUrl });
    for (const name of tableNames) {
      new CfnOutput(this, `${tableId(name)}TableName`, {
        description: `Physical name of the ${name} DynamoDB table`,
        value: this.server.tables[name].tableName,
      });
    }
    new CfnOutput(this, 'SigningKeySecretArn', {
      description: 'Secrets Manager secret holding the private signing key set',
      value: this.server.signingKeySecret.secretArn,
    });
    // Where the credentials are, never the credentials themselves.
    new CfnOutput(this, 'DeviceCookieKeySecretArn', {
      description: 'Secrets Manager secret holding the device cookies’ HMAC key (docs/deployment.md, Rotating the device-cookie key)',
      value: this.server.deviceCookieKeySecret.secretArn,
    });
    new CfnOutput(this, 'AdminCredentialsSecretArn', {
      description:
        'Secrets Manager secret with the first admin user and admin API client (aws secretsmanager get-secret-value --secret-id <this>)',
      value: this.server.adminBootstrap.secret.secretArn,
    });
    new CfnOutput(this, 'WafLogGroupName', {
      description: 'CloudWatch log group of the WAF (Authorization and Cookie headers redacted)',
      value: this.server.webAcl.logGroup.logGroupName,
    });
    new CfnOutput(this, 'ApiAccessLogGroupName', {
      description: 'CloudWatch log group of the API Gateway access logs',
      value: this.server.accessLogs.logGroupName,
    });
    if (this.server.jwks.domainName) {
      new CfnOutput(this, 'JwksDomainTarget', {
        description: `Point a DNS alias (or CNAME) for ${this.server.jwks.domainName} at this CloudFront name`,
        value: this.server.jwks.distribution.distributionDomainName,
      });
    }
    new CfnOutput(this, 'AlarmTopicArn', {
      description: 'SNS topic every alarm and its recovery go to: subscribe on-call tooling here',
      value: this.server.alarms.topic.topicArn,
    });
    new CfnOutput(this, 'AsyncFailuresQueueUrl', {
      description: 'SQS queue of background work that failed after its retries (alarm AsyncWorkFailed)',
      value: this.server.asyncFailures.queue.queueUrl,
    });
    new CfnOutput(this, 'MailEventsTopicArn', {
      description: 'SNS topic of every bounce and complaint of the service’s mail (with the recipient address)',
      value: this.server.mail.events.topicArn,
    });
    if (this.server.backups) {
      new CfnOutput(this, 'BackupVaultName', {
        description: 'AWS Backup vault of the daily main and activity table backups',
        value: this.server.backups.vault.backupVaultName,
      });
    }
    // The records a domain identity needs (docs/deployment.md, "SES: verification, DKIM and DMARC").
    const { dnsRecords } = this.server.mail;
    if (dnsRecords.length > 0) {
      const line = (record: (typeof dnsRecords)[number]) => Fn.join(' ', [record.name, record.type, record.value]);
      new CfnOutput(this, 'MailDkimRecords', {
        description: 'Publish these three CNAME records (name type value, separated by " | ") for Easy DKIM',
        value: Fn.join(' | ', dnsRecords.filter((r) => r.type === 'CNAME').map(line)),
      });
      new CfnOutput(this, 'MailFromRecords', {
        description: 'Publish these MX and TXT records (name type value, separated by " | ") for the custom MAIL FROM domain',
        value: Fn.join(' | ', dnsRecords.filter((r) => r.type !== 'CNAME').map(line)),
      });
    }
    if (this.server.domainName) {
      new CfnOutput(this, 'CustomDomainTarget', {
        description: 'Point a DNS alias (or CNAME) for the custom domain at this regional API Gateway name',
        value: this.server.domainName.domainNameAliasDomainName,
      });
    }
  }
}
