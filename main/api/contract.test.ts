// The contract's method table (names → the module that defines them) must match the method modules
// exactly: a wrong domain would make a method's first call load the wrong schemas and fail.
import { describe, expect, it } from 'vitest';
import { isMethodName, loadApiContract, METHOD_NAMES, methodSpec } from './contract.js';
import { attachmentMethods } from './methods/attachments.js';
import { capabilityMethods } from './methods/capabilities.js';
import { chatHistoryMethods } from './methods/chat-history.js';
import { chatMethods } from './methods/chat.js';
import { computerMethods } from './methods/computer.js';
import { conversationMethods } from './methods/conversations.js';
import { directoryAccessMethods } from './methods/directory-access.js';
import { eventMethods } from './methods/events.js';
import { jobMethods } from './methods/jobs.js';
import { mcpMethods } from './methods/mcp.js';
import { memoryMethods } from './methods/memory.js';
import { pluginMethods } from './methods/plugins.js';
import { providerSettingsMethods } from './methods/provider-settings.js';
import { sandboxMethods } from './methods/sandbox.js';
import { settingsMethods } from './methods/settings.js';
import { skillMethods } from './methods/skills.js';
import { systemMethods } from './methods/system.js';
import { voiceMethods } from './methods/voice.js';

const modules = [
  systemMethods, conversationMethods, eventMethods, capabilityMethods, directoryAccessMethods, chatMethods, chatHistoryMethods, sandboxMethods,
  providerSettingsMethods, settingsMethods, computerMethods, voiceMethods, attachmentMethods, pluginMethods, mcpMethods, jobMethods, memoryMethods, skillMethods,
];

describe('api contract', () => {
  it('names every method of every module exactly once', () => {
    const defined = modules.flatMap((module) => Object.keys(module));
    expect(new Set(defined).size).toBe(defined.length);
    expect([...METHOD_NAMES].sort()).toEqual([...defined].sort());
  });

  it("loads each method's own spec from its module", async () => {
    const byName = new Map(modules.flatMap((module) => Object.entries(module)));
    for (const name of METHOD_NAMES) expect(await methodSpec(name)).toBe(byName.get(name));
    const contract = await loadApiContract();
    expect(Object.keys(contract)).toHaveLength(byName.size);
  });

  it('knows no other names', () => {
    expect(isMethodName('system.health')).toBe(true);
    for (const name of ['system', 'system.nope', 'toString', '__proto__', 'constructor', '']) expect(isMethodName(name)).toBe(false);
  });
});
