/**
 * The platform wing's face: the config file and its store, secrets and the
 * keychain, the login shell's environment, and OAuth state of backends, as the
 * host and the CLI use them.
 */
export { readAuthStatus, usesOAuth } from './auth/authRegistry.js';
export { BackendAuth } from './auth/backendAuth.js';
export { CALLER_CREDENTIALS_FILE, CallerTokenStore, UnreadableRecordError } from './auth/callerTokenStore.js';
export { decodeKey, loadCredentialKey, TOKEN_KEY_VARIABLE } from './auth/credentialKey.js';
export { isOAuthSecretName, vaultAccount } from './auth/vault.js';
export type { VaultTokens } from './auth/vault.js';
export { fileWriter } from './config/atomicWriter.js';
export { ConfigStore } from './config/configStore.js';
export type { AtomicWriter } from './config/configStore.js';
export { missingVariables } from './config/expand.js';
export { frontendTokenPath, resolveFrontendToken } from './config/frontendToken.js';
export type { TokenSource } from './config/frontendToken.js';
export { inspectArgs, inspectUrl, restoreMaskedUrl } from './config/inlineSecrets.js';
export { formatProblems, loadConfigFile } from './config/load.js';
export { openConfigStore } from './config/openConfigStore.js';
export { defaultAuditDir, defaultConfigDir, defaultConfigPath, defaultStateDir } from './config/paths.js';
export { LOCAL_CLIENT } from './config/policyConfig.js';
export { ConfigFileSchema, ExtraPathSchema, parseBackend, parseConfig, ProxyOptionsSchema } from './config/schema.js';
export type { BackendConfig, SwitchboardConfig } from './config/schema.js';
export { GatewaySchema } from './config/gatewayConfig.js';
export type { GatewayConfig, GatewayUiConfig } from './config/gatewayConfig.js';
export { missingRuntime } from './env/findCommand.js';
export { resolveLoginEnvironment, startLoginEnvironment, takeLoginEnvironment } from './env/loginShell.js';
export { StdioPath } from './env/stdioPath.js';
export { KeytarStore, keytarAdvice } from './secrets/keytarStore.js';
export { createRedaction } from './secrets/redaction.js';
export type { Redaction } from './secrets/redaction.js';
export { plainValues, resolveValues, unresolvedSecrets, valueMapsOf } from './secrets/resolve.js';
export { cachedSecretForms, secretRedactor } from './secrets/secretForms.js';
export { isSecretReference } from './secrets/secretStore.js';
export type { SecretStore, SecretStoreStatus } from './secrets/secretStore.js';
export { toErrorData } from './toErrorData.js';
export { jsonLog } from './observability/jsonLog.js';
export type { JsonLog } from './observability/jsonLog.js';
export { NO_OBSERVABILITY } from './observability/observability.js';
export type { MetricsSource, Observability } from './observability/observability.js';
export { openObservability } from './observability/openObservability.js';
export { openCluster } from './cluster/openCluster.js';
export { redisConfigDocument } from './cluster/redisConfigDocument.js';
export type { Cluster, SharedStateStatus } from './cluster/cluster.js';
export type { ClusterConfig } from './config/clusterConfig.js';
export type { LogFormat } from './config/observabilityConfig.js';
