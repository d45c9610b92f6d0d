/**
 * The deployment beyond the routes: JWKS distribution, scheduled key rotation, the
 * first-admin bootstrap, mail, logs and alarms, custom domain, and synth with a minimal
 * and a full configuration.
 */
import { App } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import { ConfigError } from '../../lambdas/config/settings';
import { seededEnvironmentIds } from '../../lib/authorization-server';
import { stackPropsFromContext } from '../../lib/deployment-options';
import { actionsOf, assemblyDir, logicalId, resources, roleStatements, synthesize, type Synthesized } from './synthesize';

const fullContext = {
  MAIL_FROM: 'auth@mail.example.net',
  ADMIN_EMAIL: 'ops@example.net',
  ADMIN_ALLOWED_CIDRS: '203.0.113.0/24',
  WAF_BOT_CONTROL: 'true',
  ALARM_TOPIC_ARN: 'arn:aws:sns:eu-west-1:123456789012:ops-alarms',
  DOMAIN_NAME: 'auth.example.net',
  CERTIFICATE_ARN: 'arn:aws:acm:eu-west-1:123456789012:certificate/0a1b2c3d-1111-2222-3333-444455556666',
  KEY_ROTATION_DAYS: '45',
  MAIL_CONFIGURATION_SET: 'authz-mail',
  DCR_ENVIRONMENT_ID: 'env_mcp',
  SIGNING_ALG: 'ES256',
};

let minimal: Synthesized;
let full: Synthesized;
beforeAll(() => {
  minimal = synthesize();
  full = synthesize(fullContext);
});

const healthEnv = (s: Synthesized) =>
  resources(s.template, 'AWS::Lambda::Function')[logicalId(s.stack.server.functions.Health!)]!.Properties.Environment.Variables;
const bootstrapProps = (s: Synthesized) => Object.values(resources(s.template, 'Custom::AdminBootstrap'))[0]!.Properties;

describe('JWKS on CloudFront', () => {
  test('origin access control, HTTPS only, GET/HEAD, short cache from the TTL', () => {
    minimal.template.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
    minimal.template.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
      OriginAccessControlConfig: Match.objectLike({
        OriginAccessControlOriginType: 's3',
        SigningBehavior: 'always',
        SigningProtocol: 'sigv4',
      }),
    });
    minimal.template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        DefaultCacheBehavior: Match.objectLike({
          ViewerProtocolPolicy: 'redirect-to-https',
          AllowedMethods: ['GET', 'HEAD'],
          Compress: true,
        }),
      }),
    });
    minimal.template.hasResourceProperties('AWS::CloudFront::CachePolicy', {
      CachePolicyConfig: Match.objectLike({ DefaultTTL: 300, MaxTTL: 300, MinTTL: 0 }),
    });
  });

  test('a response headers policy adds security headers and CORS for any origin', () => {
    const [policy] = Object.values(resources(minimal.template, 'AWS::CloudFront::ResponseHeadersPolicy'));
    const config = policy!.Properties.ResponseHeadersPolicyConfig;
    expect(config.SecurityHeadersConfig).toMatchObject({
      StrictTransportSecurity: { AccessControlMaxAgeSec: 63072000, IncludeSubdomains: true, Override: true },
      ContentTypeOptions: { Override: true },
      FrameOptions: { FrameOption: 'DENY', Override: true },
      ReferrerPolicy: { ReferrerPolicy: 'no-referrer', Override: true },
    });
    expect(config.CorsConfig).toMatchObject({ AccessControlAllowOrigins: { Items: ['*'] }, AccessControlAllowCredentials: false });
    const [distribution] = Object.values(resources(minimal.template, 'AWS::CloudFront::Distribution'));
    expect(distribution!.Properties.DistributionConfig.DefaultCacheBehavior.ResponseHeadersPolicyId).toEqual({
      Ref: logicalId(minimal.stack.server.jwks.node.findChild('ResponseHeaders')),
    });
  });
});

describe('key rotation', () => {
  test('a daily EventBridge schedule runs the rotation function with the rotation period and cache TTL; undeliverable runs go to the failures queue (behaviour OPS-4)', () => {
    const fnId = logicalId(minimal.stack.server.keyRotation.function);
    minimal.template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'cron(41 3 * * ? *)',
      Targets: [
        Match.objectLike({
          Arn: { 'Fn::GetAtt': [fnId, 'Arn'] },
          RetryPolicy: { MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 3600 },
          DeadLetterConfig: { Arn: { 'Fn::GetAtt': [logicalId(minimal.stack.server.asyncFailures.queue), 'Arn'] } },
        }),
      ],
    });
    const env = resources(minimal.template, 'AWS::Lambda::Function')[fnId]!.Properties.Environment.Variables;
    expect(env).toMatchObject({ KEY_ROTATION_DAYS: '30', JWKS_MAX_AGE_SECONDS: '300', JWKS_OBJECT_KEY: 'jwks.json', SIGNING_ALG: 'RS256' });
    const fullEnv = resources(full.template, 'AWS::Lambda::Function')[logicalId(full.stack.server.keyRotation.function)]!.Properties
      .Environment.Variables;
    expect(fullEnv).toMatchObject({ KEY_ROTATION_DAYS: '45', SIGNING_ALG: 'ES256' });
  });

  test('it may read and write the signing secret, read and put jwks.json, invalidate the distribution, put its key times record (behaviour DASH-7) and send its failures to the queue; nothing else', () => {
    const statements = roleStatements(minimal.template, logicalId(minimal.stack.server.keyRotation.function));
    const actions = statements.flatMap(actionsOf);
    expect(actions).toEqual(
      expect.arrayContaining([
        'secretsmanager:GetSecretValue',
        'secretsmanager:PutSecretValue',
        's3:PutObject',
        'cloudfront:CreateInvalidation',
      ]),
    );
    // DynamoDB: only the put of the key times item (test/infra/storage-grants.test.ts holds its leading key).
    expect(actions.filter((a) => a.startsWith('dynamodb:') || a.startsWith('ses:'))).toEqual(['dynamodb:PutItem']);
    const bucketId = logicalId(minimal.stack.server.jwks.bucket);
    for (const s of statements.filter((st) => actionsOf(st).some((a) => a.startsWith('s3:')))) {
      for (const resource of [s.Resource].flat()) {
        // The bucket itself (for GetBucket*/List*) or its jwks.json object, nothing else.
        expect([
          JSON.stringify({ 'Fn::GetAtt': [bucketId, 'Arn'] }),
          JSON.stringify({ 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId, 'Arn'] }, '/jwks.json']] }),
        ]).toContain(JSON.stringify(resource));
      }
    }
  });
});

describe('first-admin bootstrap', () => {
  test('a custom resource seeds once, hashing with the production policy, into a retained secret', () => {
    minimal.template.resourceCountIs('Custom::AdminBootstrap', 1);
    expect(bootstrapProps(minimal)).toMatchObject({
      AdminEmail: 'admin@example.org',
      DefaultEnvironmentId: seededEnvironmentIds.defaultId,
      DcrEnvironmentId: seededEnvironmentIds.dcrId,
      HashMethod: 'argon2id',
      ClientIdPrefix: 'tgc_',
    });
    expect(bootstrapProps(full)).toMatchObject({ AdminEmail: 'ops@example.net', DcrEnvironmentId: 'env_mcp' });
    const secretId = logicalId(minimal.stack.server.adminBootstrap.secret);
    expect(resources(minimal.template, 'AWS::SecretsManager::Secret')[secretId]).toMatchObject({
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
    });
    expect(bootstrapProps(minimal).SecretId).toEqual({ Ref: secretId });
  });

  test('the handler ships argon2 and may write only the main table and its secret', () => {
    const handler = minimal.stack.server.adminBootstrap.node.findChild('Handler');
    const actions = roleStatements(minimal.template, logicalId(handler)).flatMap(actionsOf);
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:PutItem', 'secretsmanager:PutSecretValue']));
    const text = JSON.stringify(roleStatements(minimal.template, logicalId(handler)));
    expect(text).not.toContain(logicalId(minimal.stack.server.tables.ephemeral));
    expect(text).not.toContain(logicalId(minimal.stack.server.signingKeySecret));
  });

  test('behaviour CIMD-1: a default stack accepts metadata-document clients, with the DCR environment they join', () => {
    expect(healthEnv(minimal)).toMatchObject({ CLIENT_ID_METADATA_DOCUMENTS: 'true', DCR_ENVIRONMENT_ID: seededEnvironmentIds.dcrId });
    expect(healthEnv(synthesize({ CLIENT_ID_METADATA_DOCUMENTS: 'false' })).CLIENT_ID_METADATA_DOCUMENTS).toBe('false');
  });

  test('DCR_ENVIRONMENT_ID is the seeded DCR environment: env_dcr by default, or the given id', () => {
    expect(healthEnv(minimal).DCR_ENVIRONMENT_ID).toBe(seededEnvironmentIds.dcrId);
    expect(healthEnv(full).DCR_ENVIRONMENT_ID).toBe('env_mcp');
  });

  test('the outputs name the credentials secret and carry no credential', () => {
    const outputs = minimal.template.toJSON().Outputs;
    expect(outputs.AdminCredentialsSecretArn.Value).toEqual({ Ref: logicalId(minimal.stack.server.adminBootstrap.secret) });
    expect(JSON.stringify(outputs)).not.toMatch(/password|clientSecret/i);
  });
});

describe('mail', () => {
  test('the SES identity uses a configuration set that requires TLS and suppresses bounces and complaints', () => {
    full.template.hasResourceProperties('AWS::SES::ConfigurationSet', {
      Name: 'authz-mail',
      DeliveryOptions: { TlsPolicy: 'REQUIRE' },
      ReputationOptions: { ReputationMetricsEnabled: true },
      SuppressionOptions: { SuppressedReasons: ['BOUNCE', 'COMPLAINT'] },
    });
    full.template.hasResourceProperties('AWS::SES::EmailIdentity', {
      EmailIdentity: 'auth@mail.example.net',
      ConfigurationSetAttributes: { ConfigurationSetName: { Ref: Match.anyValue() } },
    });
  });

  test('an invalid sender stops synth', () => {
    expect(() => synthesize({ MAIL_FROM: 'not-an-address' })).toThrow(/MAIL_FROM must be an email address/);
  });
});

describe('operations', () => {
  test('access logs go to a log group; execution logs at ERROR without bodies; the account logging role is set and retained', () => {
    const [stage] = Object.values(resources(minimal.template, 'AWS::ApiGateway::Stage'));
    expect(stage!.Properties.AccessLogSetting.DestinationArn).toEqual({
      'Fn::GetAtt': [logicalId(minimal.stack.server.accessLogs), 'Arn'],
    });
    expect(JSON.parse(stage!.Properties.AccessLogSetting.Format)).toMatchObject({
      requestId: '$context.requestId',
      ip: '$context.identity.sourceIp',
      status: '$context.status',
    });
    // The stage-wide setting (`/*/*`) and the per-method throttles of LIMIT-6 all log at ERROR, never bodies.
    const settings: { LoggingLevel: string; DataTraceEnabled: boolean; ResourcePath?: string }[] = stage!.Properties.MethodSettings;
    expect(settings.length).toBeGreaterThan(1);
    expect(settings.every((s) => s.LoggingLevel === 'ERROR' && s.DataTraceEnabled === false)).toBe(true);
    minimal.template.hasResource('AWS::ApiGateway::Account', { DeletionPolicy: 'Retain' });
  });

  test('alarms: API 5xx, function errors and throttles (every function), key rotation, WAF blocks; each notifies the stack’s topic, or ALARM_TOPIC_ARN (behaviour OPS-1)', () => {
    const alarms = Object.values(resources(minimal.template, 'AWS::CloudWatch::Alarm'));
    expect(alarms.some((a) => a.Properties.MetricName === '5XXError' && a.Properties.Namespace === 'AWS/ApiGateway')).toBe(true);
    expect(alarms.some((a) => a.Properties.MetricName === 'BlockedRequests' && a.Properties.Namespace === 'AWS/WAFV2')).toBe(true);
    const functionsWatched = (metricName: string) =>
      alarms.flatMap((a) => (a.Properties.Metrics ?? []).filter((m: any) => m.MetricStat?.Metric.MetricName === metricName)).length;
    const server = minimal.stack.server;
    // Route functions, the fallback, the jobs, the audit archive's exporter (behaviour IAM-4) and the statistics rollup (LOG-10).
    const watched = Object.keys(server.functions).length + 1 + Object.keys(server.jobFunctions).length + 1 + 1;
    expect(functionsWatched('Errors')).toBe(watched);
    expect(functionsWatched('Throttles')).toBe(watched);
    const topic = { Ref: logicalId(minimal.stack.server.alarms.topic) };
    expect(alarms.every((a) => JSON.stringify(a.Properties.AlarmActions) === JSON.stringify([topic]))).toBe(true);
    const fullAlarms = Object.values(resources(full.template, 'AWS::CloudWatch::Alarm'));
    expect(fullAlarms.every((a) => JSON.stringify(a.Properties.AlarmActions) === JSON.stringify([fullContext.ALARM_TOPIC_ARN]))).toBe(true);
  });

  test('a custom domain: regional domain name with TLS 1.2 and the certificate, mapped to the stage, and BASE_URL defaults to it', () => {
    full.template.hasResourceProperties('AWS::ApiGateway::DomainName', {
      DomainName: 'auth.example.net',
      RegionalCertificateArn: fullContext.CERTIFICATE_ARN,
      EndpointConfiguration: { Types: ['REGIONAL'] },
      SecurityPolicy: 'TLS_1_2',
    });
    full.template.resourceCountIs('AWS::ApiGateway::BasePathMapping', 1);
    expect(healthEnv(full).BASE_URL).toBe('https://auth.example.net');
    full.template.hasOutput('CustomDomainTarget', {});
    minimal.template.resourceCountIs('AWS::ApiGateway::DomainName', 0);
  });
});

describe('deploy-time options', () => {
  const read = (context: Record<string, string>) => () =>
    stackPropsFromContext(
      new App({ outdir: assemblyDir(), context: { MAIL_FROM: 'a@example.org', ALARM_EMAIL: 'ops@example.org', ...context } }),
    );

  test('invalid values are reported together, each naming the option', () => {
    try {
      read({ ADMIN_ALLOWED_CIDRS: '10.0.0.0/8,not-a-cidr', KEY_ROTATION_DAYS: '1', DOMAIN_NAME: 'auth.example.net', MAIL_FROM: 'x' })();
      throw new Error('expected a ConfigError');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const text = (error as ConfigError).problems.join('\n');
      expect(text).toMatch(/ADMIN_ALLOWED_CIDRS/);
      expect(text).toMatch(/KEY_ROTATION_DAYS/);
      expect(text).toMatch(/DOMAIN_NAME and CERTIFICATE_ARN must be set together/);
      expect(text).toMatch(/MAIL_FROM/);
    }
  });

  test('empty values mean unset; defaults apply', () => {
    expect(read({ ADMIN_ALLOWED_CIDRS: '', ADMIN_OPEN_TO_INTERNET: 'true', WAF_BOT_CONTROL: '', KEY_ROTATION_DAYS: '' })()).toMatchObject({
      adminAllowlist: [],
      adminOpenToInternet: true,
      botControl: false,
      keyRotationDays: 30,
    });
  });
});
