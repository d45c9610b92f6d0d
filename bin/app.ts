#!/usr/bin/env node
/**
 * The CDK app. Settings come from context under the same names as the functions'
 * environment variables: `npx cdk deploy -c MAIL_FROM=no-reply@example.org`, or the
 * `context` block of cdk.json (which lists every setting with its default). Invalid
 * values stop synthesis with one message per setting and a non-zero exit.
 */
import { App } from 'aws-cdk-lib';
import { ConfigError } from '../lambdas/config/settings';
import { AuthorizationServerStack } from '../lib/authorization-server-stack';
import { settingsFromContext } from '../lib/service-settings';

const app = new App();
try {
  new AuthorizationServerStack(app, 'AuthorizationServer', {
    description: 'OAuth 2.1 authorization server (aws-oauth-authorization-server)',
    settings: settingsFromContext(app),
  });
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`${error.message}\nSet them with -c NAME=value or in the "context" block of cdk.json.`);
  process.exit(1);
}
