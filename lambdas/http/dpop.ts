/**
 * Reading a DPoP proof off a request (RFC 9449 4.1, 4.3 item 1, behaviour TOKEN-7): at most one `DPoP`
 * header, checked against the method and the URL the client called. That URL is the issuer's
 * (BASE_URL, as discovery names every endpoint) joined with the path API Gateway routed: the stage
 * and CloudFront's origin path are in BASE_URL, never in the event's path.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { checkDpopProof, type DpopDependencies, type ProofTarget, type ProvenKey } from '../core/dpop';
import { InvalidDpopProofError } from '../core/errors';

type ProofEvent = Pick<APIGatewayProxyEvent, 'headers' | 'multiValueHeaders' | 'httpMethod' | 'path'>;

/** The request's DPoP proof, undefined without one; two headers (or a comma-joined pair) are refused. */
export function dpopProofOf(event: ProofEvent, refusal: Pick<ProofTarget, 'status' | 'challenge'> = {}): string | undefined {
  const values: string[] = [];
  for (const [key, many] of Object.entries(event.multiValueHeaders ?? {})) if (key.toLowerCase() === 'dpop') values.push(...(many ?? []));
  if (values.length === 0)
    for (const [key, one] of Object.entries(event.headers ?? {})) if (key.toLowerCase() === 'dpop' && one !== undefined) values.push(one);
  if (values.length === 0) return undefined;
  const proof = values[0]!.trim();
  if (values.length > 1 || proof.includes(',')) {
    throw new InvalidDpopProofError('Send exactly one DPoP header.', `${values.length} DPoP headers`, {
      status: refusal.status ?? 400,
      ...(refusal.challenge ? { headers: { 'WWW-Authenticate': refusal.challenge } } : {}),
    });
  }
  return proof;
}

/** The URL a proof's `htu` must name: the issuer's, with the routed path. */
export const requestUrl = (issuer: string, event: Pick<APIGatewayProxyEvent, 'path'>): string => `${issuer}${event.path}`;

/** The key the request's proof showed possession of; undefined when it carries none. */
export async function provenKeyOf(
  event: ProofEvent,
  issuer: string,
  deps: DpopDependencies,
  extra: Pick<ProofTarget, 'accessToken' | 'status' | 'challenge'> = {},
): Promise<ProvenKey | undefined> {
  const proof = dpopProofOf(event, extra);
  if (proof === undefined) return undefined;
  return checkDpopProof(proof, { method: event.httpMethod, url: requestUrl(issuer, event), ...extra }, deps);
}
