/** Public API of the agent: the composition root imports from here. */
export { createAgentService, type AgentService, type AgentServiceDeps, type SendInput, type TurnSummary } from './agent-service.js';
export { createChatHandlers, type ChatMethodName } from './chat-handlers.js';
export { createConfigReader } from './config-reader.js';
export { isDeferrable, presentTools, BRIDGE_NAMES } from './deferral.js';
export { buildRuntimePrompt, type PluginStatus, type SkillSummary } from './runtime-prompt.js';
export { PROVIDER_SETUP_UI, OLLAMA_BASE_URL, resolveProviders } from './providers/provider-config.js';
export { systemSecrets, keyringServices, KEYRING_ACCOUNT, type SecretReader } from './providers/secrets.js';
