/**
 * Deploy-time options: choices about the infrastructure that the functions never read
 * (unlike the service settings of lambdas/config/settings.ts). Read from CDK context
 * like the settings (`-c NAME=value` or cdk.json, empty means unset), validated at
 * synth, and mapped onto AuthorizationServer props by bin/app.ts.
 */
import * as z from 'zod/mini';
import { Duration, Token } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { booleanFlag, ConfigError } from '../lambdas/config/settings';
import type { AuthorizationServerProps } from './authorization-server';
import type { AuthorizationServerStackProps } from './authorization-server-stack';
import type { WafRate } from './edge-rules';
import { concurrencyPlan, concurrencyProblems, type ReservedConcurrency } from './isolation';
import { settingsFromContext } from './service-settings';
import { routes as routeTable } from '../lambdas/routes';

const ipv4Cidr = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}\/(3[0-2]|[12]?\d)$/;
const ipv6Cidr = /^[0-9A-Fa-f:]+:[0-9A-Fa-f:]*\/(12[0-8]|1[01]\d|[1-9]?\d)$/;

const domainName = z.string().check(z.regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/));
const backupVaultArn = /^arn:aws[a-z-]*:backup:[a-z0-9-]+:\d{12}:backup-vault:[A-Za-z0-9_.-]{2,50}$/;
/** AWS tag keys and values: letters, digits, spaces and `_ . : / = + - @`; `aws:` is reserved. */
const tagKey = /^(?!aws:)[\p{L}\p{Z}\p{N}_.:/=+\-@]{1,128}$/u;
const tagValue = /^[\p{L}\p{Z}\p{N}_.:/=+\-@]{0,256}$/u;

const list = z.pipe(
  z.string(),
  z.transform((value) =>
    value
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean),
  ),
);

const familyKeys = ['token', 'browser', 'public', 'admin', 'fallback'] as const;
/** `off`, or `token=30,browser=5,...` (any of the keys; the others keep their defaults). */
const reservedConcurrencySetting = z.pipe(
  z.string(),
  z.transform((value, context): false | ReservedConcurrency => {
    if (/^(off|false|none)$/i.test(value)) return false;
    const setting: Record<string, number> = {};
    for (const item of value.split(',').map((part) => part.trim())) {
      const [key, count] = item.split('=').map((part) => part.trim());
      if (!familyKeys.includes(key as never) || !/^[1-9]\d{0,4}$/.test(count ?? '') || key! in setting) {
        context.issues.push({ code: 'custom', input: value, message: `bad item ${JSON.stringify(item)}` });
        return z.NEVER;
      }
      setting[key!] = Number(count);
    }
    return setting;
  }),
);

interface Option {
  readonly schema: z.ZodMiniType;
  readonly accepts: string;
  readonly description: string;
}

/** Every deploy-time option; the deployment guide (docs/deployment.md) mirrors this list. */
export const deploymentOptions = {
  ADMIN_ALLOWED_CIDRS: {
    schema: z._default(z.pipe(list, z.array(z.string().check(z.refine((cidr) => ipv4Cidr.test(cidr) || ipv6Cidr.test(cidr))))), []),
    accepts: 'comma-separated CIDRs such as 203.0.113.0/24,2001:db8::/32',
    description:
      'Networks allowed to reach /dashboard* and /api/admin/* (WAF IP sets). Unset: synth fails unless ADMIN_OPEN_TO_INTERNET=true.',
  },
  ADMIN_OPEN_TO_INTERNET: {
    schema: z._default(booleanFlag, false),
    accepts: '"true" or "false"',
    description:
      'Set "true" to deploy without ADMIN_ALLOWED_CIDRS on purpose: /dashboard* and /api/admin/* reachable from any address (admin tokens and sessions still required). Behaviour EXPOSURE-3.',
  },
  WAF_BOT_CONTROL: {
    schema: z._default(booleanFlag, false),
    accepts: '"true" or "false"',
    description: 'AWS WAF Bot Control on the browser paths (extra monthly and per-request cost).',
  },
  WAF_RATE_LIMIT_PER_IP: {
    schema: z.optional(
      z.pipe(
        z.string().check(z.regex(/^\d+(\/(60|120|300|600))?$/)),
        z.transform((value): WafRate => {
          const [limit, window] = value.split('/');
          return { limit: Number(limit), windowSeconds: Number(window ?? 60) as WafRate['windowSeconds'] };
        }),
      ),
    ),
    accepts: 'a limit, or limit/window with a window of 60, 120, 300 or 600 seconds, such as 2000 or 6000/300',
    description: "The WAF's catch-all rate rule: requests of one address, whatever the path (default 2000 per 60 s).",
  },
  TRACING: {
    schema: z._default(booleanFlag, false),
    accepts: '"true" or "false"',
    description: 'AWS X-Ray active tracing on every function and the API stage (X-Ray cost per traced request).',
  },
  ALARM_TOPIC_ARN: {
    schema: z.optional(z.string().check(z.regex(/^arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_-]{1,256}$/))),
    accepts: 'an SNS topic ARN',
    description: 'Topic the CloudWatch alarms notify (alarm and OK) instead of the topic the stack creates.',
  },
  ALARM_EMAIL: {
    schema: z.optional(z.email()),
    accepts: 'an email address',
    description: 'Address subscribed to the alarm topic (it confirms by a mailed link). This or ALARM_TOPIC_ARN is required.',
  },
  ALARMS_NOTIFY_NOBODY: {
    schema: z._default(booleanFlag, false),
    accepts: '"true" or "false"',
    description: 'Deploy without ALARM_EMAIL or ALARM_TOPIC_ARN: alarms reach nobody until the topic gets a subscriber.',
  },
  DOMAIN_NAME: {
    schema: z.optional(domainName),
    accepts: 'a lower-case DNS name such as auth.example.org',
    description: 'Custom domain of the issuer. With it, BASE_URL defaults to https://<DOMAIN_NAME>. Needs CERTIFICATE_ARN.',
  },
  CERTIFICATE_ARN: {
    schema: z.optional(z.string().check(z.regex(/^arn:aws[a-z-]*:acm:[a-z0-9-]+:\d{12}:certificate\/[0-9a-f-]+$/))),
    accepts: 'an ACM certificate ARN in the stack region',
    description: 'ACM certificate covering DOMAIN_NAME, in the same region as the stack (regional API).',
  },
  JWKS_DOMAIN_NAME: {
    schema: z.optional(z.string().check(z.regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/))),
    accepts: 'a lower-case DNS name such as keys.example.org',
    description:
      'Alias of the JWKS CloudFront distribution, served with JWKS_CERTIFICATE_ARN and TLS 1.2 or newer (TLSv1.2_2021). With it, JWKS_CDN_BASE_URL defaults to https://<JWKS_DOMAIN_NAME>. Needs JWKS_CERTIFICATE_ARN.',
  },
  JWKS_CERTIFICATE_ARN: {
    schema: z.optional(z.string().check(z.regex(/^arn:aws[a-z-]*:acm:us-east-1:\d{12}:certificate\/[0-9a-f-]+$/))),
    accepts: 'an ACM certificate ARN in us-east-1 (CloudFront reads certificates there only)',
    description: 'ACM certificate covering JWKS_DOMAIN_NAME, in us-east-1 whatever the stack region.',
  },
  KEY_OPERATOR_ARNS: {
    schema: z._default(
      z.pipe(list, z.array(z.string().check(z.regex(/^arn:aws[a-z-]*:iam::\d{12}:(root|(role|user)\/[\x21-\x7e]+)$/)))),
      [],
    ),
    accepts:
      'comma-separated IAM role or user ARNs (or the account root), * allowed, such as arn:aws:iam::123456789012:role/platform-security',
    description:
      'The people or automation that hand over, rotate and remove the bootstrap admin credentials and rotate the device-cookie key; with it, nobody else may read or write them. Unset: IAM decides for people (behaviour CUSTODY-1).',
  },
  CUSTOMER_MANAGED_KEY: {
    schema: z._default(booleanFlag, false),
    accepts: '"true" or "false"',
    description:
      'Set "true" to encrypt the tables, the secrets and every log group with one customer-managed KMS key of the stack (annual rotation, retained) instead of AWS managed keys. Behaviour CUSTODY-2.',
  },
  KEY_ROTATION_DAYS: {
    schema: z._default(z.coerce.number().check(z.int(), z.minimum(2), z.maximum(365)), 30),
    accepts: 'a whole number of days from 2 to 365',
    description: 'How long a signing key signs before the next one is prepared (scheduled rotation).',
  },
  ADMIN_EMAIL: {
    schema: z.optional(z.email()),
    accepts: 'an email address',
    description: 'Sign-in email of the first admin user seeded by the deploy. Default: admin@<domain of MAIL_FROM>.',
  },
  MAIL_CONFIGURATION_SET: {
    schema: z.optional(z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/))),
    accepts: 'letters, digits, _ and -, at most 64',
    description: 'Name of the SES configuration set. Default: generated.',
  },
  RESERVED_CONCURRENCY: {
    schema: z.optional(reservedConcurrencySetting),
    accepts: '"off", or family=count pairs such as token=30,browser=5,public=5,admin=2,fallback=5 (counts 1 or more)',
    description:
      'Lambda reserved concurrency of each route function, by route family, and of the fallback; unset keys keep their defaults. "off": none (small accounts).',
  },
  ACCOUNT_CONCURRENCY_LIMIT: {
    schema: z._default(z.coerce.number().check(z.int(), z.minimum(1)), 1000),
    accepts: "a whole number (the account's Lambda concurrency limit in the region)",
    description:
      'The Lambda concurrency limit of the account in the region; synth checks the reservations leave Lambda its 100 unreserved.',
  },
  MAIL_DOMAIN: {
    schema: z.optional(domainName),
    accepts: 'a lower-case DNS name such as example.org',
    description:
      'SES domain identity with Easy DKIM and a custom MAIL FROM; MAIL_FROM must be at it. Unset: an email-address identity (synth warns).',
  },
  MAIL_FROM_DOMAIN: {
    schema: z.optional(domainName),
    accepts: 'a lower-case DNS name, a subdomain of MAIL_DOMAIN',
    description: 'Custom MAIL FROM domain of the domain identity. Default: bounce.<MAIL_DOMAIN>.',
  },
  BACKUP: {
    schema: z._default(booleanFlag, true),
    accepts: '"true" or "false"',
    description: 'Daily AWS Backup of the main and activity tables. "false" only where an organization backup policy covers them.',
  },
  BACKUP_RETENTION_DAYS: {
    schema: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(36500)), 35),
    accepts: 'a whole number of days from 1 to 36500',
    description: 'How long each daily backup is kept.',
  },
  BACKUP_COPY_VAULT_ARNS: {
    schema: z._default(z.pipe(list, z.array(z.string().check(z.regex(backupVaultArn)))), []),
    accepts: 'comma-separated AWS Backup vault ARNs',
    description: 'Vaults in another region and/or account each backup is copied to. Default: none.',
  },
  BACKUP_COPY_RETENTION_DAYS: {
    schema: z.optional(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(36500))),
    accepts: 'a whole number of days from 1 to 36500',
    description: 'How long the copies are kept. Default: BACKUP_RETENTION_DAYS.',
  },
  TAGS: {
    schema: z._default(
      z.pipe(
        list,
        z.array(
          z.string().check(
            z.refine((pair) => {
              const at = pair.indexOf('=');
              return at > 0 && tagKey.test(pair.slice(0, at).trim()) && tagValue.test(pair.slice(at + 1).trim());
            }),
          ),
        ),
      ),
      [],
    ),
    accepts: 'comma-separated key=value pairs (keys not starting with aws:)',
    description: 'Tags on every resource, besides Project=Tollgate and StackName=<stack name>.',
  },
  TERMINATION_PROTECTION: {
    schema: z._default(booleanFlag, true),
    accepts: '"true" or "false"',
    description: 'CloudFormation termination protection of the stack.',
  },
} as const satisfies Record<string, Option>;

export type DeploymentOptionName = keyof typeof deploymentOptions;
export type DeploymentOptions = { [K in DeploymentOptionName]: z.output<(typeof deploymentOptions)[K]['schema']> };

/**
 * Reads and validates every deploy-time option from context.
 * @throws ConfigError naming every invalid option
 */
export function deploymentOptionsFromContext(scope: Construct): DeploymentOptions {
  const problems: string[] = [];
  const values: Record<string, unknown> = {};
  for (const [name, option] of Object.entries(deploymentOptions) as [DeploymentOptionName, Option][]) {
    const raw: unknown = scope.node.tryGetContext(name);
    const text = raw === undefined || raw === null || String(raw).trim() === '' ? undefined : String(raw).trim();
    const result = option.schema.safeParse(text);
    if (result.success) values[name] = result.data;
    else problems.push(`${name} must be ${option.accepts} (got ${JSON.stringify(text)})`);
  }
  if ((values.DOMAIN_NAME === undefined) !== (values.CERTIFICATE_ARN === undefined)) {
    problems.push('DOMAIN_NAME and CERTIFICATE_ARN must be set together (or neither)');
  }
  if ((values.JWKS_DOMAIN_NAME === undefined) !== (values.JWKS_CERTIFICATE_ARN === undefined)) {
    problems.push('JWKS_DOMAIN_NAME and JWKS_CERTIFICATE_ARN must be set together (or neither)');
  }
  if ('ADMIN_ALLOWED_CIDRS' in values && 'ADMIN_OPEN_TO_INTERNET' in values) {
    problems.push(
      ...adminPlaneProblems((values.ADMIN_ALLOWED_CIDRS as string[]).length > 0, values.ADMIN_OPEN_TO_INTERNET === true, {
        allowlist: 'ADMIN_ALLOWED_CIDRS',
        open: 'ADMIN_OPEN_TO_INTERNET=true',
      }),
    );
  }
  // Behaviour OPS-1: said here too, so it comes with every other problem of the context at once.
  if (values.ALARM_EMAIL === undefined && values.ALARM_TOPIC_ARN === undefined && values.ALARMS_NOTIFY_NOBODY !== true) {
    problems.push(
      'ALARM_EMAIL or ALARM_TOPIC_ARN must be set, so that the alarms reach someone (or ALARMS_NOTIFY_NOBODY=true to deploy alarms seen in the console only)',
    );
  }
  if (values.MAIL_FROM_DOMAIN !== undefined && values.MAIL_DOMAIN === undefined) {
    problems.push('MAIL_FROM_DOMAIN needs MAIL_DOMAIN');
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return values as DeploymentOptions;
}

/**
 * Stack props from context: the service settings and the deploy-time options, both
 * validated, every problem reported at once.
 * @throws ConfigError naming every invalid setting or option
 */
export function stackPropsFromContext(scope: Construct): AuthorizationServerStackProps {
  const problems: string[] = [];
  const attempt = <T>(read: () => T): T | undefined => {
    try {
      return read();
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(...error.problems);
      return undefined;
    }
  };
  const settings = attempt(() => settingsFromContext(scope));
  const options = attempt(() => deploymentOptionsFromContext(scope));
  if (!settings || !options) throw new ConfigError(problems);
  return {
    ...settings,
    adminAllowlist: options.ADMIN_ALLOWED_CIDRS,
    adminOpenToInternet: options.ADMIN_OPEN_TO_INTERNET,
    botControl: options.WAF_BOT_CONTROL,
    ...(options.WAF_RATE_LIMIT_PER_IP ? { wafRateLimitPerAddress: options.WAF_RATE_LIMIT_PER_IP } : {}),
    keyRotationDays: options.KEY_ROTATION_DAYS,
    keyOperators: options.KEY_OPERATOR_ARNS,
    customerManagedKey: options.CUSTOMER_MANAGED_KEY,
    tracing: options.TRACING,
    accountConcurrencyLimit: options.ACCOUNT_CONCURRENCY_LIMIT,
    ...(options.RESERVED_CONCURRENCY !== undefined ? { reservedConcurrency: options.RESERVED_CONCURRENCY } : {}),
    ...(options.ADMIN_EMAIL ? { adminEmail: options.ADMIN_EMAIL } : {}),
    ...(options.MAIL_CONFIGURATION_SET ? { mailConfigurationSetName: options.MAIL_CONFIGURATION_SET } : {}),
    ...(options.DOMAIN_NAME && options.CERTIFICATE_ARN
      ? { customDomain: { domainName: options.DOMAIN_NAME, certificateArn: options.CERTIFICATE_ARN } }
      : {}),
    ...(options.JWKS_DOMAIN_NAME && options.JWKS_CERTIFICATE_ARN
      ? { jwksDomain: { domainName: options.JWKS_DOMAIN_NAME, certificateArn: options.JWKS_CERTIFICATE_ARN } }
      : {}),
    ...(options.ALARM_TOPIC_ARN ? { alarmTopicArn: options.ALARM_TOPIC_ARN } : {}),
    ...(options.ALARM_EMAIL ? { alarmEmail: options.ALARM_EMAIL } : {}),
    alarmsNotifyNobody: options.ALARMS_NOTIFY_NOBODY,
    ...(options.MAIL_DOMAIN ? { mailDomain: options.MAIL_DOMAIN } : {}),
    ...(options.MAIL_FROM_DOMAIN ? { mailFromDomain: options.MAIL_FROM_DOMAIN } : {}),
    backup: {
      enabled: options.BACKUP,
      retention: Duration.days(options.BACKUP_RETENTION_DAYS),
      copyTo: options.BACKUP_COPY_VAULT_ARNS,
      ...(options.BACKUP_COPY_RETENTION_DAYS ? { copyRetention: Duration.days(options.BACKUP_COPY_RETENTION_DAYS) } : {}),
    },
    tags: Object.fromEntries(
      options.TAGS.map((pair) => {
        const at = pair.indexOf('=');
        return [pair.slice(0, at).trim(), pair.slice(at + 1).trim()];
      }),
    ),
    terminationProtection: options.TERMINATION_PROTECTION,
  };
}

/** The props that carry a deploy-time option, so that the construct validates them as the context path does. */
type InfrastructureProps = Pick<
  AuthorizationServerProps,
  | 'adminAllowlist'
  | 'adminOpenToInternet'
  | 'keyRotationDays'
  | 'keyOperators'
  | 'adminEmail'
  | 'mailConfigurationSetName'
  | 'customDomain'
  | 'jwksDomain'
  | 'memorySize'
  | 'stageName'
  | 'reservedConcurrency'
  | 'accountConcurrencyLimit'
  | 'apiThrottle'
  | 'mailThrottleCallers'
  | 'routes'
  | 'alarmEmail'
  | 'mailDomain'
  | 'mailFromDomain'
  | 'backup'
  | 'tags'
>;

/**
 * What is wrong with the infrastructure props given to the construct directly (bin/app.ts
 * has already validated its context), one message per prop, in the words of the matching
 * deploy-time option. Token values (resolved at deploy time) are not checked.
 */
export function infrastructureProblems(props: InfrastructureProps): string[] {
  const problems: string[] = [];
  const check = (prop: string, option: DeploymentOptionName, value: string | number | undefined) => {
    if (value === undefined || Token.isUnresolved(value)) return;
    const { schema, accepts } = deploymentOptions[option];
    if (!schema.safeParse(String(value)).success) problems.push(`${prop} must be ${accepts} (got ${JSON.stringify(value)})`);
  };
  for (const cidr of props.adminAllowlist ?? []) check('adminAllowlist', 'ADMIN_ALLOWED_CIDRS', cidr);
  problems.push(
    ...adminPlaneProblems((props.adminAllowlist ?? []).length > 0, props.adminOpenToInternet === true, {
      allowlist: 'adminAllowlist',
      open: 'adminOpenToInternet: true',
    }),
  );
  check('keyRotationDays', 'KEY_ROTATION_DAYS', props.keyRotationDays);
  for (const arn of props.keyOperators ?? []) check('keyOperators', 'KEY_OPERATOR_ARNS', arn);
  check('adminEmail', 'ADMIN_EMAIL', props.adminEmail);
  check('mailConfigurationSetName', 'MAIL_CONFIGURATION_SET', props.mailConfigurationSetName);
  check('customDomain.domainName', 'DOMAIN_NAME', props.customDomain?.domainName);
  check('customDomain.certificateArn', 'CERTIFICATE_ARN', props.customDomain?.certificateArn);
  check('jwksDomain.domainName', 'JWKS_DOMAIN_NAME', props.jwksDomain?.domainName);
  check('jwksDomain.certificateArn', 'JWKS_CERTIFICATE_ARN', props.jwksDomain?.certificateArn);
  check('alarmEmail', 'ALARM_EMAIL', props.alarmEmail);
  check('mailDomain', 'MAIL_DOMAIN', props.mailDomain);
  check('mailFromDomain', 'MAIL_FROM_DOMAIN', props.mailFromDomain);
  for (const arn of props.backup?.copyTo ?? []) check('backup.copyTo', 'BACKUP_COPY_VAULT_ARNS', arn);
  for (const [prop, retention] of [
    ['backup.retention', props.backup?.retention],
    ['backup.copyRetention', props.backup?.copyRetention],
  ] as const) {
    // AWS Backup's bounds: a recovery point lives at least a day.
    if (retention !== undefined && !retention.isUnresolved() && !(retention.toDays({ integral: false }) >= 1)) {
      problems.push(`${prop} must be at least 1 day (got ${retention.toHumanString()})`);
    }
  }
  for (const [key, value] of Object.entries(props.tags ?? {})) {
    if (!Token.isUnresolved(key) && !tagKey.test(key))
      problems.push(`tags: ${JSON.stringify(key)} is not a tag key (1-128 letters, digits, spaces or _ . : / = + - @, not aws:...)`);
    if (!Token.isUnresolved(value) && !tagValue.test(value))
      problems.push(`tags: the value of ${JSON.stringify(key)} is not a tag value (0-256 letters, digits, spaces or _ . : / = + - @)`);
  }
  const { memorySize, stageName } = props;
  // Lambda's own bounds; below 128 MiB or past 10240 MiB the deploy would fail late.
  if (
    memorySize !== undefined &&
    !Token.isUnresolved(memorySize) &&
    !(Number.isInteger(memorySize) && memorySize >= 128 && memorySize <= 10240)
  ) {
    problems.push(`memorySize must be a whole number of MiB from 128 to 10240 (got ${memorySize})`);
  }
  // API Gateway stage names; the stage is also a path segment of the default issuer.
  if (stageName !== undefined && !/^[A-Za-z0-9_-]{1,128}$/.test(stageName)) {
    problems.push(`stageName must be letters, digits, _ and -, at most 128 (got ${JSON.stringify(stageName)})`);
  }
  problems.push(...isolationProblems(props));
  return problems;
}

const wholeNumber = (value: number | undefined, minimum: number) =>
  value === undefined || Token.isUnresolved(value) || (Number.isInteger(value) && value >= minimum);

/** Behaviour LIMIT-5, LIMIT-6: reservations the account can hold, throttles API Gateway accepts. */
function isolationProblems(props: InfrastructureProps): string[] {
  const problems: string[] = [];
  const { reservedConcurrency, accountConcurrencyLimit, apiThrottle, mailThrottleCallers } = props;
  for (const [family, count] of Object.entries(reservedConcurrency || {})) {
    if (!wholeNumber(count, 1)) problems.push(`reservedConcurrency.${family} must be a whole number, 1 or more (got ${count})`);
  }
  if (!wholeNumber(accountConcurrencyLimit, 1)) {
    problems.push(`accountConcurrencyLimit must be a whole number, 1 or more (got ${accountConcurrencyLimit})`);
  }
  if (apiThrottle && !(apiThrottle.rateLimit > 0 && wholeNumber(apiThrottle.burstLimit, 1))) {
    problems.push(`apiThrottle must have a rateLimit above 0 and a whole burstLimit of 1 or more (got ${JSON.stringify(apiThrottle)})`);
  }
  if (!wholeNumber(mailThrottleCallers, 1))
    problems.push(`mailThrottleCallers must be a whole number, 1 or more (got ${mailThrottleCallers})`);
  if (problems.length === 0) {
    problems.push(...concurrencyProblems(concurrencyPlan(props.routes ?? routeTable, reservedConcurrency, accountConcurrencyLimit)));
  }
  return problems;
}

/**
 * Behaviour EXPOSURE-3: an admin plane without an allowlist is a deployer's explicit choice, never
 * a default that synth merely warns about; an allowlist with the open flag is a contradiction.
 */
function adminPlaneProblems(restricted: boolean, open: boolean, words: { allowlist: string; open: string }): string[] {
  if (restricted && open)
    return [`${words.open} and ${words.allowlist} contradict each other: an allowlist restricts the admin plane; set one of them`];
  if (!restricted && !open) {
    return [
      `${words.allowlist} is empty: /dashboard* and /api/admin/* would be reachable from any address. ` +
        `Set ${words.allowlist} to your administrators' networks, or ${words.open} to deploy them open to the internet on purpose (behaviour EXPOSURE-3)`,
    ];
  }
  return [];
}
