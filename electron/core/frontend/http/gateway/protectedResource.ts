/**
 * What the gateway tells clients about itself (RFC 9728): the Protected
 * Resource Metadata document, served at `/.well-known/oauth-protected-resource`
 * and at the path-aware `/.well-known/oauth-protected-resource/mcp`, and the
 * `WWW-Authenticate` challenges that point to it. A request without a token
 * gets `Bearer resource_metadata="..."` (RFC 6750 §3.1: no error code); a
 * refused token, or one lacking a scope, gets the SDK's challenge
 * (`error="invalid_token"` / `"insufficient_scope"` with `scope`).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  bearerAuthChallengeResponse,
  getOAuthProtectedResourceMetadataUrl,
  OAuthError,
  OAuthErrorCode,
} from '@modelcontextprotocol/server';
import type { GatewayConfig } from '../../../platform/config/gatewayConfig.js';
import { ErrorCode } from '../../../../../shared/errors.js';
import { jsonRpcError, sendJson } from '../httpJson.js';

/** The paths the metadata document is served at. */
export const METADATA_PATHS = new Set([
  '/.well-known/oauth-protected-resource',
  '/.well-known/oauth-protected-resource/mcp',
]);

/** The metadata document and the challenges; see the module comment. */
export class ProtectedResource {
  /** Where clients find the metadata (the path-aware URL). */
  readonly metadataUrl: string;
  private readonly document: Record<string, unknown>;

  constructor(private readonly gateway: GatewayConfig) {
    this.metadataUrl = getOAuthProtectedResourceMetadataUrl(new URL(gateway.resource));
    this.document = {
      resource: gateway.resource,
      authorization_servers: gateway.authorizationServers,
      bearer_methods_supported: ['header'],
      resource_name: 'MCP Switchboard',
      ...(gateway.scopesSupported ? { scopes_supported: gateway.scopesSupported } : {}),
    };
  }

  /** Answers a metadata request (GET, HEAD, a CORS preflight); false for any other path. */
  serve(req: IncomingMessage, res: ServerResponse, path: string): boolean {
    if (!METADATA_PATHS.has(path)) return false;
    const cors = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Methods': 'GET, OPTIONS' };
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { ...cors, 'Access-Control-Allow-Headers': 'mcp-protocol-version' }).end();
      return true;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD, OPTIONS' }).end();
      return true;
    }
    for (const [name, value] of Object.entries(cors)) res.setHeader(name, value);
    res.setHeader('Cache-Control', 'max-age=3600');
    sendJson(res, 200, this.document);
    return true;
  }

  /** 401 for a request without a token: where to sign in, and the scopes every call needs. */
  missingToken(res: ServerResponse): void {
    const required = this.gateway.requiredScopes;
    const scope = required.length > 0 ? `, scope="${required.join(' ')}"` : '';
    jsonRpcError(res, 401, -32000, 'Unauthorized: sign in (OAuth) to use this server', {
      'WWW-Authenticate': `Bearer resource_metadata="${this.metadataUrl}"${scope}`,
    });
  }

  /** 401 (a refused token), 403 (a missing scope) or 500/503 (we could not check), as the SDK builds them. */
  refused(
    res: ServerResponse,
    error: unknown,
    requiredScopes: string[] = this.gateway.requiredScopes,
    id: unknown = null,
  ): void {
    const answer = bearerAuthChallengeResponse(error, { requiredScopes, resourceMetadataUrl: this.metadataUrl });
    const challenge = answer.headers.get('WWW-Authenticate');
    const message = error instanceof OAuthError ? error.message : 'the token could not be checked';
    const unavailable = error instanceof OAuthError && error.code === OAuthErrorCode.ServerError;
    const status = unavailable ? 503 : answer.status;
    const data =
      error instanceof OAuthError && error.code === OAuthErrorCode.InsufficientScope
        ? { code: ErrorCode.InsufficientScope, scopes: requiredScopes }
        : undefined;
    jsonRpcError(
      res,
      status,
      -32000,
      `${status === 403 ? 'Forbidden' : status === 401 ? 'Unauthorized' : 'Unavailable'}: ${message}`,
      challenge ? { 'WWW-Authenticate': challenge } : {},
      data,
      id,
    );
  }
}
