/**
 * Deploy-time options: choices about the infrastructure that the functions never read
 * (unlike the service settings of lambdas/config/settings.ts). Read from CDK context
 * like the settings (`-c NAME=value` or cdk.json, empty means unset), validated at
 * synth, and mapped onto AuthorizationServer props by bin/app.ts.
 */
import * as z from 'zod/mini';
import { Token } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { booleanFlag, ConfigError } from '../lambdas/config/settings';
import type { AuthorizationServerProps } from './authorization-server';
import type { AuthorizationServerStackProps } from './authorization-server-stack';
import { settingsFromContext } from './service-settings';

const ipv4Cidr = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}\/(3[0-2]|[12]?\d)$/;
const ipv6Cidr = /^[0-9A-Fa-f:]+:[0-9A-Fa-f:]*\/(12[0-8]|1[01]\d|[1-9]?\d)$/;

const list = z.pipe(
  z.string(),
  z.transform((value) =>
    value
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean),
  ),
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
  TRACING: {
    schema: z._default(booleanFlag, false),
    accepts: '"true" or "false"',
    description: 'AWS X-Ray active tracing on every function and the API stage (X-Ray cost per traced request).',
  },
  ALARM_TOPIC_ARN: {
    schema: z.optional(z.string().check(z.regex(/^arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_-]{1,256}$/))),
    accepts: 'an SNS topic ARN',
    description: 'Topic the CloudWatch alarms notify (alarm and OK). Unset: alarms only show in the console.',
  },
  DOMAIN_NAME: {
    schema: z.optional(z.string().check(z.regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/))),
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
    keyRotationDays: options.KEY_ROTATION_DAYS,
    keyOperators: options.KEY_OPERATOR_ARNS,
    customerManagedKey: options.CUSTOMER_MANAGED_KEY,
    tracing: options.TRACING,
    ...(options.ADMIN_EMAIL ? { adminEmail: options.ADMIN_EMAIL } : {}),
    ...(options.MAIL_CONFIGURATION_SET ? { mailConfigurationSetName: options.MAIL_CONFIGURATION_SET } : {}),
    ...(options.DOMAIN_NAME && options.CERTIFICATE_ARN
      ? { customDomain: { domainName: options.DOMAIN_NAME, certificateArn: options.CERTIFICATE_ARN } }
      : {}),
    ...(options.JWKS_DOMAIN_NAME && options.JWKS_CERTIFICATE_ARN
      ? { jwksDomain: { domainName: options.JWKS_DOMAIN_NAME, certificateArn: options.JWKS_CERTIFICATE_ARN } }
      : {}),
    ...(options.ALARM_TOPIC_ARN ? { alarmTopicArn: options.ALARM_TOPIC_ARN } : {}),
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
