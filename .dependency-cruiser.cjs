// @ts-check
/**
 * Import layering, checked by `npm run depcruise` (part of `npm run check`).
 *
 * The core's folders form layers, bottom first; a folder may import only its
 * own layer and those below it. Type-only imports count: knowing another
 * layer's types is depending on it.
 *
 *   deps.ts (Logger, CoreDeps)
 *   config, secrets          the config file, keychain values, redaction
 *   env                      the login shell's environment, finding commands
 *   auth                     OAuth for a backend connection
 *   backends                 one SDK client per backend, supervisors
 *   catalog                  merging and naming what backends serve
 *   policy                   rules, client views, pins, the audit log
 *   relay, routing, sessions server-to-client requests, subscriptions; calls; connected sessions
 *   exposure, search, tasks  each client's tools/list, search mode; tasks (2025-11-25)
 *   coreApi, coreEvents, events  the core's service interfaces and events (types only)
 *   registry, bundles, clients  installing servers and client apps
 *   frontend                 the MCP endpoints (HTTP, stdio)
 *   the core's own files     switchboard.ts, requestPath.ts, coreServices.ts ...
 *   electron/host            the contract's handlers, the headless bridge
 *   electron/cli, the shell  the mcp-switchboard command; main.ts, preload.ts
 *
 * And no import cycles anywhere in electron/, shared/ or renderer/.
 */
const core = 'electron/core';
/** Layers, bottom first: path patterns (regular expressions) of each. */
const LAYERS = [
  [`^${core}/deps\\.ts$`],
  [`^${core}/(config|secrets)/`],
  [`^${core}/env/`],
  [`^${core}/auth/`],
  [`^${core}/backends/`],
  [`^${core}/catalog/`],
  [`^${core}/policy/`],
  [`^${core}/(relay|routing|sessions)/`],
  [`^${core}/(exposure|search|tasks)/`],
  [`^${core}/(coreApi|coreEvents|events)\\.ts$`],
  [`^${core}/(registry|bundles|clients)/`],
  [`^${core}/frontend/`],
  [`^${core}/(?!(deps|coreApi|coreEvents|events)\\.ts$)[^/]+\\.ts$`],
  ['^electron/host/'],
  ['^electron/cli/', '^electron/(main|preload)\\.ts$'],
];

/** Everything above layer `index`: what that layer must not import. */
const above = (index) => LAYERS.slice(index + 1).flat();

/** One rule per layer: it may import only its own layer and those below. */
const layerRules = LAYERS.slice(0, -1).map((paths, index) => ({
  name: 'layering',
  severity: /** @type {const} */ ('error'),
  comment: `${paths.join(' ')} may import only its own layer and those below it (see .dependency-cruiser.cjs)`,
  from: { path: paths },
  to: { path: above(index) },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Import cycles make load order matter and layers meaningless.',
      from: {},
      to: { circular: true },
    },
    ...layerRules,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['node_modules', '^dist/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
  },
};
