/**
 * Bearer-token checks for the local endpoint. Tokens come from a CSPRNG
 * (platform/secrets/randomToken.ts) and are compared in constant time (comparing
 * digests keeps lengths equal).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** A constant-time matcher for one expected token, digested once (this runs on every request). */
export function tokenMatcher(expected: string): (presented: string) => boolean {
  const expectedDigest = digest(expected);
  return (presented) => timingSafeEqual(digest(presented), expectedDigest);
}

/** The token of an `Authorization: Bearer <token>` header, if present. */
export function bearerToken(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}
