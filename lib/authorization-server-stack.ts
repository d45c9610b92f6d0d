/**
 * A deployable stack around the AuthorizationServer construct. Environment-agnostic
 * by default (no account or region), so `cdk synth` needs no credentials.
 */
import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import * as sns from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import { tableNames } from '../lambdas/adapters/dynamodb/table-definitions';
import { AuthorizationServer, type AuthorizationServerProps } from './authorization-server';
import { tableId } from './tables';

export interface AuthorizationServerStackProps extends StackProps, AuthorizationServerProps {
  /**
   * ARN of an existing SNS topic for the alarms (an alternative to `alarmTopic`).
   * @default - none
   */
  readonly alarmTopicArn?: string;
}

export class AuthorizationServerStack extends Stack {
  readonly server: AuthorizationServer;

  constructor(scope: Construct, id: string, props: AuthorizationServerStackProps) {
    super(scope, id, props);
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
    if (this.server.domainName) {
      new CfnOutput(this, 'CustomDomainTarget', {
        description: 'Point a DNS alias (or CNAME) for the custom domain at this regional API Gateway name',
        value: this.server.domainName.domainNameAliasDomainName,
      });
    }
  }
}
