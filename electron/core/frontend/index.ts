/**
 * The client-facing wing's face: the HTTP and stdio endpoints, and the few
 * request-path types and search-mode pieces the host's Try it and catalog
 * views share with the endpoints (and the event retention and code mode's
 * sandbox, for their benches).
 */
export { searchTools } from './exposure/metaToolCalls.js';
export { ALWAYS_LOAD_META } from './exposure/metaTools.js';
export { ToolSearchIndex } from './exposure/search/toolSearchIndex.js';
export { bearerToken, tokenMatcher } from './http/bearer.js';
export { EventRetention } from './http/eventRetention.js';
export { HttpEndpoint } from './http/httpEndpoint.js';
export type { HttpExtension } from './http/httpEndpoint.js';
export { principalOf } from './http/gateway/principalClaims.js';
export type { DrainOutcome } from './http/drain.js';

/** Gateway mode's token check alone (for its bench), loaded on demand: laptop runs never load it. */
export const loadTokenCheck = () => import('./http/gateway/tokenCheck.js');
/** Code mode's sandbox alone (for its bench): the worker pool and the engine's runner, loaded on demand. */
export const loadCodeSandbox = async () => ({
  pool: await import('./exposure/code/sandboxPool.js'),
  runner: await import('./exposure/code/sandboxRunner.js'),
});
export type { FrontendChannel, InputRequestMessage } from './relay/frontendChannel.js';
export type { ProgressUpdate } from './routing/forwarding.js';
export type { RouteOptions } from './routing/router.js';
export { EXTENSION_ID, HealthResultSchema } from './server/healthMethod.js';
export { serveCoreOverStdio } from './stdio/stdioEndpoint.js';
export type { ProxyTask } from './tasks/proxyTask.js';
