/**
 * The stack in production: alarms that reach someone, alarms on what
 * breaks quietly (SES reputation, DynamoDB, a key rotation that stopped running), failure
 * destinations for background work, mail that passes DMARC, backups, tags and termination
 * protection. Template assertions on the synthesized stack (behaviour OPS-1..OPS-6).
 */
import { App, type NestedStack, Stack, TagManager } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import * as route53 from 'aws-cdk-lib/aws-route53';
import type { IConstruct } from 'constructs';
import { tableDefinitions, tableNames } from '../../lambdas/adapters/dynamodb/table-definitions';
import { ConfigError } from '../../lambdas/config/settings';
import { metricNames } from '../../lambdas/core/metrics';
import { jobs, routes } from '../../lambdas/routes';
import { keyRotationHeartbeatHours } from '../../lib/alarms';
import { AuthorizationServer, type AuthorizationServerProps } from '../../lib/authorization-server';
import { AuthorizationServerStack } from '../../lib/authorization-server-stack';
import { assemblyDir, flattenNestedStacks, logicalId, resources, roleStatements, synthesize, type Synthesized } from './synthesize';

const topicArn = 'arn:aws:sns:eu-west-1:123456789012:identity-oncall';
const copyVaults = [
  'arn:aws:backup:eu-central-1:123456789012:backup-vault:tollgate-dr',
  'arn:aws:backup:eu-west-1:210987654321:backup-vault:tollgate-vault-account',
];

let minimal: Synthesized;
let full: Synthesized;
let waived: Synthesized;

beforeAll(() => {
  minimal = synthesize();
  full = synthesize({
    ALARM_TOPIC_ARN: topicArn,
    MAIL_FROM: 'auth@example.org',
    MAIL_DOMAIN: 'example.org',
    BACKUP_RETENTION_DAYS: '90',
    BACKUP_COPY_VAULT_ARNS: copyVaults.join(','),
    BACKUP_COPY_RETENTION_DAYS: '365',
    TAGS: 'CostCentre=4711, Project=Identity',
    TERMINATION_PROTECTION: 'false',
  });
  waived = synthesize({ ALARM_EMAIL: '', ALARMS_NOTIFY_NOBODY: 'true', BACKUP: 'false' });
});

const alarm = (s: Synthesized, id: string) => {
  const construct = s.stack.server.alarms.node.findChild(id);
  return resources(s.template, 'AWS::CloudWatch::Alarm')[logicalId(construct)]!.Properties;
};
const allAlarms = (s: Synthesized) => Object.values(resources(s.template, 'AWS::CloudWatch::Alarm')).map((a) => a.Properties);
const problemsOf = (attempt: () => unknown): string[] => {
  try {
    attempt();
  } catch (error) {
    if (error instanceof ConfigError) return [...error.problems];
    throw error;
  }
  throw new Error('expected a ConfigError');
};

describe('alarms reach someone (behaviour OPS-1)', () => {
  test('by default the stack has its own topic (TLS only), ALARM_EMAIL is subscribed to it, and every alarm and recovery notifies it', () => {
    const topic = minimal.stack.server.alarms.topic;
    const ref = { Ref: logicalId(topic) };
    expect(Object.keys(resources(minimal.template, 'AWS::SNS::Topic'))).toContain(logicalId(topic));
    minimal.template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@example.org', TopicArn: ref });
    minimal.template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      Topics: [ref],
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } }, Action: 'sns:Publish' }),
        ]),
      },
    });
    const alarms = allAlarms(minimal);
    expect(alarms.length).toBeGreaterThan(20);
    for (const properties of alarms) {
      expect(properties.AlarmActions).toEqual([ref]);
      expect(properties.OKActions).toEqual([ref]);
    }
    expect(minimal.stack.resolve(Template.fromStack(minimal.stack).toJSON().Outputs.AlarmTopicArn.Value)).toBeDefined();
  });

  test('ALARM_TOPIC_ARN: no topic of the stack’s own for alarms; every alarm notifies that topic, and ALARM_EMAIL is subscribed to it', () => {
    expect(full.stack.server.alarms.topic.topicArn).toBe(topicArn);
    for (const properties of allAlarms(full)) expect(properties.AlarmActions).toEqual([topicArn]);
    full.template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@example.org', TopicArn: topicArn });
    // The only topic left is the mail events topic (behaviour OPS-2).
    expect(Object.keys(resources(full.template, 'AWS::SNS::Topic'))).toEqual([logicalId(full.stack.server.mail.events)]);
  });

  test('neither ALARM_EMAIL nor ALARM_TOPIC_ARN: synth is refused with every other problem, naming both and the waiver', () => {
    const problems = problemsOf(() => synthesize({ ALARM_EMAIL: '', KEY_ROTATION_DAYS: '1' }));
    expect(problems).toEqual([
      expect.stringMatching(/^KEY_ROTATION_DAYS must be/),
      'ALARM_EMAIL or ALARM_TOPIC_ARN must be set, so that the alarms reach someone (or ALARMS_NOTIFY_NOBODY=true to deploy alarms seen in the console only)',
    ]);
    expect(problemsOf(() => synthesize({ ALARM_EMAIL: 'not-an-address' }))).toEqual([
      expect.stringMatching(/^ALARM_EMAIL must be an email address/),
      expect.stringMatching(/^ALARM_EMAIL or ALARM_TOPIC_ARN must be set/),
    ]);
  });

  test('the construct refuses the same in its props’ words, before creating anything', () => {
    const stack = new Stack(new App({ outdir: assemblyDir(), context: { 'aws:cdk:bundling-stacks': [] } }), 'Library');
    const problems = problemsOf(
      () => new AuthorizationServer(stack, 'Server', { mailFrom: 'auth@example.org', adminOpenToInternet: true }),
    );
    expect(problems).toEqual([expect.stringMatching(/^the alarms would notify nobody: set alarmEmail \(ALARM_EMAIL\) or alarmTopic/)]);
    expect(stack.node.findChild('Server').node.children.map((c) => c.node.path)).toEqual([]);
  });

  test('ALARMS_NOTIFY_NOBODY=true waives it: the topic exists without a subscription and the alarms still notify it', () => {
    const topic = waived.stack.server.alarms.topic;
    expect(Object.keys(resources(waived.template, 'AWS::SNS::Subscription'))).toEqual([]);
    for (const properties of allAlarms(waived)) expect(properties.AlarmActions).toEqual([{ Ref: logicalId(topic) }]);
  });
});

describe('alarms on what breaks quietly', () => {
  test('behaviour OPS-3: a missed key rotation is a heartbeat absent for 36 hours, missing data breaching', () => {
    const { namespace, service } = minimal.stack.server.serviceMetrics;
    expect(alarm(minimal, 'KeyRotationMissed')).toMatchObject({
      Namespace: namespace,
      MetricName: metricNames.keyRotationSucceeded,
      Dimensions: [{ Name: 'service', Value: service }],
      Statistic: 'Sum',
      Period: 3600,
      EvaluationPeriods: keyRotationHeartbeatHours,
      Threshold: 1,
      ComparisonOperator: 'LessThanThreshold',
      TreatMissingData: 'breaching',
    });
    expect(keyRotationHeartbeatHours).toBe(36);
    // Every hour must be silent: a run a day keeps it OK, one late run too.
    expect(alarm(minimal, 'KeyRotationMissed').DatapointsToAlarm ?? keyRotationHeartbeatHours).toBe(keyRotationHeartbeatHours);
  });

  test('behaviour OPS-3: the rotation job counts its heartbeat where the alarm looks, and the deploy counts one before the alarm exists', () => {
    const server = minimal.stack.server;
    const functions = resources(minimal.template, 'AWS::Lambda::Function');
    expect(functions[logicalId(server.keyRotation.function)]!.Properties.Environment.Variables).toMatchObject({
      POWERTOOLS_METRICS_NAMESPACE: server.serviceMetrics.namespace,
      POWERTOOLS_SERVICE_NAME: server.serviceMetrics.service,
    });
    const [keySet] = Object.values(resources(minimal.template, 'Custom::SigningKeySet'));
    expect(keySet!.Properties).toMatchObject({
      MetricsNamespace: server.serviceMetrics.namespace,
      MetricsService: server.serviceMetrics.service,
    });
    // The monitoring stack (and so the alarm) is created after the key set's first heartbeat.
    const parent = Template.fromStack(minimal.stack).toJSON().Resources;
    const monitoring = server.node.findChild('Monitoring') as NestedStack;
    const keySetId = logicalId(server.node.findChild('SigningKey').node.findChild('Resource'));
    expect([parent[minimal.stack.getLogicalId(monitoring.nestedStackResource!)].DependsOn].flat()).toContain(keySetId);
  });

  test('DynamoDB: per table, read and write throttles of the table and each index, and internal errors of every operation the service calls', () => {
    for (const name of tableNames) {
      const table = minimal.stack.server.tables[name];
      const id = name.charAt(0).toUpperCase() + name.slice(1);
      const throttles = alarm(minimal, `${id}TableThrottles`);
      const watched = throttles.Metrics.filter((m: any) => m.MetricStat).map((m: any) => ({
        metric: m.MetricStat.Metric.MetricName,
        index: m.MetricStat.Metric.Dimensions.find((d: any) => d.Name === 'GlobalSecondaryIndexName')?.Value,
        table: m.MetricStat.Metric.Dimensions.find((d: any) => d.Name === 'TableName').Value,
      }));
      const indexes = [undefined, ...tableDefinitions[name].globalIndexes.map((i) => i.indexName)];
      expect(watched).toEqual(
        indexes.flatMap((index) =>
          ['ReadThrottleEvents', 'WriteThrottleEvents'].map((metric) => ({ metric, index, table: { Ref: logicalId(table) } })),
        ),
      );
      expect(throttles).toMatchObject({
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        TreatMissingData: 'notBreaching',
      });
      const errors = alarm(minimal, `${id}TableSystemErrors`);
      const operations = errors.Metrics.filter((m: any) => m.MetricStat).map(
        (m: any) => m.MetricStat.Metric.Dimensions.find((d: any) => d.Name === 'Operation').Value,
      );
      expect(operations.sort()).toEqual(
        ['BatchGetItem', 'BatchWriteItem', 'DeleteItem', 'GetItem', 'PutItem', 'Query', 'TransactWriteItems', 'UpdateItem'].sort(),
      );
      expect(errors.Metrics.every((m: any) => !m.MetricStat || m.MetricStat.Metric.MetricName === 'SystemErrors')).toBe(true);
      expect(errors.Threshold).toBe(1);
    }
  });

  test('behaviour OPS-2: SES reputation from the account-level metrics, before the rates at which SES reviews an account', () => {
    expect(alarm(minimal, 'MailBounceRate')).toMatchObject({
      Namespace: 'AWS/SES',
      MetricName: 'Reputation.BounceRate',
      Statistic: 'Maximum',
      Period: 3600,
      Threshold: 0.04,
    });
    expect(alarm(minimal, 'MailBounceRate').Dimensions).toBeUndefined();
    expect(alarm(minimal, 'MailComplaintRate')).toMatchObject({
      Namespace: 'AWS/SES',
      MetricName: 'Reputation.ComplaintRate',
      Statistic: 'Maximum',
      Threshold: 0.0008,
    });
    expect(alarm(minimal, 'MailBouncesAndComplaints')).toMatchObject({
      Namespace: 'AWS/SNS',
      MetricName: 'NumberOfMessagesPublished',
      Dimensions: [{ Name: 'TopicName', Value: { 'Fn::GetAtt': [logicalId(minimal.stack.server.mail.events), 'TopicName'] } }],
      Period: 3600,
      Threshold: 10,
    });
  });

  test('the alarmThresholds prop sets the mail and table thresholds', () => {
    const app = new App({ outdir: assemblyDir(), context: { 'aws:cdk:bundling-stacks': [] } });
    const stack = new AuthorizationServerStack(app, 'Tuned', {
      mailFrom: 'auth@example.org',
      alarmEmail: 'ops@example.org',
      adminOpenToInternet: true,
      alarmThresholds: {
        mailBounceRate: 0.02,
        mailComplaintRate: 0.0005,
        mailBouncesAndComplaintsPerHour: 3,
        tableThrottlesPer5Minutes: 50,
      },
    });
    const template = Template.fromJSON(flattenNestedStacks(stack));
    const threshold = (id: string) =>
      resources(template, 'AWS::CloudWatch::Alarm')[logicalId(stack.server.alarms.node.findChild(id))]!.Properties.Threshold;
    expect([threshold('MailBounceRate'), threshold('MailComplaintRate'), threshold('MailBouncesAndComplaints')]).toEqual([0.02, 0.0005, 3]);
    expect(threshold('MainTableThrottles')).toBe(50);
  });
});

describe('background work that fails for good is kept and alarmed on (behaviour OPS-4)', () => {
  const queueArn = (s: Synthesized) => ({ 'Fn::GetAtt': [logicalId(s.stack.server.asyncFailures.queue), 'Arn'] });

  test('every asynchronously invoked function: 2 retries, an hour at most, then its event to the failures queue, which its role may send to', () => {
    const server = minimal.stack.server;
    const asynchronous = [
      ...routes.filter((r) => r.invokesSelf).map((r) => server.functions[r.name]!),
      ...jobs.map((j) => server.jobFunctions[j.name]!),
      server.keyRotation.function,
    ];
    expect(
      routes
        .filter((r) => r.invokesSelf)
        .map((r) => r.name)
        .sort(),
    ).toEqual(['AuthorizeSignIn', 'ForgotPassword', 'SignIn']);
    const configs = Object.values(resources(minimal.template, 'AWS::Lambda::EventInvokeConfig')).map((c) => c.Properties);
    expect(configs).toHaveLength(asynchronous.length);
    for (const fn of asynchronous) {
      const config = configs.find((c) => c.FunctionName.Ref === logicalId(fn));
      expect(config).toEqual({
        FunctionName: { Ref: logicalId(fn) },
        Qualifier: '$LATEST',
        MaximumRetryAttempts: 2,
        MaximumEventAgeInSeconds: 3600,
        DestinationConfig: { OnFailure: { Destination: queueArn(minimal) } },
      });
      const sends = roleStatements(minimal.template, logicalId(fn)).filter((s) => [s.Action].flat().includes('sqs:SendMessage'));
      expect(sends.map((s) => s.Resource)).toEqual([queueArn(minimal)]);
    }
  });

  test('the daily schedules (and the jwks.json check, behaviour CUSTODY-3) retry delivery, then put the event in the same queue, which lets EventBridge send only for those rules', () => {
    // The rules writing key changes to their log group (behaviour CUSTODY-3) invoke no function.
    const rules = Object.entries(resources(minimal.template, 'AWS::Events::Rule')).filter(
      ([, rule]) => !JSON.stringify(rule.Properties.Targets).includes(':log-group:'),
    );
    expect(rules).toHaveLength(jobs.length + 2);
    for (const [, rule] of rules) {
      expect(rule.Properties.Targets).toEqual([
        expect.objectContaining({
          DeadLetterConfig: { Arn: queueArn(minimal) },
          RetryPolicy: { MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 3600 },
        }),
      ]);
    }
    const [policy] = Object.values(resources(minimal.template, 'AWS::SQS::QueuePolicy'));
    const statements: any[] = policy!.Properties.PolicyDocument.Statement;
    const fromEvents = statements.filter((s) => s.Principal?.Service === 'events.amazonaws.com');
    expect(fromEvents.map((s) => s.Condition.ArnEquals['aws:SourceArn']).sort()).toEqual(
      rules.map(([id]) => ({ 'Fn::GetAtt': [id, 'Arn'] })).sort(),
    );
    expect(statements.some((s) => s.Effect === 'Deny' && s.Condition?.Bool?.['aws:SecureTransport'] === 'false')).toBe(true);
  });

  test('the queue keeps 14 days, encrypted, is never another queue’s dead-letter target, and AsyncWorkFailed fires on its first message', () => {
    const queue = resources(minimal.template, 'AWS::SQS::Queue')[logicalId(minimal.stack.server.asyncFailures.queue)]!.Properties;
    expect(queue).toMatchObject({
      MessageRetentionPeriod: 14 * 24 * 3600,
      SqsManagedSseEnabled: true,
      RedriveAllowPolicy: { redrivePermission: 'denyAll' },
    });
    expect(alarm(minimal, 'AsyncWorkFailed')).toMatchObject({
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [logicalId(minimal.stack.server.asyncFailures.queue), 'QueueName'] } }],
      Statistic: 'Maximum',
      Threshold: 1,
    });
  });
});

describe('mail (behaviour OPS-2, OPS-5)', () => {
  test('the configuration set publishes every bounce and complaint to the mail-events topic, which only SES may publish to for that set', () => {
    const mail = minimal.stack.server.mail;
    minimal.template.hasResourceProperties('AWS::SES::ConfigurationSetEventDestination', {
      ConfigurationSetName: { Ref: logicalId(mail.configurationSet) },
      EventDestination: {
        Enabled: true,
        MatchingEventTypes: ['bounce', 'complaint'],
        SnsDestination: { TopicARN: { Ref: logicalId(mail.events) } },
      },
    });
    minimal.template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      Topics: [{ Ref: logicalId(mail.events) }],
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Action: 'sns:Publish',
            Principal: { Service: 'ses.amazonaws.com' },
            Condition: { StringEquals: Match.objectLike({ 'AWS:SourceArn': Match.anyValue() }) },
          }),
        ]),
      },
    });
  });

  test('MAIL_DOMAIN: a domain identity with Easy DKIM (2048-bit) and a MAIL FROM subdomain, the records to publish as outputs, no warning', () => {
    const mail = full.stack.server.mail;
    full.template.hasResourceProperties('AWS::SES::EmailIdentity', {
      EmailIdentity: 'example.org',
      DkimAttributes: { SigningEnabled: true },
      DkimSigningAttributes: { NextSigningKeyLength: 'RSA_2048_BIT' },
      MailFromAttributes: { MailFromDomain: 'bounce.example.org', BehaviorOnMxFailure: 'USE_DEFAULT_VALUE' },
      ConfigurationSetAttributes: { ConfigurationSetName: { Ref: logicalId(mail.configurationSet) } },
    });
    expect(Object.keys(resources(full.template, 'AWS::SES::EmailIdentity'))).toHaveLength(1);
    const outputs = Template.fromStack(full.stack).toJSON().Outputs;
    const text = (output: string) => JSON.stringify(outputs[output].Value);
    for (const n of [1, 2, 3]) {
      expect(text('MailDkimRecords')).toContain(`DkimDNSTokenName${n}`);
      expect(text('MailDkimRecords')).toContain(`DkimDNSTokenValue${n}`);
    }
    expect(text('MailFromRecords')).toContain(
      '"bounce.example.org MX",{"Fn::Join":["",["10 feedback-smtp.",{"Ref":"AWS::Region"},".amazonses.com"]]}',
    );
    expect(text('MailFromRecords')).toContain('bounce.example.org TXT \\"v=spf1 include:amazonses.com ~all\\"');
    expect(Annotations.fromStack(full.stack).findWarning('*', Match.stringLikeRegexp('email-address identity'))).toEqual([]);
    // The sending rows may send under the domain identity (and the configuration set).
    const forgot = roleStatements(full.template, logicalId(full.stack.server.functions.ForgotPassword!));
    const sendResources = forgot.filter((s) => [s.Action].flat().includes('ses:SendEmail')).flatMap((s) => [s.Resource].flat());
    expect(JSON.stringify(sendResources)).toContain(`identity/",{"Ref":"${logicalId(mail.identity)}"`);
  });

  test('no MAIL_DOMAIN: an email-address identity for MAIL_FROM, no DNS outputs, and synth warns that DMARC-enforcing receivers reject its mail', () => {
    minimal.template.hasResourceProperties('AWS::SES::EmailIdentity', { EmailIdentity: 'no-reply@example.org' });
    expect(Template.fromStack(minimal.stack).toJSON().Outputs.MailDkimRecords).toBeUndefined();
    Annotations.fromStack(minimal.stack).hasWarning('*', Match.stringLikeRegexp('email-address identity.*DMARC.*MAIL_DOMAIN'));
  });

  test('a hosted zone (construct prop): the DKIM CNAMEs and the MAIL FROM MX and SPF records are created in it', () => {
    const app = new App({ outdir: assemblyDir(), context: { 'aws:cdk:bundling-stacks': [] } });
    const stack = new Stack(app, 'Zoned');
    const zone = route53.PublicHostedZone.fromPublicHostedZoneAttributes(stack, 'Zone', {
      hostedZoneId: 'Z0123456789',
      zoneName: 'example.org',
    });
    new AuthorizationServer(stack, 'Server', {
      mailFrom: 'auth@login.example.org',
      mailDomain: 'login.example.org',
      mailFromDomain: 'mail.login.example.org',
      mailHostedZone: zone,
      alarmEmail: 'ops@example.org',
      adminOpenToInternet: true,
    });
    const template = Template.fromStack(stack);
    const records = Object.values(resources(template, 'AWS::Route53::RecordSet')).map((r) => r.Properties);
    expect(records.filter((r) => r.Type === 'CNAME')).toHaveLength(3);
    expect(records.every((r) => r.HostedZoneId === 'Z0123456789')).toBe(true);
    expect(records.filter((r) => r.Type !== 'CNAME').map((r) => [r.Type, r.Name])).toEqual([
      ['MX', 'mail.login.example.org.'],
      ['TXT', 'mail.login.example.org.'],
    ]);
    template.hasResourceProperties('AWS::SES::EmailIdentity', { EmailIdentity: 'login.example.org' });
  });

  test('refused at synth: a sender outside the mail domain, a MAIL FROM domain outside it or the sender’s own, either without a domain', () => {
    expect(problemsOf(() => synthesize({ MAIL_FROM: 'auth@example.com', MAIL_DOMAIN: 'example.org' }))).toEqual([
      expect.stringMatching(/^mailFrom \(MAIL_FROM\) must be an address at mailDomain \(MAIL_DOMAIN\) example\.org/),
    ]);
    expect(
      problemsOf(() => synthesize({ MAIL_FROM: 'a@example.org', MAIL_DOMAIN: 'example.org', MAIL_FROM_DOMAIN: 'bounce.example.com' })),
    ).toEqual([expect.stringMatching(/^mailFromDomain \(MAIL_FROM_DOMAIN\) must be a subdomain of mailDomain/)]);
    expect(
      problemsOf(() => synthesize({ MAIL_FROM: 'a@auth.example.org', MAIL_DOMAIN: 'example.org', MAIL_FROM_DOMAIN: 'auth.example.org' })),
    ).toEqual([
      expect.stringMatching(
        /^mailFromDomain \(MAIL_FROM_DOMAIN\) must be a subdomain of mailDomain \(MAIL_DOMAIN\) example\.org that sends no mail/,
      ),
    ]);
    expect(problemsOf(() => synthesize({ MAIL_FROM_DOMAIN: 'bounce.example.org' }))).toEqual(['MAIL_FROM_DOMAIN needs MAIL_DOMAIN']);
    const stack = new Stack(new App({ outdir: assemblyDir(), context: { 'aws:cdk:bundling-stacks': [] } }), 'Library');
    const zone = route53.PublicHostedZone.fromPublicHostedZoneAttributes(stack, 'Zone', { hostedZoneId: 'Z1', zoneName: 'example.net' });
    const props: AuthorizationServerProps = {
      mailFrom: 'a@example.org',
      alarmEmail: 'ops@example.org',
      adminOpenToInternet: true,
      mailDomain: 'example.org',
      mailHostedZone: zone,
    };
    expect(problemsOf(() => new AuthorizationServer(stack, 'Server', props))).toEqual([
      'mailHostedZone (example.net) must hold mailDomain (MAIL_DOMAIN) example.org',
    ]);
  });
});

describe('backups (behaviour OPS-6)', () => {
  const plan = (s: Synthesized) => Object.values(resources(s.template, 'AWS::Backup::BackupPlan'))[0]!.Properties.BackupPlan;

  test('by default: a daily backup at 04:53 UTC of the main and activity tables (never the ephemeral one), kept 35 days, in a retained vault', () => {
    const { tables, backups } = minimal.stack.server;
    expect(plan(minimal)).toMatchObject({
      BackupPlanRule: [
        {
          RuleName: 'Daily',
          ScheduleExpression: 'cron(53 4 * * ? *)',
          Lifecycle: { DeleteAfterDays: 35 },
          TargetBackupVault: { 'Fn::GetAtt': [logicalId(backups!.vault), 'BackupVaultName'] },
        },
      ],
    });
    expect(plan(minimal).BackupPlanRule[0].CopyActions ?? []).toEqual([]);
    const [selection] = Object.values(resources(minimal.template, 'AWS::Backup::BackupSelection'));
    expect(selection!.Properties.BackupSelection.Resources).toEqual([
      { 'Fn::GetAtt': [logicalId(tables.main), 'Arn'] },
      { 'Fn::GetAtt': [logicalId(tables.activity), 'Arn'] },
    ]);
    expect(JSON.stringify(selection)).not.toContain(logicalId(tables.ephemeral));
    minimal.template.hasResource('AWS::Backup::BackupVault', { DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
    expect(Template.fromStack(minimal.stack).toJSON().Outputs.BackupVaultName).toBeDefined();
  });

  test('BACKUP_RETENTION_DAYS and BACKUP_COPY_VAULT_ARNS: the retention, and a copy to each vault (another region, another account) kept BACKUP_COPY_RETENTION_DAYS', () => {
    const [rule] = plan(full).BackupPlanRule;
    expect(rule.Lifecycle).toEqual({ DeleteAfterDays: 90 });
    expect(rule.CopyActions).toEqual(copyVaults.map((arn) => ({ DestinationBackupVaultArn: arn, Lifecycle: { DeleteAfterDays: 365 } })));
  });

  test('BACKUP=false: no plan (an organization backup policy covers the tables); point-in-time recovery stays on every table', () => {
    expect(waived.stack.server.backups).toBeUndefined();
    expect(Object.keys(resources(waived.template, 'AWS::Backup::BackupPlan'))).toEqual([]);
    for (const table of Object.values(resources(waived.template, 'AWS::DynamoDB::GlobalTable'))) {
      expect(table.Properties.Replicas[0].PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
    }
  });

  test('invalid backup options are refused: a vault that is not a vault ARN, a retention under a day', () => {
    expect(problemsOf(() => synthesize({ BACKUP_COPY_VAULT_ARNS: 'arn:aws:s3:::bucket', BACKUP_RETENTION_DAYS: '0' }))).toEqual([
      expect.stringMatching(/^BACKUP_RETENTION_DAYS must be a whole number of days from 1/),
      expect.stringMatching(/^BACKUP_COPY_VAULT_ARNS must be comma-separated AWS Backup vault ARNs/),
    ]);
  });
});

describe('tags and termination protection (behaviour OPS-6)', () => {
  const taggable = (s: Synthesized) =>
    s.stack.node.findAll().filter((c: IConstruct): c is IConstruct & { tags: TagManager } => TagManager.isTaggable(c));

  test('the stack and every resource of it that takes tags, nested stacks included, carry Project and StackName', () => {
    const tagged = taggable(minimal);
    expect(tagged.length).toBeGreaterThan(200);
    for (const construct of tagged) {
      expect([construct.node.path, construct.tags.tagValues()]).toEqual([
        construct.node.path,
        expect.objectContaining({ Project: 'Tollgate', StackName: 'Test' }),
      ]);
    }
    // As CloudFormation gets them: functions in the nested stacks, tables in their replicas.
    const fn = resources(minimal.template, 'AWS::Lambda::Function')[logicalId(minimal.stack.server.functions.Token!)]!;
    expect(fn.Properties.Tags).toEqual(
      expect.arrayContaining([
        { Key: 'Project', Value: 'Tollgate' },
        { Key: 'StackName', Value: 'Test' },
      ]),
    );
    for (const table of Object.values(resources(minimal.template, 'AWS::DynamoDB::GlobalTable'))) {
      expect(table.Properties.Replicas[0].Tags).toEqual(expect.arrayContaining([{ Key: 'Project', Value: 'Tollgate' }]));
    }
  });

  test('TAGS adds tags and may replace a default’s value; invalid keys or values are refused', () => {
    for (const construct of taggable(full)) {
      expect(construct.tags.tagValues()).toEqual(expect.objectContaining({ Project: 'Identity', StackName: 'Test', CostCentre: '4711' }));
    }
    expect(problemsOf(() => synthesize({ TAGS: 'aws:owner=me' }))).toEqual([
      expect.stringMatching(/^TAGS must be comma-separated key=value pairs/),
    ]);
    expect(problemsOf(() => synthesize({ TAGS: 'Team' }))).toEqual([expect.stringMatching(/^TAGS must be/)]);
  });

  test('termination protection is on by default, from context and for a stack built in code; TERMINATION_PROTECTION=false turns it off', () => {
    expect(minimal.stack.terminationProtection).toBe(true);
    expect(full.stack.terminationProtection).toBe(false);
    const app = new App({ outdir: assemblyDir(), context: { 'aws:cdk:bundling-stacks': [] } });
    const built = new AuthorizationServerStack(app, 'InCode', {
      mailFrom: 'auth@example.org',
      alarmEmail: 'ops@example.org',
      adminOpenToInternet: true,
    });
    expect(built.terminationProtection).toBe(true);
    expect(app.synth().getStackByName('InCode').terminationProtection).toBe(true);
  });
});
