/**
 * The config edits behind `fermix sandbox commands …` and `fermix sandbox env …`. Each is one
 * `updateConfig` call (validated, atomic), so a bad name is refused with the config's own error
 * and the file is never half-written.
 */
import { updateConfig } from '../../config/config-file.js';
import type { HomePaths } from '../../config/home.js';
import { FermixError } from '../../core/errors.js';
import { COMMAND_PRESETS, type PresetName } from '../../sandbox/command-capabilities.js';
import { UsageError } from '../output.js';

type Table = Record<string, unknown>;

function table(parent: Table, key: string): Table {
  const value = parent[key];
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Table;
  const fresh: Table = {};
  parent[key] = fresh;
  return fresh;
}

function list(parent: Table, key: string): string[] {
  const value = parent[key];
  return Array.isArray(value) ? value.map(String) : [];
}

function editSandbox(paths: HomePaths, edit: (sandbox: Table) => void): void {
  updateConfig(paths.config, (raw) => edit(table(raw, 'sandbox')));
}

const PROFILES = ['bare', 'assistant', 'extended'];
const COMMAND_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** `commands profile P | enable X | disable X | remove NAME`; returns what changed, in one sentence. */
export function editCommands(paths: HomePaths, action: string, target: string | undefined): string {
  if (target === undefined) throw new UsageError(`usage: fermix sandbox commands ${action} ${action === 'profile' ? PROFILES.join('|') : 'PRESET|NAME'}`);
  if (action === 'profile') {
    if (!PROFILES.includes(target)) throw new UsageError(`profile must be one of ${PROFILES.join(', ')}`);
    editSandbox(paths, (s) => void (table(s, 'commands').profile = target));
    return `Command profile set to ${target}.`;
  }
  const preset = (Object.keys(COMMAND_PRESETS) as PresetName[]).find((p) => p === target);
  if (action === 'enable' || action === 'disable') {
    const enabled = action === 'enable';
    editSandbox(paths, (s) => {
      const commands = table(s, 'commands');
      const names = preset ? COMMAND_PRESETS[preset].map((c) => c.name) : [target];
      for (const name of names) {
        const existing = commands[name];
        if (existing !== null && typeof existing === 'object') {
          (existing as Table).enabled = enabled;
          continue;
        }
        const fromPreset = Object.values(COMMAND_PRESETS).flat().find((c) => c.name === name);
        if (fromPreset === undefined) {
          throw new FermixError({ code: 'unknown_command', message: `No preset or configured command is named ${name}.`, hint: 'Run `fermix sandbox commands` to list them, or add one with `fermix sandbox grant command NAME -- CMD`.' });
        }
        // A config entry named like a preset replaces it: enabled = true offers it under any profile,
        // enabled = false hides it even under assistant/extended.
        commands[name] = { command: fromPreset.command, pass_env: fromPreset.pass_env, description: fromPreset.description, enabled };
      }
    });
    return `${enabled ? 'Enabled' : 'Disabled'} ${preset ? `preset ${preset} (${COMMAND_PRESETS[preset].map((c) => c.name).join(', ')})` : target}.`;
  }
  if (action === 'remove') {
    editSandbox(paths, (s) => {
      const commands = table(s, 'commands');
      if (!(target in commands) || target === 'profile') throw new FermixError({ code: 'unknown_command', message: `[sandbox.commands.${target}] is not in config.toml.`, hint: 'Run `fermix sandbox commands` to list the configured commands.' });
      delete commands[target];
    });
    return `Removed [sandbox.commands.${target}].`;
  }
  throw new UsageError('usage: fermix sandbox commands [list] | profile P | enable|disable PRESET|NAME | remove NAME');
}

/** `fermix sandbox grant command NAME -- CMD [ARGS…]`. */
export function grantCommand(paths: HomePaths, name: string | undefined, argv: string[]): string {
  if (name === undefined || argv.length === 0) throw new UsageError('usage: fermix sandbox grant command NAME -- CMD [ARGS...]');
  if (!COMMAND_NAME.test(name) || name === 'profile') throw new UsageError('NAME must be 1–64 letters, digits, _ or - (and not "profile")');
  editSandbox(paths, (s) => {
    table(s, 'commands')[name] = { command: argv[0], args: argv.slice(1) };
  });
  return `Added command ${name}: ${argv.join(' ')} (offered under every profile; exec-class, so each call asks unless your rules allow it).`;
}

/** `env allow|deny NAME`, `env set NAME -- HELPER…`, `env unset NAME`. */
export function editEnv(paths: HomePaths, action: string, name: string | undefined, helper: string[]): string {
  if (name === undefined) throw new UsageError('usage: fermix sandbox env allow|deny|unset NAME | env set NAME -- HELPER [ARGS...]');
  editSandbox(paths, (s) => {
    const env = table(s, 'env');
    const allow = list(env, 'allow').filter((n) => n !== name);
    const deny = list(env, 'deny').filter((n) => n !== name);
    const helpers = table(env, 'helpers');
    switch (action) {
      case 'allow':
        allow.push(name);
        break;
      case 'deny':
        deny.push(name);
        break;
      case 'set':
        if (helper.length === 0) throw new UsageError('usage: fermix sandbox env set NAME -- HELPER [ARGS...]');
        helpers[name] = helper;
        allow.push(name);
        break;
      case 'unset':
        delete helpers[name];
        break;
      default:
        throw new UsageError('usage: fermix sandbox env [list] | allow|deny|unset NAME | set NAME -- HELPER [ARGS...]');
    }
    env.allow = allow;
    env.deny = deny;
    if (Object.keys(helpers).length === 0) delete env.helpers;
  });
  const said: Record<string, string> = {
    allow: `${name} is allowed: commands get its value from a helper, the keychain or the daemon's environment.`,
    deny: `${name} is denied: commands never get it.`,
    set: `${name} is read from \`${helper.join(' ')}\` (first line of its output) before each command.`,
    unset: `${name} is no longer passed to commands.`,
  };
  return said[action];
}
