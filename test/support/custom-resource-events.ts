/** CloudFormation custom resource events, as the Provider framework hands them to an onEvent handler. */
import type { CloudFormationCustomResourceEvent } from 'aws-lambda';

export interface ResourceIdentity {
  readonly logicalResourceId: string;
  readonly resourceType: string;
  /** The physical id the handler returned on Create (sent back on Update and Delete). */
  readonly physicalResourceId: string;
}

export function customResourceEvent(
  requestType: 'Create' | 'Update' | 'Delete',
  identity: ResourceIdentity,
  properties: object,
): CloudFormationCustomResourceEvent {
  const base = {
    ServiceToken: 'token',
    ResponseURL: 'https://example.org',
    StackId: 'stack',
    RequestId: 'request',
    LogicalResourceId: identity.logicalResourceId,
    ResourceType: identity.resourceType,
    ResourceProperties: { ServiceToken: 'token', ...properties },
  };
  if (requestType === 'Create') return { ...base, RequestType: requestType };
  if (requestType === 'Update') {
    return {
      ...base,
      RequestType: requestType,
      PhysicalResourceId: identity.physicalResourceId,
      OldResourceProperties: { ServiceToken: 'token' },
    };
  }
  return { ...base, RequestType: requestType, PhysicalResourceId: identity.physicalResourceId };
}
