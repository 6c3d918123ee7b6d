import type { systemMethods } from './methods/system.js';
import type { conversationMethods } from './methods/conversations.js';
import type { eventMethods } from './methods/events.js';
import type { capabilityMethods } from './methods/capabilities.js';
import type { directoryAccessMethods } from './methods/directory-access.js';
import type { chatMethods } from './methods/chat.js';
import type { chatHistoryMethods } from './methods/chat-history.js';
import type { sandboxMethods } from './methods/sandbox.js';
import type { providerSettingsMethods } from './methods/provider-settings.js';
import type { settingsMethods } from './methods/settings.js';
import type { computerMethods } from './methods/computer.js';
import type { voiceMethods } from './methods/voice.js';
import type { attachmentMethods } from './methods/attachments.js';
import type { pluginMethods } from './methods/plugins.js';
import type { mcpMethods } from './methods/mcp.js';
import type { jobMethods } from './methods/jobs.js';
import type { memoryMethods } from './methods/memory.js';
import type { skillMethods } from './methods/skills.js';
import type { MethodInput, MethodOutput, MethodParsedInput, MethodSpec } from './define.js';

/**
 * THE contract between every client (renderer over IPC or HTTP, CLI over the control socket)
 * and the daemon. Grouped by domain; a method name is `<domain>.<verb>`.
 *
 * A domain's zod schemas are built the first time one of its methods is called, not when the daemon
 * starts: building all 112 methods' schemas at start-up cost ~15 ms of it (docs/decisions/0026).
 */
const DOMAINS = {
  system: () => import('./methods/system.js').then((module) => module.systemMethods),
  conversations: () => import('./methods/conversations.js').then((module) => module.conversationMethods),
  events: () => import('./methods/events.js').then((module) => module.eventMethods),
  capabilities: () => import('./methods/capabilities.js').then((module) => module.capabilityMethods),
  directoryAccess: () => import('./methods/directory-access.js').then((module) => module.directoryAccessMethods),
  chat: () => import('./methods/chat.js').then((module) => module.chatMethods),
  chatHistory: () => import('./methods/chat-history.js').then((module) => module.chatHistoryMethods),
  sandbox: () => import('./methods/sandbox.js').then((module) => module.sandboxMethods),
  providerSettings: () => import('./methods/provider-settings.js').then((module) => module.providerSettingsMethods),
  settings: () => import('./methods/settings.js').then((module) => module.settingsMethods),
  computer: () => import('./methods/computer.js').then((module) => module.computerMethods),
  voice: () => import('./methods/voice.js').then((module) => module.voiceMethods),
  attachments: () => import('./methods/attachments.js').then((module) => module.attachmentMethods),
  plugins: () => import('./methods/plugins.js').then((module) => module.pluginMethods),
  mcp: () => import('./methods/mcp.js').then((module) => module.mcpMethods),
  jobs: () => import('./methods/jobs.js').then((module) => module.jobMethods),
  memory: () => import('./methods/memory.js').then((module) => module.memoryMethods),
  skills: () => import('./methods/skills.js').then((module) => module.skillMethods),
} as const;
type Domain = keyof typeof DOMAINS;

export type ApiContract = typeof systemMethods &
  typeof conversationMethods &
  typeof eventMethods &
  typeof capabilityMethods &
  typeof directoryAccessMethods &
  typeof chatMethods &
  typeof chatHistoryMethods &
  typeof sandboxMethods &
  typeof providerSettingsMethods &
  typeof settingsMethods &
  typeof computerMethods &
  typeof voiceMethods &
  typeof attachmentMethods &
  typeof pluginMethods &
  typeof mcpMethods &
  typeof jobMethods &
  typeof memoryMethods &
  typeof skillMethods;
export type MethodName = keyof ApiContract;
export type InputOf<M extends MethodName> = MethodInput<ApiContract[M]>;
export type ParsedInputOf<M extends MethodName> = MethodParsedInput<ApiContract[M]>;
export type OutputOf<M extends MethodName> = MethodOutput<ApiContract[M]>;

/**
 * Every method and the module that defines it. `satisfies` makes the type checker refuse a method missing
 * here or one that does not exist; contract.test.ts checks each name's domain.
 */
const METHOD_DOMAINS = {
  // system.ts
  'system.health': 'system',
  'system.status': 'system',
  'system.rotate_token': 'system',
  'system.stop': 'system',
  'system.restart': 'system',
  'system.doctor': 'system',
  // conversations.ts
  'conversations.create': 'conversations',
  'conversations.list': 'conversations',
  'conversations.get': 'conversations',
  'conversations.rename': 'conversations',
  'conversations.pin': 'conversations',
  'conversations.delete': 'conversations',
  'conversations.restore': 'conversations',
  'conversations.search': 'conversations',
  // events.ts
  'events.replay': 'events',
  // capabilities.ts
  'capabilities.list': 'capabilities',
  'capabilities.inspect': 'capabilities',
  'capabilities.call': 'capabilities',
  'approvals.list': 'capabilities',
  'approvals.answer': 'capabilities',
  'audit.query': 'capabilities',
  'audit.export': 'capabilities',
  'roles.check': 'capabilities',
  // directory-access.ts
  'directory_access.pending': 'directoryAccess',
  'directory_access.answer': 'directoryAccess',
  // chat.ts
  'chat.send': 'chat',
  'chat.fork': 'chat',
  'chat.stop': 'chat',
  'chat.pause': 'chat',
  'chat.resume': 'chat',
  'chat.turn': 'chat',
  'chat.turns': 'chat',
  'chat.compact': 'chat',
  'providers.list': 'chat',
  'providers.models': 'chat',
  // chat-history.ts
  'chat.history': 'chatHistory',
  // sandbox.ts
  'sandbox.reload': 'sandbox',
  'sandbox.explain_command': 'sandbox',
  // provider-settings.ts
  'providers.probe_models': 'providerSettings',
  'providers.add': 'providerSettings',
  'providers.remove': 'providerSettings',
  'providers.set_primary': 'providerSettings',
  'providers.set_model': 'providerSettings',
  'providers.set_key': 'providerSettings',
  // settings.ts
  'settings.get': 'settings',
  'settings.update': 'settings',
  'settings.grant_path': 'settings',
  'settings.revoke_path': 'settings',
  'settings.set_transcription_key': 'settings',
  // computer.ts
  'computer.status': 'computer',
  'computer.pause': 'computer',
  'computer.set_enabled': 'computer',
  'computer.resume': 'computer',
  // voice.ts
  'voice.transcribe': 'voice',
  'voice.status': 'voice',
  // attachments.ts
  'attachments.upload': 'attachments',
  'attachments.get': 'attachments',
  'attachments.list': 'attachments',
  'attachments.discard': 'attachments',
  // plugins.ts
  'plugins.catalog': 'plugins',
  'plugins.status': 'plugins',
  'plugins.installed': 'plugins',
  'plugins.install': 'plugins',
  'plugins.upgrade': 'plugins',
  'plugins.pin': 'plugins',
  'plugins.uninstall': 'plugins',
  'plugins.gc': 'plugins',
  'plugins.enable': 'plugins',
  'plugins.disable': 'plugins',
  'plugins.reload': 'plugins',
  'plugins.set_secret': 'plugins',
  'plugins.clear_secret': 'plugins',
  'plugins.auth_status': 'plugins',
  'plugins.config': 'plugins',
  'plugins.config_set': 'plugins',
  'plugins.oauth_client.set': 'plugins',
  'plugins.oauth_login.start': 'plugins',
  'plugins.oauth_login.wait': 'plugins',
  'plugins.oauth_refresh': 'plugins',
  'plugins.oauth_logout': 'plugins',
  'plugins.workspaces': 'plugins',
  'plugins.workspace_select': 'plugins',
  'plugins.doctor': 'plugins',
  // mcp.ts
  'mcp.list': 'mcp',
  'mcp.tools': 'mcp',
  'mcp.restart': 'mcp',
  'mcp.reload': 'mcp',
  'mcp.set_enabled': 'mcp',
  'mcp.add': 'mcp',
  'mcp.remove': 'mcp',
  'mcp.set_tool_hidden': 'mcp',
  'mcp.logs': 'mcp',
  'mcp.pins_answer': 'mcp',
  'mcp.auth_login.start': 'mcp',
  'mcp.auth_login.wait': 'mcp',
  'mcp.auth_logout': 'mcp',
  'mcp.inbound_list': 'mcp',
  'mcp.inbound_call': 'mcp',
  // jobs.ts
  'jobs.list': 'jobs',
  'jobs.runs': 'jobs',
  'jobs.run': 'jobs',
  'jobs.run_now': 'jobs',
  'jobs.pause': 'jobs',
  'jobs.resume': 'jobs',
  'jobs.remove': 'jobs',
  // memory.ts
  'memory.list': 'memory',
  'memory.search': 'memory',
  'memory.forget': 'memory',
  // skills.ts
  'skills.list': 'skills',
  'skills.view': 'skills',
  'skills.reload': 'skills',
  'skills.create': 'skills',
} as const satisfies Record<MethodName, Domain>;

export const METHOD_NAMES = Object.keys(METHOD_DOMAINS) as MethodName[];

export function isMethodName(name: string): name is MethodName {
  return Object.prototype.hasOwnProperty.call(METHOD_DOMAINS, name);
}

const domainsLoading = new Map<Domain, Promise<Record<string, MethodSpec>>>();
/** Specs of the domains already loaded: the dispatcher's path after a domain's first call stays synchronous. */
const loadedSpecs = new Map<string, MethodSpec>();

/** A method's spec (input and output schemas, description), built with its domain on first use. */
export function methodSpec<M extends MethodName>(name: M): ApiContract[M] | Promise<ApiContract[M]> {
  const loaded = loadedSpecs.get(name);
  if (loaded) return loaded as ApiContract[M];
  const domain = METHOD_DOMAINS[name];
  let loading = domainsLoading.get(domain);
  if (!loading) {
    loading = (DOMAINS[domain]() as Promise<Record<string, MethodSpec>>).then((specs) => {
      for (const [method, spec] of Object.entries(specs)) loadedSpecs.set(method, spec);
      return specs;
    });
    domainsLoading.set(domain, loading);
  }
  return loading.then((specs) => specs[name] as ApiContract[M]);
}

/** The whole contract, every domain loaded (docs, tests). */
export async function loadApiContract(): Promise<ApiContract> {
  const all: Record<string, MethodSpec> = {};
  for (const name of METHOD_NAMES) all[name] = await methodSpec(name);
  return all as ApiContract;
}
