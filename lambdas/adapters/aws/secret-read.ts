/**
 * Just what the device-cookie key source (adapters/device-cookie-keys.ts) imports on first use:
 * an `import()` of this module keeps only these exports of the package in a bundle, where an
 * `import()` of the package itself would keep every one of its commands.
 */
export { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
