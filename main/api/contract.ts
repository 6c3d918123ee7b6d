import { systemMethods } from './methods/system.js';
import { conversationMethods } from './methods/conversations.js';
import { eventMethods } from './methods/events.js';
import { capabilityMethods } from './methods/capabilities.js';
import { directoryAccessMethods } from './methods/directory-access.js';
import { chatMethods } from './methods/chat.js';
import { chatHistoryMethods } from './methods/chat-history.js';
import { sandboxMethods } from './methods/sandbox.js';
import { computerMethods } from './methods/computer.js';
import { providerSettingsMethods } from './methods/provider-settings.js';
import { settingsMethods } from './methods/settings.js';
import { voiceMethods } from './methods/voice.js';
import { attachmentMethods } from './methods/attachments.js';
import { pluginMethods } from './methods/plugins.js';
import { mcpMethods } from './methods/mcp.js';
import { jobMethods } from './methods/jobs.js';
import { memoryMethods } from './methods/memory.js';
import { skillMethods } from './methods/skills.js';
import type { MethodInput, MethodOutput, MethodParsedInput } from './define.js';

/**
 * THE contract between every client (renderer over IPC or HTTP, CLI over the control socket)
 * and the daemon. Grouped by domain; a method name is `<domain>.<verb>`.
 */
export const apiContract = {
  ...systemMethods,
  ...conversationMethods,
  ...eventMethods,
  ...capabilityMethods,
  ...directoryAccessMethods,
  ...chatMethods,
  ...chatHistoryMethods,
  ...sandboxMethods,
  ...providerSettingsMethods,
  ...settingsMethods,
  ...computerMethods,
  ...voiceMethods,
  ...attachmentMethods,
  ...pluginMethods,
  ...mcpMethods,
  ...jobMethods,
  ...memoryMethods,
  ...skillMethods,
};

export type ApiContract = typeof apiContract;
export type MethodName = keyof ApiContract;
export type InputOf<M extends MethodName> = MethodInput<ApiContract[M]>;
export type ParsedInputOf<M extends MethodName> = MethodParsedInput<ApiContract[M]>;
export type OutputOf<M extends MethodName> = MethodOutput<ApiContract[M]>;

export function isMethodName(name: string): name is MethodName {
  return Object.prototype.hasOwnProperty.call(apiContract, name);
}
