/**
 * The AuthorizationServer construct: the whole service in one piece. The HTTP surface
 * comes from the route table (lambdas/routes.ts): one function and one API method per
 * row, each function granted only what its row names. Each route family has a nested stack
 * of functions and one of API methods (lib/route-families.ts, lib/route-api.ts), to keep every
 * template far from CloudFormation's 500-resource cap; the RestApi with its deployment and
 * stage, the tables and the rest stay in this stack.
 *
 * Decisions a deployer should know (docs/deployment.md has the full guide):
 * - Tables, the JWKS bucket, the signing-key and admin-credential secrets and log groups
 *   are retained when the stack is deleted; tables also have deletion protection on.
 * - The API is a REGIONAL REST API (WAF attaches to REST stages). Access logs and
 *   ERROR-level execution logs are on. API Gateway writes them only when the account-wide
 *   API Gateway CloudWatch role is set, so by default this stack sets it (a role with the
 *   AWS managed push-to-CloudWatch policy, retained on deletion because other APIs of the
 *   account may rely on it). Set `apiGatewayCloudWatchRole: false` where the account
 *   already has one managed elsewhere; without any, the deploy fails.
 * - The signing key set is generated on the first deploy and rotated by a daily job
 *   (lib/key-rotation.ts); changing SIGNING_ALG later applies to the next rotated key.
 * - The first deploy seeds the admin user and admin API client (lib/admin-bootstrap.ts);
 *   their generated credentials are only in a Secrets Manager secret the outputs name.
 * - The admin paths are restricted to `adminAllowlist` at the WAF; without one, synth fails unless
 *   `adminOpenToInternet` says the admin plane is open on purpose (behaviour EXPOSURE-3).
 * - DCR_ENVIRONMENT_ID names the DCR environment the seed creates: the given value, or
 *   `env_dcr` when unset, so DCR works after one deploy; DCR_ENABLED=false turns it off.
 * - Alarms always notify a topic (this construct's, or `alarmTopic`); synth refuses a server
 *   whose topic nobody receives (no `alarmEmail`, no `alarmTopic`) unless `alarmsNotifyNobody`
 *   says so (behaviour OPS-1). Background work that fails for good lands in one queue
 *   (lib/async-failures.ts), the main and activity tables are backed up daily by AWS Backup
 *   (lib/backups.ts), and every resource is tagged (`tags`).
 */
import { Duration, Names, NestedStack, RemovalPolicy, Stack, Tags } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as events from 'aws-cdk-lib/aws-events';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as route53 from 'aws-cdk-lib/aws-route53';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import { tableDefinitions } from '../lambdas/adapters/dynamodb/table-definitions';
import { ConfigError } from '../lambdas/config/settings';
import {
  fallbackHandler,
  jobs,
  keyRotationRecord,
  routes as routeTable,
  type Route,
  statisticsRollup,
  type TableName,
} from '../lambdas/routes';
import { logoContentTypes as siteLogoMediaTypes } from '../lambdas/core/site/settings';
import { AdminBootstrap } from './admin-bootstrap';
import { AuditArchive, type AuditArchiveOptions } from './audit-archive';
import { StatisticsRollup } from './statistics-rollup';
import { AsyncFailures } from './async-failures';
import { type BackupOptions, TableBackups } from './backups';
import { DeviceCookieKey } from './device-cookie-key';
import { Alarms, type ServiceAlarmThresholds } from './alarms';
import { OperationsDashboard } from './dashboard';
import { handlerEntry } from './bundling';
import { infrastructureProblems } from './deployment-options';
import {
  type ConcurrencyPlan,
  concurrencyPlan,
  defaultApiThrottle,
  type MethodThrottle,
  methodThrottles,
  type ReservedConcurrency,
  type ThrottleSettings,
} from './isolation';
import { serviceFunction } from './functions';
import { addGatewayResponses } from './gateway-responses';
import { JwksDistribution, jwksObjectKey, siteAssetKeyPattern } from './jwks';
import { KeyChangeWatch } from './key-change-watch';
import { customerManagedKey, encryptSecrets, tableKeyUse } from './encryption-key';
import { restrictKeyAccess } from './key-custody';
import { KeyRotation } from './key-rotation';
import { routeFamily } from './route-families';
import { addRouteMethods } from './route-api';
import { Mail, mailDomainProblems } from './mail';
import { grantObjects } from './narrow-grants';
import { acknowledgeNagFindings } from './nag-acknowledgements';
import { propLabel, type ServiceSettingsProps, settingsEnvironment, settingsProblems, settingValues } from './service-settings';
import type { ServiceMetricsSource } from './service-metrics';
import { SigningKey } from './signing-key';
import { readActions, storageStatements } from './storage-grants';
import { createTables } from './tables';
import type { WafRate } from './edge-rules';
import { ApiWebAcl } from './web-acl';

/**
 * Everything is optional but `mailFrom`. The service settings (`ServiceSettingsProps`:
 * signing algorithm, MFA policy, passkey RP ID, DCR...) are validated at synth with the
 * functions' own schemas; the other props shape the infrastructure.
 */
export interface AuthorizationServerProps extends ServiceSettingsProps {
  /**
   * API Gateway stage name; the last path segment of the default BASE_URL.
   * @default 'prod'
   */
  readonly stageName?: string;
  /**
   * Memory of every route function, in MiB. Lambda allots CPU in proportion, and
   * Argon2id hashing is CPU-bound, so lower values slow down sign-in and key exchange.
   * @default 1024
   */
  readonly memorySize?: number;
  /**
   * Retention of every function's log group.
   * @default logs.RetentionDays.ONE_MONTH
   */
  readonly logRetention?: logs.RetentionDays;
  /**
   * How long CloudFront and clients cache `jwks.json`; also bounds how soon resource
   * servers see a rotated key set.
   * @default Duration.minutes(5)
   */
  readonly jwksCacheTtl?: Duration;
  /**
   * Days a signing key signs before the scheduled rotation prepares the next one.
   * @default 30
   */
  readonly keyRotationDays?: number;
  /**
   * CIDRs allowed to reach /dashboard* and /api/admin/* through the WAF. Required unless
   * `adminOpenToInternet` is true (behaviour EXPOSURE-3).
   * @default - none: synth fails unless adminOpenToInternet is true
   */
  readonly adminAllowlist?: readonly string[];
  /**
   * Deploy without an admin allowlist on purpose: /dashboard* and /api/admin/* reachable from any
   * address (admin tokens and sessions still required). Must not be combined with `adminAllowlist`.
   * @default false: an empty adminAllowlist fails synth
   */
  readonly adminOpenToInternet?: boolean;
  /**
   * IAM principal ARNs (roles or users of this account, `*` wildcards allowed, e.g. an IAM Identity
   * Center role) of the people or automation that read, rotate and remove the bootstrap admin
   * credentials and rotate the device-cookie key by hand. Named, they are the only principals besides
   * the functions that use those secrets (behaviour CUSTODY-1). The signing key is never theirs.
   * @default - none: IAM decides who may read the bootstrap credentials and write the device-cookie key
   */
  readonly keyOperators?: readonly string[];
  /**
   * One customer-managed KMS key (annual rotation, retained) for the tables, the secrets and every
   * log group, instead of the AWS managed keys: its key policy, and so CloudTrail's record of every
   * use, is the deployer's (behaviour CUSTODY-2). Costs $1 a month plus requests.
   * @default false: AWS managed keys
   */
  readonly customerManagedKey?: boolean;
  /**
   * AWS WAF Bot Control on the browser paths (costs extra).
   * @default false
   */
  readonly botControl?: boolean;
  /**
   * The WAF's catch-all rate rule: every request of one address, whatever its path (behaviour
   * EDGE-7). Must be at least the busiest route rule's rate (the light rule, 1,200 a minute).
   * @default 2,000 per 60 s
   */
  readonly wafRateLimitPerAddress?: WafRate;
  /**
   * Sign-in email of the first admin user, seeded on the first deploy.
   * @default `admin@<domain of MAIL_FROM>`
   */
  readonly adminEmail?: string;
  /**
   * Name of the SES configuration set.
   * @default - generated
   */
  readonly mailConfigurationSetName?: string;
  /**
   * Send under an SES domain identity for this domain, with Easy DKIM (2048-bit) and a custom MAIL
   * FROM domain, so the mail passes the domain's DMARC policy (behaviour OPS-5). MAIL_FROM must be
   * an address at it or at a subdomain. The stack outputs the DNS records to publish, unless
   * `mailHostedZone` is given.
   * @default - none: an email-address identity for MAIL_FROM (no DKIM for its domain; synth warns)
   */
  readonly mailDomain?: string;
  /**
   * The custom MAIL FROM domain (bounces go there; SPF aligns with the sender): a subdomain of
   * `mailDomain` that sends and receives no other mail.
   * @default `bounce.<mailDomain>`
   */
  readonly mailFromDomain?: string;
  /**
   * Route 53 public hosted zone holding `mailDomain`: the DKIM CNAMEs and the MAIL FROM MX and SPF
   * records are created in it.
   * @default - none: publish the records the stack outputs
   */
  readonly mailHostedZone?: route53.IPublicHostedZone;
  /**
   * Custom domain of the issuer: a regional API Gateway domain name with this ACM
   * certificate (same region), mapped at the root to the stage. Point a DNS alias or
   * CNAME at the `CustomDomainTarget` output.
   * @default - none: the execute-api address is the issuer
   */
  readonly customDomain?: { readonly domainName: string; readonly certificateArn: string };
  /**
   * An alias of the JWKS CloudFront distribution with its ACM certificate, which must be in
   * us-east-1 whatever the stack's region. Served with TLS 1.2 or newer (TLSv1.2_2021), and the
   * default JWKS_CDN_BASE_URL becomes `https://<domainName>`. Point a DNS alias or CNAME at the
   * `JwksDomainTarget` output (behaviour EXPOSURE-2).
   * @default - none: the *.cloudfront.net name with CloudFront's default certificate, which accepts TLSv1
   */
  readonly jwksDomain?: { readonly domainName: string; readonly certificateArn: string };
  /**
   * Set the account-wide API Gateway CloudWatch role, which access and execution logs
   * need. Turn off only when the account already has one.
   * @default true
   */
  readonly apiGatewayCloudWatchRole?: boolean;
  /**
   * SNS topic the CloudWatch alarms notify (alarm and OK), instead of the one this construct creates.
   * @default - a topic of this construct (`alarms.topic`, output `AlarmTopicArn`)
   */
  readonly alarmTopic?: sns.ITopic;
  /**
   * Address subscribed to the alarm topic by email (SNS mails it a confirmation link first). Use a
   * team's list, not a person's mailbox.
   * @default - none
   */
  readonly alarmEmail?: string;
  /**
   * Deploy although nobody receives the alarms: neither `alarmEmail` nor `alarmTopic` is given.
   * Without it, synth refuses such a server (behaviour OPS-1); the alarms still notify the
   * construct's topic, for subscriptions added later.
   * @default false
   */
  readonly alarmsNotifyNobody?: boolean;
  /**
   * Thresholds of the alarms on the service's own metrics (refusal spikes, the registration cap).
   * @default - the defaults of each ServiceAlarmThresholds field
   */
  readonly alarmThresholds?: ServiceAlarmThresholds;
  /**
   * CloudWatch namespace of the service's own metrics (tokens issued and refused, registrations,
   * sign-in failures, ...). Each deployment has its own `service` dimension within it.
   * @default 'Tollgate'
   */
  readonly metricsNamespace?: string;
  /**
   * AWS X-Ray: active tracing on every function and tracing on the API stage, and each AWS SDK call
   * a function makes recorded as a subsegment (Powertools Tracer, bundled only into a traced
   * deployment's functions and imported on their first AWS call: lib/bundling.ts `tracingModules`).
   * Traced requests are billed by X-Ray past its free tier.
   * @default false
   */
  readonly tracing?: boolean;
  /**
   * The append-only copy of the admin audit log (behaviour IAM-4): every audit entry, as written,
   * changed or removed, copied from the activity table's stream to an S3 bucket under Object Lock.
   * @default { retentionDays: 365, mode: 'COMPLIANCE' }
   */
  readonly auditArchive?: AuditArchiveOptions;
  /**
   * Lambda reserved concurrency of each route function, by route family (lib/route-families.ts),
   * and of the fallback: each function always has that many executions and never runs more, so
   * a flood on one route stops at its own function and the token endpoints keep theirs whatever
   * the browser and admin families do (behaviour LIMIT-5). Reservations come out of the account's
   * unreserved pool (docs/deployment.md, "Isolation", has the arithmetic); `false` reserves none,
   * for accounts whose concurrency limit cannot spare it.
   * @default { token: 30, browser: 5, public: 5, admin: 2, fallback: 5 } per function
   */
  readonly reservedConcurrency?: false | ReservedConcurrency;
  /**
   * The account's Lambda concurrency limit in this region (Service Quotas, "Concurrent
   * executions"): synth fails when the reservations would leave fewer than the 100 unreserved
   * executions Lambda requires, rather than the deploy.
   * @default 1000
   */
  readonly accountConcurrencyLimit?: number;
  /**
   * API Gateway throttling of every method of the stage, all callers together, each method its
   * own bucket; past it API Gateway answers 429 `too_many_requests` without calling the function
   * (behaviour LIMIT-6).
   * @default { rateLimit: 500, burstLimit: 1000 }
   */
  readonly apiThrottle?: ThrottleSettings;
  /**
   * The methods that send mail and have an edge rule of their own are throttled at their edge
   * rate times this many addresses (behaviour LIMIT-6), below `apiThrottle`.
   * @default 100
   */
  readonly mailThrottleCallers?: number;
  /**
   * Daily AWS Backup of the main and activity tables: retention, and copies to vaults in another
   * region or account (behaviour OPS-6). Point-in-time recovery is on for every table regardless.
   * @default - daily at 04:53 UTC, kept 35 days, no copies
   */
  readonly backup?: BackupOptions;
  /**
   * Tags on every resource of the server that takes tags (CDK `Tags.of`), besides the defaults
   * `Project: Tollgate` and `StackName: <stack name>`; a key given here replaces a default's value.
   * @default - the two defaults only
   */
  readonly tags?: { [key: string]: string };
  /**
   * The route rows to deploy (functions, methods, WAF rate rules). Tests pass more rows
   * to check that the templates keep room for the routes still to come.
   * @default the route table of lambdas/routes.ts
   */
  readonly routes?: readonly Route[];
}

/** The tags of every resource (the `tags` prop over the defaults): behaviour OPS-6. */
export const resourceTags = (stack: Stack, given: { [key: string]: string } = {}): Record<string, string> => ({
  Project: 'Tollgate',
  StackName: stack.stackName,
  ...given,
});

/** Ids the deploy-time seed gives its two environments (DCR_ENVIRONMENT_ID may override the second). */
export const seededEnvironmentIds = { defaultId: 'env_default', dcrId: 'env_dcr' } as const;

export class AuthorizationServer extends Construct {
  readonly api: apigateway.RestApi;
  readonly tables: Readonly<Record<TableName, dynamodb.TableV2>>;
  /** Route functions by route name (`routes[i].name`), each in its family's nested stack. */
  readonly functions: Readonly<Record<string, NodejsFunction>>;
  /** The nested stacks holding the route functions, by family (lib/route-families.ts). */
  readonly functionStacks: Readonly<Record<string, NestedStack>>;
  /** The nested stacks holding the routes' API methods and path resources, by family (lib/route-api.ts). */
  readonly methodStacks: Readonly<Record<string, NestedStack>>;
  /** Scheduled job functions by job name (`jobs[i].name`). */
  readonly jobFunctions: Readonly<Record<string, NodejsFunction>>;
  /** The route functions that write the site logo under `branding/` of the JWKS bucket. */
  readonly siteAssetFunctions: readonly NodejsFunction[];
  /** Answers 404/405 for everything no route row takes. */
  readonly fallbackFunction: NodejsFunction;
  readonly jwks: JwksDistribution;
  readonly signingKeySecret: secretsmanager.ISecret;
  /** The deploy-time function that creates the signing key set and publishes jwks.json. */
  readonly signingKeyHandler: NodejsFunction;
  /** The device cookies' HMAC key (behaviour PWFAIL-6), read by the rows that say `deviceCookies`. */
  readonly deviceCookieKeySecret: secretsmanager.ISecret;
  readonly keyRotation: KeyRotation;
  /** Behaviour CUSTODY-3: who changed the signing key or jwks.json, and the verification of every jwks.json write. */
  readonly keyChangeWatch: KeyChangeWatch;
  /** The customer-managed key of behaviour CUSTODY-2, when `customerManagedKey` is on. */
  readonly encryptionKey?: kms.IKey;
  readonly mail: Mail;
  readonly adminBootstrap: AdminBootstrap;
  readonly webAcl: ApiWebAcl;
  /** The audit log's append-only copy (behaviour IAM-4). */
  readonly auditArchive: AuditArchive;
  /** The function that keeps the overview's counts (behaviour LOG-10 to LOG-13); `{"recount": true}` recounts. */
  readonly statisticsRollup: StatisticsRollup;
  readonly alarms: Alarms;
  readonly dashboard: OperationsDashboard;
  /** Async invocations and scheduled deliveries that failed after their retries (behaviour OPS-4). */
  readonly asyncFailures: AsyncFailures;
  /** The daily AWS Backup of the main and activity tables, unless `backup.enabled` is false. */
  readonly backups?: TableBackups;
  /** Where the service's own metrics are: the namespace and this deployment's `service` dimension. */
  readonly serviceMetrics: ServiceMetricsSource;
  /** Whether X-Ray tracing is on (the `tracing` prop). */
  readonly tracing: boolean;
  readonly accessLogs: logs.LogGroup;
  /** The reserved concurrency of every route function and of the fallback (the `reservedConcurrency` prop). */
  readonly concurrency: ConcurrencyPlan;
  /** The methods throttled below the stage-wide `apiThrottle` (the mail-sending rows, behaviour LIMIT-6). */
  readonly methodThrottles: readonly MethodThrottle[];
  /** The custom domain, when one is configured. */
  readonly domainName?: apigateway.DomainName;
  /** The issuer (`BASE_URL`). */
  readonly issuerUrl: string;
  readonly jwksUrl: string;

  constructor(scope: Construct, id: string, props: AuthorizationServerProps) {
    super(scope, id);
    // Every wrong prop at once, before any resource exists.
    const problems = [...settingsProblems(props), ...infrastructureProblems(props), ...mailDomainProblems(props)];
    // Behaviour OPS-1: an alarm nobody receives is found out by its outage.
    if (!props.alarmTopic && !props.alarmEmail && props.alarmsNotifyNobody !== true) {
      problems.push(
        'the alarms would notify nobody: set alarmEmail (ALARM_EMAIL) or alarmTopic (ALARM_TOPIC_ARN), or alarmsNotifyNobody: true (ALARMS_NOTIFY_NOBODY=true) to deploy alarms seen in the console only',
      );
    }
    if (problems.length > 0) throw new ConfigError(problems);
    const stack = Stack.of(this);
    for (const [key, value] of Object.entries(resourceTags(stack, props.tags))) Tags.of(this).add(key, value);
    const stageName = props.stageName ?? 'prod';
    const memorySize = props.memorySize ?? 1024;
    const logRetention = props.logRetention ?? logs.RetentionDays.ONE_MONTH;
    const jwksCacheTtl = props.jwksCacheTtl ?? Duration.minutes(5);
    const apiGatewayCloudWatchRole = props.apiGatewayCloudWatchRole ?? true;
    this.tracing = props.tracing ?? false;
    // The path-derived id: unique within the app, so two servers side by side keep their metrics apart.
    this.serviceMetrics = { namespace: props.metricsNamespace ?? 'Tollgate', service: Names.uniqueId(this) };

    const routes = props.routes ?? routeTable;
    this.concurrency = concurrencyPlan(routes, props.reservedConcurrency, props.accountConcurrencyLimit);
    const apiThrottle = props.apiThrottle ?? defaultApiThrottle;
    this.methodThrottles = methodThrottles(routes, apiThrottle, props.mailThrottleCallers);

    this.encryptionKey = props.customerManagedKey ? customerManagedKey(this) : undefined;
    this.tables = createTables(this, this.encryptionKey);
    this.asyncFailures = new AsyncFailures(this, 'AsyncFailures');
    if (props.backup?.enabled !== false) {
      this.backups = new TableBackups(this, 'Backups', { ...props.backup, tables: [this.tables.main, this.tables.activity] });
    }
    // Access logs: who called what and the outcome; never headers, bodies or query strings.
    this.accessLogs = new logs.LogGroup(this, 'ApiAccessLogs', { retention: logRetention });
    this.api = new apigateway.RestApi(this, 'Api', {
      // API Gateway's metrics are keyed by the API's name: the default ("Api") would make every
      // deployment in an account count into the other's dashboard and 5xx alarm.
      restApiName: Names.uniqueId(this),
      description: 'OAuth 2.1 authorization server',
      endpointTypes: [apigateway.EndpointType.REGIONAL],
      deployOptions: {
        stageName,
        accessLogDestination: new apigateway.LogGroupLogDestination(this.accessLogs),
        accessLogFormat: apigateway.AccessLogFormat.jsonWithStandardFields({
          caller: false,
          httpMethod: true,
          ip: true,
          protocol: true,
          requestTime: true,
          resourcePath: true,
          responseLength: true,
          status: true,
          user: false,
        }),
        // Errors only, and never request or response bodies (they carry secrets).
        loggingLevel: apigateway.MethodLoggingLevel.ERROR,
        dataTraceEnabled: false,
        tracingEnabled: this.tracing,
        // Behaviour LIMIT-6: every method its own bucket; the mail-sending rows lower, each with
        // the stage's logging repeated (a method's settings replace the stage's for that method).
        throttlingRateLimit: apiThrottle.rateLimit,
        throttlingBurstLimit: apiThrottle.burstLimit,
        methodOptions: Object.fromEntries(
          this.methodThrottles.map(({ route, throttle }) => [
            `${route.path}/${route.method}`,
            {
              throttlingRateLimit: throttle.rateLimit,
              throttlingBurstLimit: throttle.burstLimit,
              loggingLevel: apigateway.MethodLoggingLevel.ERROR,
              dataTraceEnabled: false,
            },
          ]),
        ),
      },
      // Bodies of these types reach the functions base64-encoded (isBase64Encoded), bytes intact:
      // the logo upload (behaviour SITE-3) and the dashboard's multipart form.
      binaryMediaTypes: [...siteLogoMediaTypes, 'multipart/form-data'],
      cloudWatchRole: apiGatewayCloudWatchRole,
      // Behaviour EXPOSURE-1: with a custom domain the issuer is there, and the execute-api endpoint
      // would be a second address outside the domain's settings.
      ...(props.customDomain ? { disableExecuteApiEndpoint: true } : {}),
      // Account-wide: other APIs of the account may log through it after this stack is gone.
      // (RestApi refuses a removal policy without the role, so `false` did not synthesize.)
      ...(apiGatewayCloudWatchRole ? { cloudWatchRoleRemovalPolicy: RemovalPolicy.RETAIN } : {}),
    });
    // Behaviour EXPOSURE-1: a Regional API's default endpoint accepts TLS 1.0 unless the API itself has a
    // policy (no RestApi prop for it in this CDK version). API Gateway negotiates with the API's policy on
    // the custom domain too. TLS_1_2: TLS 1.2 and 1.3; the enhanced SecurityPolicy_* ones also need an
    // endpoint access mode and buy nothing this service needs.
    (this.api.node.defaultChild as apigateway.CfnRestApi).securityPolicy = apigateway.SecurityPolicy.TLS_1_2;
    // Created here with a retention, before API Gateway would create it without one.
    const executionLogs = new logs.LogGroup(this, 'ApiExecutionLogs', {
      logGroupName: `API-Gateway-Execution-Logs_${this.api.restApiId}/${stageName}`,
      retention: logRetention,
    });
    this.api.deploymentStage.node.addDependency(executionLogs);
    addGatewayResponses(this.api);
    this.jwks = new JwksDistribution(this, 'Jwks', { cacheTtl: jwksCacheTtl, domain: props.jwksDomain });

    if (props.customDomain) {
      this.domainName = this.api.addDomainName('CustomDomain', {
        domainName: props.customDomain.domainName,
        certificate: acm.Certificate.fromCertificateArn(this, 'Certificate', props.customDomain.certificateArn),
        endpointType: apigateway.EndpointType.REGIONAL,
        securityPolicy: apigateway.SecurityPolicy.TLS_1_2,
      });
    }

    // Built from the API id rather than the stage: functions referencing the stage
    // would depend on the deployment, which depends on the functions' methods.
    const defaultBaseUrl = props.customDomain
      ? `https://${props.customDomain.domainName}`
      : `https://${this.api.restApiId}.execute-api.${Stack.of(this).region}.${Stack.of(this).urlSuffix}/${stageName}`;
    const given = settingValues(props);
    const dcrEnvironmentId = present(given.DCR_ENVIRONMENT_ID) ?? seededEnvironmentIds.dcrId;
    const settings = settingsEnvironment(
      {
        ...given,
        BASE_URL: present(given.BASE_URL) ?? defaultBaseUrl,
        JWKS_CDN_BASE_URL: present(given.JWKS_CDN_BASE_URL) ?? this.jwks.baseUrl,
        DCR_ENVIRONMENT_ID: dcrEnvironmentId,
      },
      propLabel,
    );
    const mailFrom = settings.MAIL_FROM!;
    this.issuerUrl = settings.BASE_URL!.replace(/\/+$/, '');
    this.jwksUrl = `${settings.JWKS_CDN_BASE_URL!.replace(/\/+$/, '')}/${jwksObjectKey}`;

    const signingKey = new SigningKey(this, 'SigningKey', {
      bucket: this.jwks.bucket,
      objectKey: jwksObjectKey,
      alg: settings.SIGNING_ALG!,
      cacheTtl: jwksCacheTtl,
      logRetention,
      serviceMetrics: this.serviceMetrics,
    });
    this.signingKeySecret = signingKey.secret;
    this.signingKeyHandler = signingKey.handler;
    this.deviceCookieKeySecret = new DeviceCookieKey(this, 'DeviceCookieKey').secret;

    this.keyRotation = new KeyRotation(this, 'KeyRotation', {
      secret: signingKey.secret,
      bucket: this.jwks.bucket,
      objectKey: jwksObjectKey,
      distribution: this.jwks.distribution,
      cacheTtl: jwksCacheTtl,
      alg: settings.SIGNING_ALG!,
      rotationDays: props.keyRotationDays,
      logRetention,
      serviceMetrics: this.serviceMetrics,
      failures: this.asyncFailures,
      mainTableName: this.tables.main.tableName,
    });
    this.grantStorage(this.keyRotation.function, keyRotationRecord.storage);

    // The scheduled jobs and the key-change watch in a nested stack of their own, to keep the stack
    // far from CloudFormation's 500 resources per template.
    const jobsStack = new NestedStack(this, 'Jobs', { description: 'Scheduled jobs and the key-change watch' });
    this.keyChangeWatch = new KeyChangeWatch(jobsStack, 'KeyChangeWatch', {
      signingKeySecret: signingKey.secret,
      bucket: this.jwks.bucket,
      objectKey: jwksObjectKey,
      publishers: [this.keyRotation.function, signingKey.handler],
      verifier: this.keyRotation.function,
      logRetention,
      failures: this.asyncFailures,
    });

    this.mail = new Mail(this, 'Mail', {
      from: mailFrom,
      configurationSetName: props.mailConfigurationSetName,
      domain: props.mailDomain,
      mailFromDomain: props.mailFromDomain,
      hostedZone: props.mailHostedZone,
    });

    this.adminBootstrap = new AdminBootstrap(this, 'AdminBootstrap', {
      tables: this.tables,
      adminEmail: props.adminEmail ?? `admin@${mailFrom.split('@')[1]}`,
      defaultEnvironmentId: seededEnvironmentIds.defaultId,
      dcrEnvironmentId,
      clientIdPrefix: settings.CLIENT_ID_PREFIX!,
      hashMethod: settings.HASH_METHOD!,
      issuer: this.issuerUrl,
      logRetention,
    });

    const environment: Record<string, string> = {
      ...settings,
      // Read by the wiring (lambdas/wiring/container.ts) for the metrics' namespace and service dimension.
      POWERTOOLS_METRICS_NAMESPACE: this.serviceMetrics.namespace,
      POWERTOOLS_SERVICE_NAME: this.serviceMetrics.service,
    };
    for (const definition of Object.values(tableDefinitions)) {
      environment[definition.envVar] = this.tables[definition.name].tableName;
    }

    // `routes` is read above (the concurrency plan and the throttles need it first).
    const adminAllowlist = props.adminAllowlist ?? [];
    const functions: Record<string, NodejsFunction> = {};
    const functionStacks: Record<string, NestedStack> = {};
    const apiGateway = new iam.ServicePrincipal('apigateway.amazonaws.com');
    for (const route of routes) {
      const family = routeFamily(route);
      const familyStack = (functionStacks[family.id] ??= new NestedStack(this, family.id, { description: family.description }));
      const fn = serviceFunction(familyStack, route.name, {
        entry: handlerEntry(route.handler),
        description: `${route.method} ${route.path}`,
        environment: {
          ...environment,
          ...(route.signs ? { SIGNING_KEY_SECRET_ARN: signingKey.secret.secretArn } : {}),
          ...(route.deviceCookies ? { DEVICE_COOKIE_KEY_SECRET_ARN: this.deviceCookieKeySecret.secretArn } : {}),
          ...(route.writesSiteAssets ? { SITE_ASSETS_BUCKET: this.jwks.bucket.bucketName } : {}),
          // Behaviour EDGE-4: the web ACL lets these rows through from anywhere; their functions hold admin callers to the list.
          ...(route.selfService && adminAllowlist.length > 0 ? { ADMIN_ALLOWED_CIDRS: adminAllowlist.join(',') } : {}),
        },
        memorySize,
        logRetention,
        hashes: route.hashes,
        tracing: this.tracing,
        reservedConcurrency: this.concurrency.routes[route.name],
      });
      this.grant(fn, route, signingKey.secret);
      // Its own asynchronous invocations (lambdas/wiring/background.ts): retried, then kept (behaviour OPS-4).
      if (route.invokesSelf) this.asyncFailures.watch(fn);
      // One invoke permission, beside the function, for its one method. Named with the stage
      // as a string, not the Stage resource: the stage depends on the deployment, which
      // depends on the methods, which depend on this nested stack. No test-invoke permission:
      // it would double the permissions for the console's Test button only.
      fn.addPermission('ApiInvoke', {
        principal: apiGateway,
        sourceArn: this.api.arnForExecuteApi(route.method, route.path.replace(/\{[^}]*\}/g, '*'), stageName),
      });
      functions[route.name] = fn;
    }
    this.functions = functions;
    this.functionStacks = functionStacks;
    this.siteAssetFunctions = routes.filter((r) => r.writesSiteAssets).map((r) => functions[r.name]!);

    // Unmatched methods on routed paths (405) and unknown paths (404). The fallback
    // reads no table but still gets the environment: it loads the same configuration.
    this.fallbackFunction = serviceFunction(this, 'Fallback', {
      entry: handlerEntry(fallbackHandler),
      description: 'Unrouted requests: 404 or 405',
      environment,
      memorySize,
      logRetention,
      tracing: this.tracing,
      reservedConcurrency: this.concurrency.fallback,
    });
    // One API-wide invoke permission instead of two per method: the fallback serves
    // every method anyway, and per-method statements would outgrow the Lambda policy limit.
    const fallback = new apigateway.LambdaIntegration(this.fallbackFunction, { scopePermissionToMethod: false });
    this.methodStacks = addRouteMethods(this, {
      api: this.api,
      routes,
      // A Lambda proxy integration without LambdaIntegration's own permission, which it would put
      // beside the method; the function's own stack holds it (ApiInvoke above).
      integrationOf: (route) =>
        new apigateway.AwsIntegration({
          proxy: true,
          service: 'lambda',
          path: `2015-03-31/functions/${functions[route.name]!.functionArn}/invocations`,
        }),
      fallback,
    });
    this.api.root.addMethod('ANY', fallback);
    this.api.root.addResource('{proxy+}').addMethod('ANY', fallback);

    // Scheduled jobs: one function and one daily EventBridge rule each, with only their table grants
    // (in the Jobs nested stack above).
    const jobFunctions: Record<string, NodejsFunction> = {};
    for (const job of jobs) {
      const fn = serviceFunction(jobsStack, job.name, {
        entry: `lambdas/jobs/${job.handler}.ts`,
        description: `Scheduled: ${job.name}`,
        environment,
        memorySize: 256,
        timeout: Duration.minutes(5),
        logRetention,
        tracing: this.tracing,
      });
      this.grantStorage(fn, job.storage);
      this.asyncFailures.watch(fn);
      new events.Rule(jobsStack, `${job.name}Schedule`, {
        schedule: events.Schedule.cron({ hour: String(job.dailyAt.hour), minute: String(job.dailyAt.minute) }),
        targets: [new targets.LambdaFunction(fn, this.asyncFailures.targetOptions())],
      });
      jobFunctions[job.name] = fn;
    }
    this.jobFunctions = jobFunctions;

    // Behaviour LOG-10 to LOG-13: the overview's counts, rolled up from the main and activity tables' streams.
    this.statisticsRollup = new StatisticsRollup(jobsStack, 'StatisticsRollup', {
      tables: this.tables,
      environment,
      logRetention,
      tracing: this.tracing,
      failures: this.asyncFailures.queue,
    });
    this.grantStorage(this.statisticsRollup.function, statisticsRollup.storage);

    // A nested stack of its own, as the monitoring below (CloudFormation's 500 resources per template).
    const audit = new NestedStack(this, 'Audit', { description: 'The audit log’s append-only copy (behaviour IAM-4)' });
    this.auditArchive = new AuditArchive(audit, 'AuditArchive', { ...props.auditArchive, table: this.tables.activity, logRetention });
    // Behaviour CUSTODY-2: the stream's records are the activity table's, under its key.
    if (this.encryptionKey) this.auditArchive.function.addToRolePolicy(tableKeyUse(this.encryptionKey, false));

    this.webAcl = new ApiWebAcl(this, 'Waf', {
      stageArn: this.api.deploymentStage.stageArn,
      stageName,
      routes,
      adminAllowlist: props.adminAllowlist,
      botControl: props.botControl,
      ...(props.wafRateLimitPerAddress ? { catchAll: props.wafRateLimitPerAddress } : {}),
      logRetention,
    });

    // Alarms and the dashboard in a nested stack of their own (CloudFormation's 500 resources per template).
    const monitoring = new NestedStack(this, 'Monitoring', { description: 'Alarms and the operations dashboard' });
    // The deploy's key-set check counts the first heartbeat before KeyRotationMissed exists (behaviour OPS-3).
    monitoring.node.addDependency(signingKey.resource);
    const alarmTopic = props.alarmTopic ?? new sns.Topic(monitoring, 'AlarmTopic', { displayName: 'Tollgate alarms', enforceSSL: true });
    if (props.alarmEmail) alarmTopic.addSubscription(new subscriptions.EmailSubscription(props.alarmEmail));
    this.alarms = new Alarms(monitoring, 'Alarms', {
      api: this.api,
      functions: [
        ...Object.values(this.functions),
        this.fallbackFunction,
        ...Object.values(this.jobFunctions),
        this.auditArchive.function,
        this.statisticsRollup.function,
      ],
      keyRotation: this.keyRotation.function,
      keyChanges: this.keyChangeWatch.log,
      webAclName: this.webAcl.webAclName,
      region: stack.region,
      topic: alarmTopic,
      tables: this.tables,
      asyncFailures: this.asyncFailures.queue,
      mailEvents: this.mail.events,
      serviceMetrics: this.serviceMetrics,
      serviceThresholds: props.alarmThresholds,
    });

    this.dashboard = new OperationsDashboard(monitoring, 'Operations', {
      api: this.api,
      serviceMetrics: this.serviceMetrics,
      alarms: this.alarms.alarms,
    });

    restrictKeyAccess({
      signingKey: {
        secret: signingKey.secret,
        users: [...routes.filter((r) => r.signs).map((r) => functions[r.name]!), this.keyRotation.function, signingKey.handler],
      },
      deviceCookieKey: {
        secret: this.deviceCookieKeySecret,
        readers: routes.filter((r) => r.deviceCookies).map((r) => functions[r.name]!),
      },
      adminCredentials: { secret: this.adminBootstrap.secret, writer: this.adminBootstrap.handler },
      jwks: {
        bucket: this.jwks.bucket,
        objectKey: jwksObjectKey,
        writers: [this.keyRotation.function, signingKey.handler],
        siteAssetKeyPattern,
        siteAssetWriters: this.siteAssetFunctions,
      },
      operators: props.keyOperators ?? [],
    });

    if (this.encryptionKey) {
      const signers = routes.filter((r) => r.signs).map((r) => functions[r.name]!);
      encryptSecrets(this.encryptionKey, [
        { secret: signingKey.secret, readers: signers, writers: [this.keyRotation.function, signingKey.handler] },
        { secret: this.deviceCookieKeySecret, readers: routes.filter((r) => r.deviceCookies).map((r) => functions[r.name]!), writers: [] },
        { secret: this.adminBootstrap.secret, readers: [], writers: [this.adminBootstrap.handler] },
      ]);
      this.adminBootstrap.handler.addToRolePolicy(tableKeyUse(this.encryptionKey, true));
    }

    acknowledgeNagFindings(this);
  }

  /** Least privilege: exactly the storage access, secrets and mail identity the row names. */
  private grant(fn: NodejsFunction, route: Route, signingKeySecret: secretsmanager.ISecret): void {
    this.grantStorage(fn, route.storage);
    // Verifiers read the public JWKS from the CDN (wiring/signing.ts): only signers hold the private key.
    if (route.signs) signingKeySecret.grantRead(fn);
    if (route.deviceCookies) this.deviceCookieKeySecret.grantRead(fn);
    if (route.sendsMail) this.mail.grantSend(fn);
    // The logo (behaviour SITE-3): objects under branding/ only, never jwks.json beside them.
    if (route.writesSiteAssets) {
      grantObjects(this.jwks.bucket, fn, ['s3:PutObject', 's3:DeleteObject'], siteAssetKeyPattern);
    }
    // Background work (lambdas/wiring/background.ts). A policy of its own: the function's default
    // policy naming the function's ARN would make the function depend on itself.
    if (route.invokesSelf) {
      new iam.Policy(fn, 'InvokeSelf', {
        roles: [fn.role!],
        statements: [new iam.PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [fn.functionArn] })],
      });
    }
  }

  /** Item-level DynamoDB grants (behaviour IAM-1, IAM-2): the actions and key families the row declares. */
  private grantStorage(fn: NodejsFunction, access: Route['storage']): void {
    const statements = storageStatements(access, this.tables);
    for (const statement of statements) fn.addToRolePolicy(statement);
    // Behaviour CUSTODY-2 (lib/tables.ts sets the key outside the L2 table, which cannot grant it).
    // In the role's own policy: Key.grant would name roles of the nested stacks in the key policy,
    // a dependency cycle; the key policy lets the account's IAM decide.
    if (this.encryptionKey && statements.length > 0) {
      const writes = statements.some((statement) => statement.actions.some((action) => !readActions.has(action)));
      fn.addToRolePolicy(tableKeyUse(this.encryptionKey, writes));
    }
  }
}

const present = (value: string | undefined): string | undefined => (value?.trim() ? value.trim() : undefined);
