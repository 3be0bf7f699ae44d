/**
 * Keyless auth in the emulator: Entra ID-style access tokens (JWTs) validated like the service
 * does (signature against the issuer's published keys, issuer, audience, expiry), then the
 * principal checked against the role assignments the config grants. Each failure gets the
 * answer the real service gives: the data plane's 401 / PermissionDenied, Resource Manager's
 * InvalidAuthenticationToken* / ExpiredAuthenticationToken / AuthorizationFailed.
 */
import { readFileSync } from 'node:fs';
import { createRemoteJWKSet, customFetch, errors as joseErrors, jwtVerify, type FetchImplementation, type JWTPayload } from 'jose';
import { createSecureContext } from 'node:tls';
import { NodeTransport } from '../service/nodeTransport';
import { azureError, type HttpError } from './wire';

export interface EntraConfig {
  /** Expected `iss` claim. */
  issuer: string;
  /** Where the issuer publishes its signing keys. */
  jwksUri: string;
  /** PEM file of a CA to trust for `jwksUri` (a test identity provider's own CA). */
  caFile?: string;
  /** Accepted audiences on the data plane (trailing slash optional). */
  dataAudiences?: string[];
  /** Accepted audiences on Resource Manager routes. */
  managementAudiences?: string[];
  /** Principals (oid, sub, appid, azp or client_id claims) holding a role; absent: everyone. */
  grantedPrincipals?: string[];
}

export type Plane = 'data' | 'management';

/** `error` unset: allowed; `roleless`: allowed to list subscriptions, of which it sees none. */
export interface Authenticated {
  error?: HttpError;
  roleless?: boolean;
}

export const DEFAULT_DATA_AUDIENCES = ['https://cognitiveservices.azure.com', 'https://ai.azure.com'];
export const DEFAULT_MANAGEMENT_AUDIENCES = ['https://management.azure.com', 'https://management.core.windows.net'];
/** Keys are fetched again for an unknown `kid` at most this often (key rollover without hammering the issuer). */
const JWKS_REFETCH_MS = 5_000;

const withSlashes = (list: string[]) => list.flatMap((a) => [a.replace(/\/+$/, ''), `${a.replace(/\/+$/, '')}/`]);

export class EntraValidator {
  /** jose fetches the issuer's keys, and again for a `kid` it does not know. */
  private readonly keys: ReturnType<typeof createRemoteJWKSet>;
  private readonly audiences: Record<Plane, string[]>;

  constructor(
    private readonly config: EntraConfig,
    private readonly log: (line: string) => void = () => {},
  ) {
    // Straight to the issuer (the emulator is a test tool, no proxy rules apply), trusting its own CA when one is configured.
    const secureContext = config.caFile ? createSecureContext({ ca: readFileSync(config.caFile) }) : undefined;
    const transport = new NodeTransport({}, { connectTimeoutMs: 10_000, secureContext }, {});
    const fetchKeys: FetchImplementation = async (url, { signal }) => {
      const res = await transport.request(url, { signal });
      return new Response(await res.body.text(), { status: res.statusCode });
    };
    const options = { timeoutDuration: 10_000, cooldownDuration: JWKS_REFETCH_MS, cacheMaxAge: Infinity, [customFetch]: fetchKeys };
    this.keys = createRemoteJWKSet(new URL(config.jwksUri), options);
    this.audiences = {
      data: withSlashes(config.dataAudiences ?? DEFAULT_DATA_AUDIENCES),
      management: withSlashes(config.managementAudiences ?? DEFAULT_MANAGEMENT_AUDIENCES),
    };
  }

  /** Whether the token is good for this plane, and if not, the service's answer. */
  async check(token: string, plane: Plane, operation: string): Promise<Authenticated> {
    let payload: JWTPayload;
    try {
      // A token that never expires is refused, as the service does.
      const options = { issuer: this.config.issuer, audience: this.audiences[plane], clockTolerance: 5, requiredClaims: ['exp'] };
      payload = (await jwtVerify(token, this.keys, options)).payload;
    } catch (err) {
      this.log(`token rejected (${plane}): ${(err as Error).message}`);
      return { error: rejection(err, plane, this.audiences[plane][0]) };
    }
    const principal = principalOf(payload);
    const granted = this.config.grantedPrincipals;
    if (granted && !granted.includes(principal)) {
      this.log(`principal ${principal} has no role (${plane})`);
      if (plane === 'management') {
        if (/^GET \/subscriptions$/i.test(operation)) return { roleless: true };
        return {
          error: azureError(
            403,
            'AuthorizationFailed',
            `The client '${principal}' with object id '${principal}' does not have authorization to perform action ` +
              `'Microsoft.CognitiveServices/accounts/read' over scope '${operation}' or the scope is invalid. ` +
              'If access was recently granted, please refresh your credentials.',
          ),
        };
      }
      return {
        error: azureError(
          401,
          'PermissionDenied',
          `The principal \`${principal}\` lacks the required data action \`Microsoft.CognitiveServices/accounts/OpenAI/*\` to perform \`${operation}\` operation.`,
        ),
      };
    }
    return {};
  }
}

export function principalOf(p: JWTPayload): string {
  for (const claim of ['oid', 'appid', 'azp', 'client_id', 'sub']) {
    const v = p[claim];
    if (typeof v === 'string' && v) return v;
  }
  return 'unknown';
}

function rejection(err: unknown, plane: Plane, audience: string): HttpError {
  if (plane === 'data') {
    return azureError(401, '401', `Unauthorized. Access token is missing, invalid, audience is incorrect (${audience.replace(/\/$/, '')}), or have expired.`);
  }
  if (err instanceof joseErrors.JWTExpired) return azureError(401, 'ExpiredAuthenticationToken', 'The access token expiry UTC time is earlier than current UTC time.');
  if (err instanceof joseErrors.JWTClaimValidationFailed && err.claim === 'aud') {
    return azureError(
      401,
      'InvalidAuthenticationTokenAudience',
      'The access token has been obtained for wrong audience or resource. ' +
        `It should exactly match with one of the allowed audiences ${DEFAULT_MANAGEMENT_AUDIENCES.map((a) => `'${a}/'`).join(',')}.`,
    );
  }
  return azureError(401, 'InvalidAuthenticationToken', 'The access token is invalid.');
}
