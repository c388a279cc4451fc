/**
 * Gateway mode's token check on its own, as a function of an Authorization
 * header: what the endpoint runs per request, without the endpoint (the
 * bench measures it; the front door hands it out lazily, so a laptop run
 * never loads jose or openid-client).
 */
import { verifyBearerToken } from '@modelcontextprotocol/server';
import type { GatewayConfig } from '../../../platform/config/gatewayConfig.js';
import { AuthorizationServers } from './authorizationServers.js';
import { TokenVerifier, type GatewayAuthInfo } from './tokenVerifier.js';

/** A token check and how to stop its requests to the authorization servers. */
export interface TokenCheck {
  check(authorization: string): Promise<GatewayAuthInfo>;
  close(): void;
}

/** The check of `gateway` (JWT access tokens; introspection needs the endpoint's secret resolution). */
export function createTokenCheck(gateway: GatewayConfig): TokenCheck {
  const servers = new AuthorizationServers(gateway);
  const verifier = new TokenVerifier(gateway, servers, undefined);
  const options = { verifier, expectedResource: new URL(gateway.resource), requiredScopes: gateway.requiredScopes };
  return {
    check: async (authorization) => (await verifyBearerToken(authorization, options)) as GatewayAuthInfo,
    close: () => servers.close(),
  };
}
