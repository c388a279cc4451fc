/**
 * The front door of the core: the services the host, the CLI and the shell use
 * (services.ts), the events they listen to (events.ts) and the platform pieces
 * they hand in (CoreDeps, Logger). Outside the core, code imports this and the
 * wings' index.ts files only (the depcruise rule `front-door`).
 */
export type { Switchboard } from './services.js';
export { silentLogger, stderrLogger } from '../platform/deps.js';
export type { CoreDeps, Logger } from '../platform/deps.js';
