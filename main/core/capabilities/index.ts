/** Public API of the capability core. Import from here outside main/core/capabilities. */
export * from './capability.js';
export * from './groups.js';
export { DEFAULT_TIMEOUT_MS, MUTATING_CLASSES, NETWORK_CLASSES, isMutating, isNetwork, normalizeCapability, type NormalizedCapability } from './derive.js';
export {
  GUEST_DEFAULT_ALLOW, GUEST_DENIED_KINDS, GUEST_OWNER_DATA_TOOLS, OPERATOR_DEFAULT_ALLOW,
  defaultAllow, guestRestriction, resolvePolicy, subagentPolicy,
  type PolicyEnvironment, type PolicySpec, type ResolvedPolicy,
} from './trust.js';
export { FILTER_STEPS, type FilterStep, type ListFilter } from './filter.js';
export {
  createRegistry, validateCapability,
  type CapabilityRegistry, type MetadataMatch, type Rejection, type RegistryChange, type RegistryListener, type RegistryOptions,
} from './registry.js';
export { BUILTIN_OPERATOR_ROLE, OPERATOR_ROLE, capabilitiesForRole, configuredRoles, mainAgentRole, roleGrants, roleReaches, validateRole, type Role } from './roles.js';
export {
  canonicalArgs, createMemoryRuleStore, describeRule, escapeGlob, normalizePath, ruleMatches,
  type CanonicalArgs, type Rule, type RuleAction, type RuleSource, type RuleStore,
} from './rules.js';
export { GATE_MODES, allowRuleHint, createPermissionGate, type GateCall, type GateDecision, type GateMode, type PermissionGate, type PermissionGateOptions } from './permission-gate.js';
export {
  APPROVAL_ANSWERS, alwaysRuleFor, createApprovalQueue,
  type ApprovalEvent, type ApprovalQueue, type ApprovalQueueOptions, type ApprovalRequest, type PendingApproval,
} from './approvals.js';
export { APPROVAL_SCOPE_IDS, offeredScopes, type ApprovalScope, type ApprovalScopeId, type ScopeOptions } from './approval-scopes.js';
export {
  DEFAULT_SECRET_FIELDS, REDACTED, argsForAudit, argsMetadata, buildAuditRecord, createMemoryAuditSink, redactSecrets, redactText,
  type ApprovalAnswer, type ArgsMetadata, type AuditDecision, type AuditInput, type AuditRecord, type AuditSink,
} from './audit-record.js';
export { createArgsValidator, type ArgsValidator, type ArgumentProblem } from './validate-args.js';
export { UNATTENDED_ORIGINS, createInvoker, unwrapToolCall, type InvokeContext, type Invoker, type InvokerOptions } from './invoke.js';
