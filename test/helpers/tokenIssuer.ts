/**
 * A bare authorization server for token-check tests: RFC 8414 metadata and a
 * JWKS on 127.0.0.1, and access tokens we sign ourselves, so a test can make
 * exactly the bad token it needs (another audience, expired, a key rotated
 * away, a key never published). `rotate()` replaces the published key.
 */
import { createServer } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';

interface Key {
  kid: string;
  privateKey: CryptoKey;
  jwk: JWK;
}

async function newKey(kid: string): Promise<Key> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  return { kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' } };
}

/** A running test issuer. */
export interface TokenIssuer {
  issuer: string;
  /** Signs claims (iss, iat, exp in 5 minutes unless given) with the current key, or a named one. */
  sign(claims: Record<string, unknown>, key?: 'current' | 'previous' | 'forged'): Promise<string>;
  /** Publishes a new key instead of the current one (which becomes `previous`, no longer published). */
  rotate(): Promise<void>;
  close(): Promise<void>;
}

export async function startTokenIssuer(): Promise<TokenIssuer> {
  let current = await newKey('k1');
  let previous = current;
  const forged = await newKey('k1'); // same kid as a real key: only the signature tells it apart
  let serial = 1;
  const http = createServer((req, res) => {
    const path = new URL(req.url ?? '/', issuer).pathname;
    if (path === '/.well-known/oauth-authorization-server') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ issuer, jwks_uri: `${issuer}/jwks`, response_types_supported: ['code'] }));
    } else if (path === '/jwks') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ keys: [current.jwk] }));
    } else res.writeHead(404).end();
  });
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  const issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return {
    issuer,
    async sign(claims, which = 'current') {
      const key = which === 'current' ? current : which === 'previous' ? previous : forged;
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ iss: issuer, iat: now, exp: now + 300, ...claims })
        .setProtectedHeader({ alg: 'ES256', kid: key.kid, typ: 'at+jwt' })
        .sign(key.privateKey);
    },
    async rotate() {
      previous = current;
      current = await newKey(`k${++serial}`);
    },
    async close() {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}
