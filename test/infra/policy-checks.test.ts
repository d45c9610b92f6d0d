/**
 * cdk-nag AwsSolutions and the Control Tower proactive controls (cfn-guard, offline)
 * over the whole app, as bin/app.ts runs them on every synth: zero findings that
 * lib/nag-acknowledgements.ts does not acknowledge with a reason.
 */
import { App } from 'aws-cdk-lib';
import { AuthorizationServerStack } from '../../lib/authorization-server-stack';
import { addPolicyChecks } from '../../lib/checks';
import { stackPropsFromContext } from '../../lib/deployment-options';
import { assemblyDir, testAdminPlane } from './synthesize';

function synthWithChecks(context: Record<string, string>, controlTower: boolean): void {
  const app = new App({
    outdir: assemblyDir(),
    context: { 'aws:cdk:bundling-stacks': [], MAIL_FROM: 'no-reply@example.org', ...testAdminPlane(context), ...context },
  });
  new AuthorizationServerStack(app, 'Checked', stackPropsFromContext(app));
  addPolicyChecks(app, { controlTower });
  // A validation failure throws "Validation failed" and prints each finding.
  app.synth();
}

test('minimal configuration: no unacknowledged AwsSolutions or Control Tower finding', () => {
  expect(() => synthWithChecks({ ALARM_EMAIL: 'ops@example.org' }, true)).not.toThrow();
}, 120_000);

test('full configuration (allowlist, Bot Control, custom domains for the API and the JWKS, alarm topic, tracing, mail domain, backup copies, key operators): no unacknowledged AwsSolutions or Control Tower finding', () => {
  expect(() =>
    synthWithChecks(
      {
        ADMIN_ALLOWED_CIDRS: '203.0.113.0/24,2001:db8::/32',
        WAF_BOT_CONTROL: 'true',
        TRACING: 'true',
        ALARM_TOPIC_ARN: 'arn:aws:sns:eu-west-1:123456789012:ops-alarms',
        DOMAIN_NAME: 'auth.example.net',
        CERTIFICATE_ARN: 'arn:aws:acm:eu-west-1:123456789012:certificate/0a1b2c3d-1111-2222-3333-444455556666',
        JWKS_DOMAIN_NAME: 'keys.example.net',
        JWKS_CERTIFICATE_ARN: 'arn:aws:acm:us-east-1:123456789012:certificate/9f8e7d6c-1111-2222-3333-444455556666',
        KEY_OPERATOR_ARNS: 'arn:aws:iam::123456789012:role/platform-security',
        MAIL_FROM: 'auth@example.org',
        MAIL_DOMAIN: 'example.org',
        BACKUP_COPY_VAULT_ARNS: 'arn:aws:backup:eu-central-1:210987654321:backup-vault:tollgate-copies',
      },
      true,
    ),
  ).not.toThrow();
}, 120_000);
