/**
 * A deployable stack around the AuthorizationServer construct. Environment-agnostic
 * by default (no account or region), so `cdk synth` needs no credentials.
 */
import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { tableNames } from '../lambdas/adapters/dynamodb/table-definitions';
import { AuthorizationServer, type AuthorizationServerProps } from './authorization-server';
import { tableId } from './tables';

export interface AuthorizationServerStackProps extends StackProps, AuthorizationServerProps {}

export class AuthorizationServerStack extends Stack {
  readonly server: AuthorizationServer;

  constructor(scope: Construct, id: string, props: AuthorizationServerStackProps) {
    super(scope, id, props);
    this.server = new AuthorizationServer(this, 'Server', props);

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
  }
}
