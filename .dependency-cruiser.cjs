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
 *   exposure, search         each client's tools/list, search mode
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
  [`^${core}/(exposure|search)/`],
  [`^${core}/(coreApi|coreEvents|events)\\.ts$`],
  [`^${core}/(registry|bundles|clients)/`],
  [`^${core}/frontend/`],
  [`^${core}/(?!(deps|coreApi|coreEvents|events)\\.ts$)[^/]+\\.ts$`],
  ['^electron/host/'],
  ['^electron/cli/', '^electron/(main|preload)\\.ts$'],
];

/**
 * Imports that break the layering today, each in an area another change is
 * reworking; they are allowed until that lands.
 * TODO(#12 merge): remove every entry below (the lead, at merge).
 */
const PENDING = [
  // TODO(#12 merge): the policy section's schema belongs with the config's (policy: splitting schema.ts).
  { from: `^${core}/config/schema\\.ts$`, to: `^${core}/policy/policyConfig\\.ts$` },
  // TODO(#12 merge): core-wide authorization wiring sees the supervisors (routing/policy: narrow services).
  { from: `^${core}/auth/coreAuthorization\\.ts$`, to: `^${core}/backends/supervisorMap\\.ts$` },
  // TODO(#12 merge): BackendConnection uses call tracking and upstream subscriptions (routing: typed operations).
  { from: `^${core}/backends/backend(Connection|Client)\\.ts$`, to: `^${core}/relay/` },
  // TODO(#12 merge): a launch knows the catalog cache (policy: splitting backendSupervisor.ts).
  { from: `^${core}/backends/backendLaunch\\.ts$`, to: `^${core}/catalog/catalogCache\\.ts$` },
  // TODO(#12 merge): PolicyEngine resolves `auto` exposure (policy/search: PolicyEngine.decide).
  { from: `^${core}/policy/policyEngine\\.ts$`, to: `^${core}/exposure/exposureMode\\.ts$` },
];

/** Everything above layer `index`: what that layer must not import. */
const above = (index) => LAYERS.slice(index + 1).flat();

/** The layer a `from` pattern of {@link PENDING} is in. */
const layerOf = (from) => {
  const sample = from.replace(/^\^/, '').replace(/\$$/, '').replaceAll('\\', '');
  const file = sample.endsWith('/') ? `${sample}x.ts` : sample;
  return LAYERS.findIndex((paths) => paths.some((path) => new RegExp(path).test(file)));
};

/** One rule per layer; a file with pending imports gets its own rule that allows exactly those. */
const layerRules = LAYERS.slice(0, -1).flatMap((paths, index) => {
  const pending = PENDING.filter((entry) => layerOf(entry.from) === index);
  const rule = (from, pathNot) => ({
    name: 'layering',
    severity: /** @type {const} */ ('error'),
    comment: `${paths.join(' ')} may import only its own layer and those below it (see .dependency-cruiser.cjs)`,
    from,
    to: { path: above(index), ...(pathNot.length > 0 ? { pathNot } : {}) },
  });
  return [
    rule({ path: paths, ...(pending.length > 0 ? { pathNot: pending.map((entry) => entry.from) } : {}) }, []),
    ...pending.map((entry) => rule({ path: entry.from }, [entry.to])),
  ];
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Import cycles make load order matter and layers meaningless.',
      from: {
      },
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
