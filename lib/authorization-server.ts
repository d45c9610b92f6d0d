/**
 * The AuthorizationServer construct: the whole service in one piece. The HTTP surface
 * comes from the route table (lambdas/routes.ts): one function and one API method per
 * row, each function granted only what its row names.
 *
 * Decisions a deployer should know:
 * - Tables, the JWKS bucket, the signing-key secret and log groups are retained when
 *   the stack is deleted; tables also have deletion protection on.
 * - The API is a REGIONAL REST API (WAF attaches to REST stages). Stage access and
 *   execution logs are off: they need the account-wide API Gateway logging role,
 *   which this stack deliberately does not create.
 * - The signing key set is generated on the first deploy and then kept: changing
 *   SIGNING_ALG later does not replace it (rotation is a separate procedure).
 */
import { Annotations, Duration, Stack } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as ses from 'aws-cdk-lib/aws-ses';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { tableDefinitions } from '../lambdas/adapters/dynamodb/table-definitions';
import { fallbackHandler, jobs, routes, type Route, type TableName } from '../lambdas/routes';
import { handlerEntry } from './bundling';
import { serviceFunction } from './functions';
import { addGatewayResponses } from './gateway-responses';
import { JwksDistribution, jwksObjectKey } from './jwks';
import { settingsEnvironment, type ServiceSettings } from './service-settings';
import { SigningKey } from './signing-key';
import { createTables } from './tables';
import { ApiWebAcl } from './web-acl';

export interface AuthorizationServerProps {
  /**
   * Service settings by environment variable name (see lambdas/config/settings.ts and
   * the README configuration table), validated here with the functions' own schemas.
   * MAIL_FROM is required and becomes an SES email identity: SES mails it a
   * verification link, and mail is sent only once it is verified (and, while the
   * account is in the SES sandbox, only to verified recipients).
   * BASE_URL defaults to the API stage URL; set it only when a custom domain fronts
   * the API (the domain mapping itself is not part of this construct).
   * JWKS_CDN_BASE_URL defaults to the CloudFront distribution's address.
   * Other unset values take the defaults of lambdas/config/settings.ts.
   * Required: there is no default for MAIL_FROM (bin/app.ts reads cdk.json, whose
   * placeholder `no-reply@example.com` synthesizes with a warning).
   */
  readonly settings: ServiceSettings;
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
}

export class AuthorizationServer extends Construct {
  readonly api: apigateway.RestApi;
  readonly tables: Readonly<Record<TableName, dynamodb.TableV2>>;
  /** Route functions by route name (`routes[i].name`). */
  readonly functions: Readonly<Record<string, NodejsFunction>>;
  /** Scheduled job functions by job name (`jobs[i].name`). */
  readonly jobFunctions: Readonly<Record<string, NodejsFunction>>;
  /** Answers 404/405 for everything no route row takes. */
  readonly fallbackFunction: NodejsFunction;
  readonly jwks: JwksDistribution;
  readonly signingKeySecret: secretsmanager.ISecret;
  readonly mailIdentity: ses.EmailIdentity;
  readonly webAcl: ApiWebAcl;
  /** The issuer (`BASE_URL`). */
  readonly issuerUrl: string;
  readonly jwksUrl: string;

  constructor(scope: Construct, id: string, props: AuthorizationServerProps) {
    super(scope, id);
    const stageName = props.stageName ?? 'prod';
    const memorySize = props.memorySize ?? 1024;
    const logRetention = props.logRetention ?? logs.RetentionDays.ONE_MONTH;
    const jwksCacheTtl = props.jwksCacheTtl ?? Duration.minutes(5);

    this.tables = createTables(this);
    this.api = new apigateway.RestApi(this, 'Api', {
      description: 'OAuth 2.1 authorization server',
      endpointTypes: [apigateway.EndpointType.REGIONAL],
      deployOptions: { stageName },
      // Would create the account-wide API Gateway logging role: not this stack's to own.
      cloudWatchRole: false,
    });
    addGatewayResponses(this.api);
    this.jwks = new JwksDistribution(this, 'Jwks', { cacheTtl: jwksCacheTtl });

    // Built from the API id rather than the stage: functions referencing the stage
    // would depend on the deployment, which depends on the functions' methods.
    const defaultBaseUrl = `https://${this.api.restApiId}.execute-api.${Stack.of(this).region}.${Stack.of(this).urlSuffix}/${stageName}`;
    const settings = settingsEnvironment({
      ...props.settings,
      BASE_URL: present(props.settings.BASE_URL) ?? defaultBaseUrl,
      JWKS_CDN_BASE_URL: present(props.settings.JWKS_CDN_BASE_URL) ?? this.jwks.baseUrl,
    });
    const mailFrom = settings.MAIL_FROM!;
    this.issuerUrl = settings.BASE_URL!.replace(/\/+$/, '');
    this.jwksUrl = `${settings.JWKS_CDN_BASE_URL!.replace(/\/+$/, '')}/${jwksObjectKey}`;

    const signingKey = new SigningKey(this, 'SigningKey', {
      bucket: this.jwks.bucket,
      objectKey: jwksObjectKey,
      alg: settings.SIGNING_ALG!,
      cacheTtl: jwksCacheTtl,
      logRetention,
    });
    this.signingKeySecret = signingKey.secret;

    this.mailIdentity = new ses.EmailIdentity(this, 'MailFrom', { identity: ses.Identity.email(mailFrom) });
    if (/@example\.(com|org|net)$/i.test(mailFrom)) {
      Annotations.of(this).addWarningV2(
        'authorization-server:placeholder-mail-from',
        `MAIL_FROM is the placeholder ${mailFrom}; set a real sender (-c MAIL_FROM=... or cdk.json) before deploying.`,
      );
    }

    const environment: Record<string, string> = { ...settings };
    for (const definition of Object.values(tableDefinitions)) {
      environment[definition.envVar] = this.tables[definition.name].tableName;
    }

    const functions: Record<string, NodejsFunction> = {};
    for (const route of routes) {
      const fn = serviceFunction(this, route.name, {
        entry: handlerEntry(route.handler),
        description: `${route.method} ${route.path}`,
        environment:
          route.signs || route.verifiesTokens ? { ...environment, SIGNING_KEY_SECRET_ARN: signingKey.secret.secretArn } : environment,
        memorySize,
        logRetention,
        hashes: route.hashes,
      });
      this.grant(fn, route, signingKey.secret);
      this.api.root.resourceForPath(route.path).addMethod(route.method, new apigateway.LambdaIntegration(fn));
      functions[route.name] = fn;
    }
    this.functions = functions;

    // Unmatched methods on routed paths (405) and unknown paths (404). The fallback
    // reads no table but still gets the environment: it loads the same configuration.
    this.fallbackFunction = serviceFunction(this, 'Fallback', {
      entry: handlerEntry(fallbackHandler),
      description: 'Unrouted requests: 404 or 405',
      environment,
      memorySize,
      logRetention,
    });
    // One API-wide invoke permission instead of two per method: the fallback serves
    // every method anyway, and per-method statements would outgrow the Lambda policy limit.
    const fallback = new apigateway.LambdaIntegration(this.fallbackFunction, { scopePermissionToMethod: false });
    for (const path of new Set(routes.map((route) => route.path))) {
      this.api.root.resourceForPath(path).addMethod('ANY', fallback);
    }
    this.api.root.addMethod('ANY', fallback);
    this.api.root.addResource('{proxy+}').addMethod('ANY', fallback);

    // Scheduled jobs: one function and one daily EventBridge rule each, with only their table grants.
    const jobFunctions: Record<string, NodejsFunction> = {};
    for (const job of jobs) {
      const fn = serviceFunction(this, job.name, {
        entry: `lambdas/jobs/${job.handler}.ts`,
        description: `Scheduled: ${job.name}`,
        environment,
        memorySize: 256,
        timeout: Duration.minutes(5),
        logRetention,
      });
      this.grantTables(fn, job.tables);
      new events.Rule(this, `${job.name}Schedule`, {
        schedule: events.Schedule.cron({ hour: String(job.dailyAt.hour), minute: String(job.dailyAt.minute) }),
        targets: [new targets.LambdaFunction(fn)],
      });
      jobFunctions[job.name] = fn;
    }
    this.jobFunctions = jobFunctions;

    this.webAcl = new ApiWebAcl(this, 'Waf', { stageArn: this.api.deploymentStage.stageArn });
  }

  /** Least privilege: exactly the tables, secret and mail identity the row names. */
  private grant(fn: NodejsFunction, route: Route, signingKeySecret: secretsmanager.ISecret): void {
    this.grantTables(fn, route.tables);
    if (route.signs || route.verifiesTokens) signingKeySecret.grantRead(fn);
    if (route.sendsMail) this.mailIdentity.grantSendEmail(fn);
  }

  private grantTables(fn: NodejsFunction, tables: Route['tables']): void {
    for (const [name, access] of Object.entries(tables) as [TableName, 'read' | 'write'][]) {
      if (access === 'write') this.tables[name].grantReadWriteData(fn);
      else this.tables[name].grantReadData(fn);
    }
  }
}

const present = (value: string | undefined): string | undefined => (value?.trim() ? value.trim() : undefined);
