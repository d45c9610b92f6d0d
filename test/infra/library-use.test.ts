/**
 * The construct as a library user builds it: imported from the package
 * entry (lib/index.ts), in an app of their own under their own stack name, configured with
 * typed props instead of context, two instances side by side, one stack each. Template-only
 * synthesis (bundling skipped); test/package/package.test.ts does the same from the packed
 * tarball, and test/infra/bundling.test.ts runs esbuild.
 */
import { App, type NestedStack, Stack, Token } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AuthorizationServer, type AuthorizationServerProps, ConfigError } from '../../lib';
import { assemblyDir, logicalId, nestedStacksOf } from './synthesize';

let stack: Stack;
let partnerStack: Stack;
let internal: AuthorizationServer;
let partners: AuthorizationServer;
let templates: Template[];

beforeAll(() => {
  const app = new App({ outdir: assemblyDir(), context: { 'aws:cdk:bundling-stacks': [] } });
  stack = new Stack(app, 'PlatformIdentity', { env: { account: '123456789012', region: 'eu-west-1' } });
  internal = new AuthorizationServer(stack, 'Internal', {
    mailFrom: 'auth@internal.example.org',
    baseUrl: 'https://login.internal.example.org',
    passkeyRpId: 'internal.example.org',
    signingAlgorithm: 'ES256',
    mfaPolicy: 'everyone',
    dcrEnabled: false,
    mfaOtpMaxAttempts: 3,
    adminAllowlist: ['203.0.113.0/24'],
    alarmEmail: 'identity-oncall@internal.example.org',
  });
  // The API Gateway logging role is account-wide: one instance sets it.
  partnerStack = new Stack(app, 'PlatformIdentityPartners', { env: { account: '123456789012', region: 'eu-west-1' } });
  partners = new AuthorizationServer(partnerStack, 'Partners', {
    mailFrom: 'auth@partners.example.org',
    apiGatewayCloudWatchRole: false,
    adminOpenToInternet: true,
    alarmsNotifyNobody: true,
  });
  const assembly = app.synth();
  expect(assembly.getStackByName('PlatformIdentity').stackName).toBe('PlatformIdentity');
  templates = [stack, ...nestedStacksOf(stack), partnerStack, ...nestedStacksOf(partnerStack)].map((s) => Template.fromStack(s));
});

/** The environment variables of a route function, read from the template of its nested stack. */
function variablesOf(server: AuthorizationServer, route: string): Record<string, unknown> {
  const fn = server.functions[route]!;
  const template = Template.fromStack(Stack.of(fn) as NestedStack);
  return template.findResources('AWS::Lambda::Function')[logicalId(fn)]!.Properties.Environment.Variables;
}

const countOf = (type: string): number => templates.reduce((sum, t) => sum + Object.keys(t.findResources(type)).length, 0);

test('two servers side by side in another app each get their own API, tables, web ACL and signing key', () => {
  expect(countOf('AWS::ApiGateway::RestApi')).toBe(2);
  expect(countOf('AWS::WAFv2::WebACL')).toBe(2);
  expect(countOf('AWS::DynamoDB::GlobalTable')).toBe(2 * Object.keys(internal.tables).length);
  expect(countOf('AWS::ApiGateway::Account')).toBe(1);
  expect(internal.signingKeySecret.secretArn).not.toBe(partners.signingKeySecret.secretArn);
  expect(Object.keys(partners.functions).sort()).toEqual(Object.keys(internal.functions).sort());
});

test('each server’s API has its own name, and its dashboard and 5xx alarm watch that name (API Gateway metrics are keyed by ApiName)', () => {
  const apiNames = templates.flatMap((t) => Object.values(t.findResources('AWS::ApiGateway::RestApi')).map((r) => r.Properties.Name));
  expect(new Set(apiNames).size).toBe(2);
  const alarmApiNames = templates.flatMap((t) =>
    Object.values(t.findResources('AWS::CloudWatch::Alarm')).flatMap((alarm) =>
      (alarm.Properties.Dimensions ?? []).filter((d: { Name: string }) => d.Name === 'ApiName').map((d: { Value: unknown }) => d.Value),
    ),
  );
  expect(alarmApiNames.length).toBeGreaterThanOrEqual(2);
  expect(new Set(alarmApiNames.map((name) => JSON.stringify(name)))).toEqual(new Set(apiNames.map((name) => JSON.stringify(name))));
});

test('typed props reach the functions as the settings they stand for; unset props take the settings defaults', () => {
  expect(variablesOf(internal, 'Health')).toMatchObject({
    MAIL_FROM: 'auth@internal.example.org',
    BASE_URL: 'https://login.internal.example.org',
    PASSKEY_RP_ID: 'internal.example.org',
    SIGNING_ALG: 'ES256',
    MFA_POLICY: 'everyone',
    DCR_ENABLED: 'false',
    MFA_OTP_MAX_ATTEMPTS: '3',
  });
  const defaults = variablesOf(partners, 'Health');
  expect(defaults).toMatchObject({
    MAIL_FROM: 'auth@partners.example.org',
    SIGNING_ALG: 'RS256',
    MFA_POLICY: 'admins',
    DCR_ENABLED: 'true',
  });
  expect(defaults.PASSKEY_RP_ID).toBeUndefined();
  // Each default issuer is the instance's own API.
  expect(JSON.stringify(defaults.BASE_URL)).toContain('Partners');
  expect(JSON.stringify(defaults.BASE_URL)).not.toContain('Internal');
});

test('no fixed physical name is used twice in the app (two instances would collide at deploy)', () => {
  const nameProperty: Record<string, string> = {
    'AWS::Logs::LogGroup': 'LogGroupName',
    'AWS::DynamoDB::GlobalTable': 'TableName',
    'AWS::S3::Bucket': 'BucketName',
    'AWS::Lambda::Function': 'FunctionName',
    'AWS::IAM::Role': 'RoleName',
    'AWS::SecretsManager::Secret': 'Name',
    'AWS::SES::EmailIdentity': 'EmailIdentity',
    'AWS::SES::ConfigurationSet': 'Name',
    'AWS::WAFv2::WebACL': 'Name',
    'AWS::WAFv2::IPSet': 'Name',
    'AWS::CloudWatch::Alarm': 'AlarmName',
    'AWS::CloudWatch::Dashboard': 'DashboardName',
    'AWS::Backup::BackupVault': 'BackupVaultName',
    'AWS::SNS::Topic': 'TopicName',
    'AWS::SQS::Queue': 'QueueName',
  };
  const names = templates.flatMap((template) =>
    Object.entries(nameProperty).flatMap(([type, property]) =>
      Object.values(template.findResources(type))
        .map((resource) => resource.Properties?.[property])
        .filter((name) => name !== undefined)
        .map((name) => `${type} ${JSON.stringify(name)}`),
    ),
  );
  expect(names.length).toBeGreaterThan(0);
  expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
});

describe('invalid props fail at synth, every problem at once, naming the prop', () => {
  const app = () => new App({ outdir: assemblyDir(), context: { 'aws:cdk:bundling-stacks': [] } });
  const build = (props: AuthorizationServerProps) => () => new AuthorizationServer(new Stack(app(), 'Invalid'), 'Server', props);

  test('settings name the prop and its variable; infrastructure props their own words', () => {
    const attempt = build({
      mailFrom: 'not-an-address',
      signingAlgorithm: 'HS256' as never,
      dcrRateLimitPerDay: 0,
      adminAllowlist: ['10.0.0.0/33'],
      memorySize: 64,
      keyRotationDays: 1,
    });
    expect(attempt).toThrow(ConfigError);
    const message = (() => {
      try {
        attempt();
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(message).toContain('mailFrom (MAIL_FROM) must be an email address (got "not-an-address")');
    expect(message).toContain('signingAlgorithm (SIGNING_ALG) must be "RS256" or "ES256" (got "HS256")');
    expect(message).toContain('dcrRateLimitPerDay (DCR_RATE_LIMIT_PER_DAY) must be a whole number from 1 to 1000000');
    expect(message).toContain('adminAllowlist must be comma-separated CIDRs');
    expect(message).toContain('memorySize must be a whole number of MiB from 128 to 10240 (got 64)');
    expect(message).toContain('keyRotationDays must be a whole number of days from 2 to 365 (got 1)');
  });

  test('a number given as a token (resolved at deploy time) is passed through, not refused', () => {
    expect(
      build({
        mailFrom: 'a@example.org',
        adminOpenToInternet: true,
        alarmEmail: 'ops@example.org',
        dcrRateLimitPerDay: Token.asNumber({ Ref: 'RateLimit' }),
      }),
    ).not.toThrow();
  });

  test('behaviour PASSKEY-7: a passkey RP ID that is not the issuer host or a parent of it fails at synth, not at the first cold start', () => {
    const given = {
      mailFrom: 'a@example.org',
      adminOpenToInternet: true,
      alarmEmail: 'ops@example.org',
      baseUrl: 'https://auth.example.org',
    };
    expect(build({ ...given, passkeyRpId: 'example.com' })).toThrow(
      /PASSKEY_RP_ID must be the host of BASE_URL \(auth\.example\.org\) or a parent domain of it/,
    );
    expect(build({ ...given, passkeyRpId: 'example.org' })).not.toThrow();
  });
});
