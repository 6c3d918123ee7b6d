/**
 * THE one table mapping Fermix tool categories to capability groups (Voss's nine groups
 * `fs git test shell net code memory review mcp`, extended where Fermix's categories need more).
 * Roles (`[roles.<name>] tools = [...]`) grant access by these group names.
 */
export const VOSS_GROUPS = ['fs', 'git', 'test', 'shell', 'net', 'code', 'memory', 'review', 'mcp'] as const;
export const EXTENDED_GROUPS = ['browser', 'computer', 'scheduling', 'skills', 'plugin', 'channel', 'config', 'delegation', 'media', 'system'] as const;
export const CAPABILITY_GROUPS = [...VOSS_GROUPS, ...EXTENDED_GROUPS] as const;
export type CapabilityGroup = (typeof CAPABILITY_GROUPS)[number];

/** category → group. A tool whose category is not listed falls in `system`. */
export const CATEGORY_TO_GROUP: Readonly<Record<string, CapabilityGroup>> = {
  file: 'fs',
  git: 'git',
  web: 'net',
  memory: 'memory',
  delegation: 'delegation',
  skill_admin: 'skills',
  scheduling: 'scheduling',
  config: 'config',
  media: 'media',
  channel: 'channel',
  computer: 'computer',
  plugin: 'plugin',
  mcp: 'mcp',
  system: 'system',
};

/** Tools whose group differs from their category's (Fermix puts shell and browser in broader categories). */
export const TOOL_GROUP_OVERRIDES: Readonly<Record<string, CapabilityGroup>> = {
  shell: 'shell',
  browser: 'browser',
};

export function groupFor(name: string, category: string): CapabilityGroup {
  return TOOL_GROUP_OVERRIDES[name] ?? CATEGORY_TO_GROUP[category] ?? 'system';
}

export function isCapabilityGroup(value: string): value is CapabilityGroup {
  return (CAPABILITY_GROUPS as readonly string[]).includes(value);
}
