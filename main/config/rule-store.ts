import type { Rule, RuleStore } from '../core/capabilities/rules.js';
import { loadConfig, updateConfig } from './config-file.js';

/**
 * Permission rules live in config.toml as `[[permissions.rules]]`, so a person can read and edit them;
 * an "always" answer appends one there (atomic write), marked `source = "always-answer"`.
 */
export function createConfigRuleStore(configFile: string): RuleStore {
  let cache: readonly Rule[] | undefined;
  return {
    load() {
      cache ??= Object.freeze(loadConfig(configFile).config.permissions.rules.map((rule) => ({
        permission: rule.permission,
        ...(rule.pattern === undefined ? {} : { pattern: rule.pattern }),
        action: rule.action,
        source: rule.source,
        ...(rule.unjailed ? { unjailed: true } : {}),
      })));
      return cache;
    },
    add(rule) {
      updateConfig(configFile, (raw) => {
        const permissions = (raw.permissions ??= {}) as { rules?: Record<string, unknown>[] };
        permissions.rules ??= [];
        permissions.rules.push({ permission: rule.permission, ...(rule.pattern === undefined ? {} : { pattern: rule.pattern }), action: rule.action, source: rule.source === 'default' ? 'config' : rule.source, ...(rule.unjailed ? { unjailed: true } : {}) });
      });
      cache = undefined;
    },
  };
}
