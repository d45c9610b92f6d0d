/**
 * The settings every AWS SDK client in this container is built with. Region, credentials and
 * endpoints are the SDK's own business (AWS_REGION and the role's credentials, which Lambda sets;
 * AWS_USE_FIPS_ENDPOINT, AWS_USE_DUALSTACK_ENDPOINT, AWS_ENDPOINT_URL_<SERVICE>); we add the
 * tracing switch the construct sets with its `tracing` prop.
 */
import type { AwsClientSettings } from '../adapters/aws/sdk-clients';
import { booleanFlag } from '../config/settings';
import type { Env } from './container';

export function awsClientSettings(env: Env): AwsClientSettings {
  return { tracing: booleanFlag.safeParse(env.POWERTOOLS_TRACE_ENABLED).data === true };
}
