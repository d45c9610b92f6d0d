/**
 * The package entry point (`aws-oauth-authorization-server`): the construct, its stack,
 * their props and the types the props name. The resource-server helper has its own entry
 * (`aws-oauth-authorization-server/resource-server`) so that a resource server installs
 * no CDK code path it never loads.
 */
export { ConfigError, type HashMethod, type LogLevel, type MfaPolicy, type SigningAlgorithm } from '../lambdas/config/settings';
export { AuthorizationServer, type AuthorizationServerProps, seededEnvironmentIds } from './authorization-server';
export { AuthorizationServerStack, type AuthorizationServerStackProps } from './authorization-server-stack';
export type { ServiceSettingsProps } from './service-settings';
