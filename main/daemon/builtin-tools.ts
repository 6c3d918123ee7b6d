import type { Capability } from '../core/capabilities/capability.js';
import type { FermixConfig } from '../config/schema.js';
import { ALWAYS_ON_BUILTINS, DEFERRAL_BRIDGES } from '../tools/index.js';

/**
 * Which built-ins a daemon with this config registers: the deferral bridges only while deferral is on
 * (reference §2.2), computer_use only when main/computer set it up (enabled and the native layer works).
 */
export function builtinToolsFor(config: FermixConfig, extra: { computerUse?: Capability } = {}): Capability[] {
  return [...ALWAYS_ON_BUILTINS, ...(config.fermix_core.tools.tool_search.enabled ? DEFERRAL_BRIDGES : []), ...(extra.computerUse ? [extra.computerUse] : [])];
}
