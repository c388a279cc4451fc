/**
 * The switchboard wing's face: the core object that implements the front
 * door's services, and the file-backed services a headless or desktop run
 * opens for it.
 */
export { openCoreServices, sharedCatalogCache, shareReviewState } from './coreServices.js';
export type { CoreServices } from './coreServices.js';
export { SwitchboardCore } from './switchboardCore.js';
