import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exportJWK, generateKeyPair, SignJWT, type JWTPayload } from 'jose';
import { ConfigurationError } from '../../../src/domain/errors';
import { createJwtVerifier } from '../../../src/adapters/http/jwt-verifier';

const SECRET = 'a-jwt-secret-that-is-longer-than-thirty-two';
const ISSUER = 'https://issuer.example';
const AUDIENCE = 'term-mcp';

function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

async function hs256(claims: JWTPayload, secret = SECRET): Promise<string> {
  let jwt = new SignJWT(claims).setProtectedHeader({ alg: 'HS256' });
  if (claims.exp === undefined) jwt = jwt.setExpirationTime('5m');
  return jwt.sign(new TextEncoder().encode(secret));
}

const valid: JWTPayload = { sub: 'alice', iss: ISSUER, aud: AUDIENCE };

describe('createJwtVerifier', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'term-mcp-jwks-'));
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('is absent when no secret and no JWKS are configured', () => {
    expect(createJwtVerifier({ jwtIssuer: ISSUER })).toBeUndefined();
  });

  describe('HS256 secret', () => {
    const verifier = createJwtVerifier({ jwtSecret: SECRET, jwtIssuer: ISSUER, jwtAudience: AUDIENCE });

    it('returns the subject of a valid token', async () => {
      await expect(verifier?.verify(await hs256(valid))).resolves.toBe('alice');
    });

    it('refuses an expired token', async () => {
      const expired = await hs256({ ...valid, exp: Math.floor(Date.now() / 1000) - 600 });

      await expect(verifier?.verify(expired)).resolves.toBeUndefined();
    });

    it('refuses a token without exp', async () => {
      const eternal = await new SignJWT(valid)
        .setProtectedHeader({ alg: 'HS256' })
        .sign(new TextEncoder().encode(SECRET));

      await expect(verifier?.verify(eternal)).resolves.toBeUndefined();
    });

    it('refuses a token without sub', async () => {
      await expect(verifier?.verify(await hs256({ iss: ISSUER, aud: AUDIENCE }))).resolves.toBeUndefined();
    });

    it('refuses a token from another issuer', async () => {
      await expect(verifier?.verify(await hs256({ ...valid, iss: 'https://other.example' }))).resolves.toBeUndefined();
    });

    it('refuses a token for another audience', async () => {
      await expect(verifier?.verify(await hs256({ ...valid, aud: 'another-service' }))).resolves.toBeUndefined();
    });

    it('refuses a token signed with another secret', async () => {
      await expect(
        verifier?.verify(await hs256(valid, 'another-secret-that-is-also-long-enough')),
      ).resolves.toBeUndefined();
    });

    it('refuses an unsecured token (alg none)', async () => {
      const exp = Math.floor(Date.now() / 1000) + 300;
      const unsecured = `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url({ ...valid, exp })}.`;

      await expect(verifier?.verify(unsecured)).resolves.toBeUndefined();
    });

    it('refuses garbage', async () => {
      await expect(verifier?.verify('not.a.jwt')).resolves.toBeUndefined();
    });
  });

  describe('JWKS file', () => {
    it('verifies tokens signed by a key of the set, and nothing signed with HS256', async () => {
      const { publicKey, privateKey } = await generateKeyPair('ES256');
      const jwksPath = path.join(dir, 'jwks.json');
      writeFileSync(jwksPath, JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' }] }));
      const verifier = createJwtVerifier({ jwtJwks: jwksPath, jwtIssuer: ISSUER, jwtAudience: AUDIENCE });
      const signed = await new SignJWT(valid)
        .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
        .setExpirationTime('5m')
        .sign(privateKey);

      await expect(verifier?.verify(signed)).resolves.toBe('alice');
      await expect(verifier?.verify(await hs256(valid))).resolves.toBeUndefined();
    });

    it('refuses a token signed by a key outside the set', async () => {
      const trusted = await generateKeyPair('ES256');
      const stranger = await generateKeyPair('ES256');
      const jwksPath = path.join(dir, 'jwks.json');
      writeFileSync(jwksPath, JSON.stringify({ keys: [await exportJWK(trusted.publicKey)] }));
      const verifier = createJwtVerifier({ jwtJwks: jwksPath, jwtIssuer: ISSUER, jwtAudience: AUDIENCE });
      const forged = await new SignJWT(valid)
        .setProtectedHeader({ alg: 'ES256' })
        .setExpirationTime('5m')
        .sign(stranger.privateKey);

      await expect(verifier?.verify(forged)).resolves.toBeUndefined();
    });
  });

  describe('configuration errors', () => {
    it('requires an issuer', () => {
      expect(() => createJwtVerifier({ jwtSecret: SECRET, jwtAudience: AUDIENCE })).toThrow(/TERM_MCP_JWT_ISSUER/);
    });

    it('requires an audience', () => {
      expect(() => createJwtVerifier({ jwtSecret: SECRET, jwtIssuer: ISSUER })).toThrow(/TERM_MCP_JWT_AUDIENCE/);
    });

    it('refuses a JWKS URL that is not https', () => {
      expect(() =>
        createJwtVerifier({ jwtJwks: 'http://issuer.example/jwks.json', jwtIssuer: ISSUER, jwtAudience: AUDIENCE }),
      ).toThrow(ConfigurationError);
    });

    it('names the variable when the JWKS file is missing or not a key set', () => {
      const notAKeySet = path.join(dir, 'not-jwks.json');
      writeFileSync(notAKeySet, '{"hello":"world"}');

      expect(() =>
        createJwtVerifier({ jwtJwks: path.join(dir, 'missing.json'), jwtIssuer: ISSUER, jwtAudience: AUDIENCE }),
      ).toThrow(/TERM_MCP_JWT_JWKS: cannot read/);
      expect(() => createJwtVerifier({ jwtJwks: notAKeySet, jwtIssuer: ISSUER, jwtAudience: AUDIENCE })).toThrow(
        /TERM_MCP_JWT_JWKS: .* is not a JWKS/,
      );
    });

    it('accepts an https JWKS URL without fetching it at start-up', () => {
      expect(
        createJwtVerifier({ jwtJwks: 'https://issuer.example/jwks.json', jwtIssuer: ISSUER, jwtAudience: AUDIENCE })
          ?.issuer,
      ).toBe(ISSUER);
    });
  });
});
