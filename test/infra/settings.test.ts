import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { type ConfigError, settingNames } from '../../lambdas/config/settings';
import { deploymentOptions } from '../../lib/deployment-options';
import { logicalId, resources, synthesize } from './synthesize';

const root = path.resolve(__dirname, '../..');
const healthVariables = (context: Record<string, unknown>) => {
  const { stack, template } = synthesize(context);
  return resources(template, 'AWS::Lambda::Function')[logicalId(stack.server.functions.Health!)]!.Properties.Environment.Variables;
};

describe('settings from CDK context', () => {
  test('context values reach the function environment under the same names, defaults applied', () => {
    const variables = healthVariables({ DCR_ENVIRONMENT_ID: 'env_x', LOG_LEVEL: 'debug' });
    expect(variables).toMatchObject({
      DCR_ENVIRONMENT_ID: 'env_x',
      LOG_LEVEL: 'debug',
      MAIL_FROM: 'no-reply@example.org',
      DCR_ENABLED: 'true',
      SIGNING_ALG: 'RS256',
    });
  });

  test('cdk.json may give booleans and numbers as JSON values', () => {
    expect(healthVariables({ DCR_ENABLED: false, DCR_RATE_LIMIT_PER_DAY: 25 })).toMatchObject({
      DCR_ENABLED: 'false',
      DCR_RATE_LIMIT_PER_DAY: '25',
    });
  });

  test('an unset DCR_ENVIRONMENT_ID names the environment the deploy seeds (env_dcr), never an empty value', () => {
    expect(healthVariables({ DCR_ENVIRONMENT_ID: '' }).DCR_ENVIRONMENT_ID).toBe('env_dcr');
  });

  test('BASE_URL defaults to the API URL built from the API id, not the stage (no dependency cycle)', () => {
    const { stack, template } = synthesize();
    const variables = resources(template, 'AWS::Lambda::Function')[logicalId(stack.server.functions.Health!)]!.Properties.Environment
      .Variables;
    const baseUrl = JSON.stringify(variables.BASE_URL);
    expect(baseUrl).toContain(logicalId(stack.server.api));
    expect(baseUrl).toContain('/prod');
    expect(baseUrl).not.toContain(logicalId(stack.server.api.deploymentStage));
    expect(JSON.stringify(variables.JWKS_CDN_BASE_URL)).toContain('DomainName');
  });

  test('an explicit BASE_URL is the issuer', () => {
    const { template } = synthesize({ BASE_URL: 'https://auth.example.org/' });
    template.hasOutput('IssuerUrl', { Value: 'https://auth.example.org' });
  });

  test('an invalid context value fails, naming the variable and what it accepts', () => {
    expect(() => synthesize({ DCR_ENABLED: 'yes' })).toThrow(/DCR_ENABLED must be "true" or "false" \(got "yes"\)/);
  });

  test('a missing MAIL_FROM fails, naming the variable', () => {
    expect(() => synthesize({ MAIL_FROM: '' })).toThrow(/MAIL_FROM must be an email address/);
  });

  test('cdk.json lists every setting and deploy-time option; its defaults are refused only for want of an admin allowlist (behaviour EXPOSURE-3) and an alarm recipient (behaviour OPS-1), and synthesize with them', () => {
    const context = JSON.parse(readFileSync(path.join(root, 'cdk.json'), 'utf8')).context;
    expect(Object.keys(context).sort()).toEqual([...settingNames, ...Object.keys(deploymentOptions)].sort());
    try {
      synthesize(context);
      throw new Error('expected a ConfigError');
    } catch (error) {
      const problems = (error as ConfigError).problems;
      expect(problems).toHaveLength(2);
      expect(problems).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/ADMIN_ALLOWED_CIDRS is empty/),
          expect.stringMatching(/^ALARM_EMAIL or ALARM_TOPIC_ARN must be set/),
        ]),
      );
    }
    expect(() => synthesize({ ...context, ALARM_EMAIL: 'ops@example.org', ADMIN_ALLOWED_CIDRS: '203.0.113.0/24' })).not.toThrow();
    expect(() => synthesize({ ...context, ALARM_EMAIL: 'ops@example.org', ADMIN_OPEN_TO_INTERNET: 'true' })).not.toThrow();
  });

  test('`npm run synth` (the offline check) declares the admin plane open and waives the alarm recipient explicitly, and synthesizes cdk.json’s defaults (behaviour EXPOSURE-3, OPS-1)', () => {
    const context = JSON.parse(readFileSync(path.join(root, 'cdk.json'), 'utf8')).context;
    const script: string = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts.synth;
    const given = Object.fromEntries([...script.matchAll(/-c ([A-Z_]+)=(\S+)/g)].map(([, name, value]) => [name, value]));
    expect(given).toMatchObject({ ADMIN_OPEN_TO_INTERNET: 'true', ALARMS_NOTIFY_NOBODY: 'true' });
    expect(() => synthesize({ ...context, ...given })).not.toThrow();
  });

  test('bin/app.ts exits non-zero and prints the invalid variable', () => {
    const result = spawnSync(path.join(root, 'node_modules/.bin/tsx'), ['bin/app.ts'], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, CDK_CONTEXT_JSON: JSON.stringify({ MAIL_FROM: 'not-an-address', DCR_ENABLED: 'yes' }) },
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('MAIL_FROM must be an email address');
    expect(result.stderr).toContain('DCR_ENABLED must be "true" or "false"');
  });
});
