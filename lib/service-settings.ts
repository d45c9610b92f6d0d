/**
 * Service settings on the CDK side: read from context under the same names as the
 * environment variables, validated by the same schemas the functions use
 * (lambdas/config/settings.ts), and turned into function environment variables.
 */
import { Token } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { parseSettings, settingNames, type SettingName } from '../lambdas/config/settings';

/**
 * Setting values by variable name, as strings, e.g. `{ MAIL_FROM: 'no-reply@example.org' }`.
 * MAIL_FROM is required: it becomes the SES identity and has no sensible default.
 * Unset (or empty) values take the setting's default; BASE_URL and JWKS_CDN_BASE_URL
 * default to the addresses of the deployed API and CloudFront distribution.
 */
export type ServiceSettings = { readonly MAIL_FROM: string } & {
  readonly [K in Exclude<SettingName, 'MAIL_FROM'>]?: string;
};

/** Settings whose default is an address only known once the stack is built. */
export const deployTimeDefaults: ReadonlySet<SettingName> = new Set(['BASE_URL', 'JWKS_CDN_BASE_URL']);

/**
 * Reads every setting from context (`-c NAME=value` or cdk.json `context`) and validates it.
 * cdk.json may hold JSON booleans and numbers; they are read as their string form.
 * @throws ConfigError naming every invalid or missing setting
 */
export function settingsFromContext(scope: Construct): ServiceSettings {
  const values: Partial<Record<SettingName, string>> = {};
  for (const name of settingNames) {
    const value: unknown = scope.node.tryGetContext(name);
    if (value !== undefined && value !== null) values[name] = String(value);
  }
  parseSettings(
    values,
    settingNames.filter((name) => values[name]?.trim() || !deployTimeDefaults.has(name)),
  );
  return values as ServiceSettings;
}

/**
 * Validates the settings and returns them as environment variables, defaults applied,
 * so the function configuration shows every value in effect. Values that are CDK tokens
 * (addresses of deployed resources) are passed through unvalidated. Optional settings
 * left unset (DCR_ENVIRONMENT_ID) are omitted.
 * @throws ConfigError naming every invalid or missing setting
 */
export function settingsEnvironment(values: Readonly<Partial<Record<SettingName, string>>>): Record<string, string> {
  const literal = settingNames.filter((name) => !Token.isUnresolved(values[name]));
  const parsed: Partial<Record<SettingName, unknown>> = parseSettings(values, literal);
  const environment: Record<string, string> = {};
  for (const name of settingNames) {
    const value = Token.isUnresolved(values[name]) ? values[name] : parsed[name];
    if (value !== undefined) environment[name] = String(value);
  }
  return environment;
}
