/**
 * The backends wing's face: what the host's one-shot checks and the CLI need
 * of a backend connection and of a server's processes.
 */
export { BackendConnection } from './connection/backendConnection.js';
export type { BackendCatalog } from './connection/backendConnection.js';
export { commandWarnings } from './process/commandCheck.js';
export { isProcessAlive } from './process/processTree.js';
export { claimOwnership } from './process/instanceOwner.js';
export { reapOrphans } from './process/orphanReaper.js';
export { readinessOf } from './supervisor/backendPool.js';
export { LineTail } from './transport/transports.js';
export { sandboxSupport, type SandboxSupport } from './process/sandbox/sandboxSupport.js';
export {
  machineMissingSandboxPackages,
  missingSandboxPackages,
  type MissingSandboxPackages,
} from './process/sandbox/sandboxPackages.js';
export { outsidePaths } from './process/sandbox/outsidePaths.js';
export { refusalsOf } from './process/sandbox/callRefusals.js';
export { learnBackend, writeSandboxSetting } from './supervisor/learnBackend.js';
export { learnPermissions, type LearnCall } from './supervisor/learnRun.js';
export { acceptedSetting, grantDiff, renderDiff } from './process/sandbox/learnDiff.js';
export { findCommand } from './process/commandLookup.js';
/** The relay of a plain call past the SDK client (the differential test of both paths watches it). */
export { PlainRelay } from './connection/plainRelay.js';
