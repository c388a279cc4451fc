// @ts-check
/**
 * Import layering, checked by `npm run depcruise` (part of `npm run check`).
 *
 * The core is a house of wings along a request's path (docs/architecture.md).
 * Its folders form layers, bottom first; a folder may import only its own
 * layer and those below it. Type-only imports count: knowing another layer's
 * types is depending on it.
 *
 *   platform/deps.ts, typedEmitter.ts   Logger, CoreDeps, the event emitter
 *   platform/config, secrets            the config file, keychain values, redaction
 *   platform/observability              metrics, traces, JSON logs (off unless configured)
 *   platform/env                        the login shell's environment, finding commands
 *   platform/auth                       OAuth for a backend connection
 *   backends/process                    a stdio server's process group and tree
 *   backends/transport                  stdio, Streamable HTTP and SSE transports
 *   backends/connection                 one SDK client per backend and its requests
 *   backends/supervisor                 a backend's life: connect, list, probe, reconnect
 *   catalog                             merging and naming what backends serve
 *   catalog/policy                      rules, client profiles, pins, the audit log
 *   frontend/sessions, relay, routing   sessions; server-to-client requests; calls
 *   frontend/exposure, tasks            each client's tools/list, search mode; tasks
 *   api                                 the front door: the core's service interfaces and events
 *   install/clientApps                  client apps: their config files, install, import, connect
 *   install/entries                     saving a new server entry, whatever it came from
 *   install/bundles, registry           .mcpb bundles; the MCP Registry (whose packages may be bundles)
 *   frontend/server, http, stdio        the MCP endpoints
 *   switchboard                         SwitchboardCore and its private wiring
 *   electron/host                       the contract's handlers, the headless bridge
 *   electron/cli, the shell             the mcp-switchboard command; main.ts, preload.ts
 *
 * Outside the core, code imports only the front door (core/api) and each
 * feature's index.ts (the rule 'front-door' below). And no import cycles
 * anywhere in electron/, shared/ or renderer/.
 */
const core = 'electron/core';
/** Layers, bottom first: path patterns (regular expressions) of each. */
const LAYERS = [
  [`^${core}/platform/[^/]+\\.ts$`],
  [`^${core}/platform/(config|secrets)/`],
  [`^${core}/platform/observability/`],
  [`^${core}/platform/env/`],
  [`^${core}/platform/auth/`],
  [`^${core}/backends/process/`],
  [`^${core}/backends/transport/`],
  [`^${core}/backends/connection/`],
  [`^${core}/backends/supervisor/`],
  [`^${core}/catalog/[^/]+\\.ts$`, `^${core}/catalog/scan/`],
  [`^${core}/catalog/policy/`],
  [`^${core}/frontend/(sessions|relay|routing)/`],
  [`^${core}/frontend/(exposure|tasks)/`],
  [`^${core}/api/`],
  [`^${core}/install/clientApps/`],
  [`^${core}/install/entries/`],
  [`^${core}/install/bundles/`],
  [`^${core}/install/registry/`],
  [`^${core}/frontend/(server|http|stdio)/`],
  [`^${core}/switchboard/`],
  ['^electron/host/'],
  ['^electron/cli/', '^electron/(main|preload)\\.ts$'],
];

/** A wing's index.ts: its face toward the rest of the program, above all of the wing. */
const BARREL = `^${core}/[^/]+/index\\.ts$`;

/** Everything above layer `index`: what that layer must not import. */
const above = (index) => LAYERS.slice(index + 1).flat();

/** One rule per layer: it may import only its own layer and those below. */
const layerRules = LAYERS.slice(0, -1).map((paths, index) => ({
  name: 'layering',
  severity: /** @type {const} */ ('error'),
  comment: `${paths.join(' ')} may import only its own layer and those below it (see .dependency-cruiser.cjs)`,
  from: { path: paths, pathNot: BARREL },
  to: { path: above(index), pathNot: BARREL },
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
    {
      name: 'no-barrel-inside',
      severity: 'error',
      comment:
        "Inside the core, files import each other directly; a wing's index.ts is for the rest of the program (and importing it from inside makes cycles).",
      from: { path: `^${core}/`, pathNot: BARREL },
      to: { path: BARREL },
    },
    {
      name: 'front-door',
      severity: 'error',
      comment:
        "Outside the core, code imports only the front door (electron/core/api) and a wing's index.ts, never a core internal (tests of the core itself, under test/unit/core, may).",
      from: {
        path: ['^electron/(host|cli)/', '^electron/(main|preload)\\.ts$', '^test/(?!unit/core/|integration/)', '^bench/'],
      },
      to: { path: '^electron/core/', pathNot: ['^electron/core/api/', '^electron/core/[^/]+/index\\.ts$'] },
    },
    {
      name: 'front-door',
      severity: 'error',
      comment:
        "An integration test imports the front door and the wings' index.ts, and internals of its own wing only (test/integration/<wing>/: a part of the core that needs a real process, a redis-server or a shell, is tested there, as the unit tests under test/unit/core test the rest).",
      from: { path: '^test/integration/([^/]+)/' },
      to: {
        path: '^electron/core/',
        pathNot: ['^electron/core/api/', '^electron/core/[^/]+/index\\.ts$', '^electron/core/$1/'],
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['node_modules', '^dist/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
  },
};
