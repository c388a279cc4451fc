/**
 * The install wing's face: adding servers from the MCP Registry and .mcpb
 * bundles, and installing Switchboard into client apps (their config files,
 * imports, snippets and the stdio bridge).
 */
export type { BundleManifest } from './bundles/bundleManifest.js';
export { installBundle, readBundleBytes } from './bundles/installBundle.js';
export { installingPath, sweepInstallLeftovers } from './bundles/installLeftovers.js';
export { bridgeStdioToHttp } from './clientApps/connect/stdioBridge.js';
export { ensureInstance } from './clientApps/connect/ensureInstance.js';
export { waitForBackends } from './clientApps/connect/waitReady.js';
export { cliProfileOwner, defaultClientsContext, profileTokenProvider } from './clientApps/context.js';
export type { ProfileOwner } from './clientApps/context.js';
export { CLIENT_TOKEN_VARIABLE, clientDefinition, clientDefinitions } from './clientApps/definitions.js';
export type { ClientDefinition } from './clientApps/definitions.js';
export { importServers, keepSecrets, listImportable } from './clientApps/import.js';
export { detectClients, installClient, undoLastWrite, uninstallClient } from './clientApps/install.js';
export type { ClientsContext } from './clientApps/install.js';
export { backendIdFor, normalizeEntry } from './clientApps/normalize.js';
export { readProfileExposure, writeProfileExposure } from './clientApps/profileExposure.js';
export {
  installedSkillClients,
  installSkills,
  isSkillsClient,
  SKILL_MARKER,
  SKILLS_CLIENTS,
  skillsFolderOf,
  uninstallSkills,
} from './clientApps/skillsInstall.js';
export type { SkillsClientId, SkillsInstallOutcome } from './clientApps/skillsInstall.js';
export { SkillsSync } from './clientApps/skillsSync.js';
export {
  answersHealth,
  findRunningInstance,
  readRuntimeFile,
  removeRuntimeFile,
  writeRuntimeFile,
} from './clientApps/runtimeFile.js';
export type { RuntimeInfo } from './clientApps/runtimeFile.js';
export { keychainSink, looksSecret, refuseSecretsSink, secretSinkFor } from './clientApps/secrets.js';
export type { SecretSink } from './clientApps/secrets.js';
export { clientSnippet } from './clientApps/snippet.js';
export { checkedScope, contextFor } from './clientApps/endpointChoice.js';
export { gatewayContext, gatewayResourceOf } from './clientApps/gatewayEntries.js';
export type { EndpointChoice } from './clientApps/endpointChoice.js';
export { resolveTarget } from './clientApps/target.js';
export type { Target } from './clientApps/target.js';
export { CLIENT_IDS } from './clientApps/clientAppTypes.js';
export type { ClientId, ClientStatus, Launcher, PlatformEnv, WriteOutcome } from './clientApps/clientAppTypes.js';
export { addFromRegistry, newRegistryEntry, pickOption, resolveEntry } from './registry/addFromRegistry.js';
export { InputError } from './registry/inputs.js';
export type { RegistryClient } from './registry/registryClient.js';
export type { RegistryAddContext } from './registry/addFromRegistry.js';
export type { InputValues } from './entries/saveEntry.js';
export { ageOf } from './registry/httpCache.js';
export { optionsOf } from './registry/mapping.js';
export { registryClientFor } from './registry/registryConfig.js';
export { listOutdated, updateFromRegistry } from './registry/registryUpdates.js';
export { backendSources } from './entries/runningBackends.js';
export type { RunningBackends } from './entries/runningBackends.js';
export { secretChoiceNeeded, sinkWithoutKeychain } from './entries/secretChoice.js';
export { grantablePath, sandboxable, withDefaultSandbox } from './clientApps/sandboxDefault.js';
export type { SandboxGrants } from './clientApps/sandboxDefault.js';
export type { SecretStorage } from './entries/secretChoice.js';
export type { Freshness, RegistryEntry } from './registry/registryTypes.js';
export {
  exportProfileText,
  importProfileText,
  listProfiles,
  previewProfileImport,
} from './profileFiles/profileFileActions.js';
export { inputVariable } from './profileFiles/serverInputs.js';
export type { ImportOutcome, ImportOwner } from './profileFiles/applyImport.js';
export { readProfileFile } from './profileFiles/importPlan.js';
export type { ImportPlan, InputNeed } from './profileFiles/importPlan.js';
