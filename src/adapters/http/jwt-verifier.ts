import { readFileSync } from 'node:fs';
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  errors as joseErrors,
  jwtVerify,
  type JSONWebKeySet,
  type JWTVerifyGetKey,
} from 'jose';
import { ConfigurationError } from '../../domain/errors.js';

export interface JwtSettings {
  jwtSecret?: string;
  jwtJwks?: string;
  jwtIssuer?: string;
  jwtAudience?: string;
}

/** Verifies a JWT bearer token and returns its subject, or undefined when the token proves nothing. */
export interface JwtVerifier {
  readonly issuer: string;
  verify(token: string): Promise<string | undefined>;
}

/** Asymmetric algorithms accepted from a JWKS. Pinned: `none` and HMAC-with-a-public-key confusion never verify. */
const JWKS_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];
const SECRET_ALGORITHMS = ['HS256'];

/**
 * Builds the verifier when TERM_MCP_JWT_SECRET (HS256) and/or TERM_MCP_JWT_JWKS (file path or https URL) is set.
 * Issuer and audience are required then: a token minted for another service must not open this one
 * (MCP authorization: servers MUST validate the token audience). `exp` and `sub` are required claims.
 * Throws `ConfigurationError` naming the variable at start-up.
 */
export function createJwtVerifier(settings: JwtSettings): JwtVerifier | undefined {
  const { jwtSecret, jwtJwks, jwtIssuer, jwtAudience } = settings;
  if (jwtSecret === undefined && jwtJwks === undefined) return undefined;
  if (jwtIssuer === undefined) {
    throw new ConfigurationError('TERM_MCP_JWT_ISSUER: required when JWT authentication is configured', {
      setting: 'TERM_MCP_JWT_ISSUER',
    });
  }
  if (jwtAudience === undefined) {
    throw new ConfigurationError('TERM_MCP_JWT_AUDIENCE: required when JWT authentication is configured', {
      setting: 'TERM_MCP_JWT_AUDIENCE',
    });
  }
  const secret = jwtSecret === undefined ? undefined : new TextEncoder().encode(jwtSecret);
  const jwks = jwtJwks === undefined ? undefined : loadJwks(jwtJwks);
  const algorithms = [...(secret ? SECRET_ALGORITHMS : []), ...(jwks ? JWKS_ALGORITHMS : [])];
  // The key follows the header's algorithm; `algorithms` has already refused anything outside the pinned list.
  const key: JWTVerifyGetKey = async (header, token) => {
    if (header.alg !== undefined && SECRET_ALGORITHMS.includes(header.alg)) {
      if (secret) return secret;
    } else if (jwks) {
      return jwks(header, token);
    }
    throw new joseErrors.JOSEAlgNotAllowed('no key for this algorithm');
  };

  return {
    issuer: jwtIssuer,
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms,
          issuer: jwtIssuer,
          audience: jwtAudience,
          requiredClaims: ['exp', 'sub'],
        });
        return typeof payload.sub === 'string' && payload.sub.length > 0 ? payload.sub : undefined;
      } catch (error) {
        if (error instanceof joseErrors.JOSEError) return undefined;
        throw error;
      }
    },
  };
}

function loadJwks(source: string): JWTVerifyGetKey {
  if (/^https:\/\//i.test(source)) return createRemoteJWKSet(new URL(source));
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(source)) {
    throw new ConfigurationError('TERM_MCP_JWT_JWKS: a JWKS URL must use https (or give a file path)', {
      setting: 'TERM_MCP_JWT_JWKS',
    });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(source, 'utf8'));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigurationError(`TERM_MCP_JWT_JWKS: cannot read a JWKS from ${source}: ${reason}`, {
      setting: 'TERM_MCP_JWT_JWKS',
    });
  }
  if (typeof parsed !== 'object' || parsed === null || !Array.isArray((parsed as { keys?: unknown }).keys)) {
    throw new ConfigurationError(`TERM_MCP_JWT_JWKS: ${source} is not a JWKS ({"keys": [...]})`, {
      setting: 'TERM_MCP_JWT_JWKS',
    });
  }
  return createLocalJWKSet(parsed as JSONWebKeySet);
}
