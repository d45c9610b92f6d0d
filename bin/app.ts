#!/usr/bin/env node
/**
 * The CDK app. Settings come from context under the same names as the functions'
 * environment variables: `npx cdk deploy -c MAIL_FROM=no-reply@example.org`, or the
 * `context` block of cdk.json (which lists every setting with its default). Deploy-time
 * options (lib/deployment-options.ts: allowlist, custom domain, rotation, alarms) are
 * read the same way. Invalid values stop synthesis with one message per setting and a
 * non-zero exit.
 *
 * Every synth (and so every deploy) runs the policy checks of lib/checks.ts: cdk-nag
 * AwsSolutions and the AWS Control Tower proactive controls (cfn-guard, offline); a
 * finding not acknowledged in lib/nag-acknowledgements.ts fails it.
 */
import { App } from 'aws-cdk-lib';
import { ConfigError } from '../lambdas/config/settings';
import { AuthorizationServerStack } from '../lib/authorization-server-stack';
import { addPolicyChecks } from '../lib/checks';
import { stackPropsFromContext } from '../lib/deployment-options';
import { holdBackAssetLines } from './asset-lines';

const app = new App();
// Bundling happens as the stack is built: its per-asset lines would bury the warnings the CLI prints last.
const releaseAssetLines = process.env.VERBOSE_SYNTH ? () => 0 : holdBackAssetLines(process.stderr);
try {
  new AuthorizationServerStack(app, 'AuthorizationServer', {
    description: 'OAuth 2.1 authorization server (aws-oauth-authorization-server)',
    ...stackPropsFromContext(app),
  });
  const bundled = releaseAssetLines();
  if (bundled > 0) process.stderr.write(`Bundled ${bundled} Lambda function packages (VERBOSE_SYNTH=1 names each).\n`);
} catch (error) {
  releaseAssetLines();
  if (!(error instanceof ConfigError)) throw error;
  console.error(`${error.message}\nSet them with -c NAME=value or in the "context" block of cdk.json.`);
  process.exit(1);
}
addPolicyChecks(app);
