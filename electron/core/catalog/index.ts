/**
 * The catalog-and-policy wing's face: the merged catalog's types and token
 * counts, the file-backed policy stores (client tokens, tool pins, server approvals, the
 * audit log) that a run opens and the host reads, and the poisoning scan of every server's
 * definitions.
 */
export { ORIGIN_META_KEY, buildCatalog } from './catalog.js';
export type { Catalog } from './catalog.js';
export { CatalogCache } from './catalogCache.js';
export { CatalogPublisher } from './catalogPublisher.js';
export { ApprovalBroker, type ApprovalRequest } from './policy/approvals.js';
export { AuditLog } from './policy/auditLog.js';
export { exportAudit } from './policy/auditExport.js';
export type { AuditExportFilter } from './policy/auditExport.js';
export type { AuditDecision, AuditKind } from './policy/auditLog.js';
export { ClientTokens, TOKEN_KEY_ACCOUNT } from './policy/clientTokens.js';
export type { TokenKeyLocation } from './policy/clientTokens.js';
export { PinStore } from './policy/pinStore.js';
export { ServerApprovals } from './policy/serverApprovals.js';
export { scanCatalog, scanCatalogWith } from './scan/scanCatalog.js';
export { ALL_RULES } from './scan/rules/allRules.js';
export type { ScanRuleCheck } from './scan/rules/rule.js';
export type { ScanInput } from './scan/scanCatalog.js';
export { toolListTokens, toolTokens } from './toolTokens.js';
export { overrideIn, overrideProblems, sourceIn, writeOverride } from './overrides/overrideEdit.js';
export type { OverrideTarget } from './overrides/overrideEdit.js';
export type { AnyToolOverride } from './overrides/toolSource.js';
export { callerIdentityOf } from './policy/callerIdentity.js';
export type { Principal } from './policy/principal.js';
export { NO_PROFILE, profileFor, unboundMessage } from './policy/principalBinding.js';
export type { ProfileChoice } from './policy/principalBinding.js';
export { requiredScopes } from './policy/toolScopes.js';
export { promptFields, resourceFields, templateFields, toolFields } from './scan/scanFields.js';
export { sentenceSpans, wordingFeatures } from './scan/model/wordingFeatures.js';
