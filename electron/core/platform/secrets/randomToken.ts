/** Random tokens: the frontend bearer token and the client token key. */
import { randomBytes } from 'node:crypto';

/** A new random token (256 bits from the CSPRNG, URL-safe). */
export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}
