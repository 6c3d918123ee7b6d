/** Hardline rule names: stable (tests, traces and `data.rule` use them); new rules are added, none renamed. */
export const MAX_NESTING = 8;

export type HardlineRule =
  | 'recursive_delete' | 'find_delete' | 'mkfs' | 'disk_write' | 'disk_tool' | 'fork_bomb' | 'spawn_loop' | 'mass_kill'
  | 'power' | 'sysrq' | 'sudo_stdin' | 'recursive_permissions' | 'move_root' | 'remote_script' | 'too_deep' | 'too_long';

export const RULE_DESCRIPTIONS: Record<HardlineRule, string> = {
  recursive_delete: 'recursive delete of the filesystem root, the home folder or a protected root',
  find_delete: 'find -delete/-exec rm over the filesystem root, the home folder or a protected root',
  mkfs: 'formatting a filesystem',
  disk_write: 'writing straight to a disk device',
  disk_tool: 'repartitioning, discarding or erasing a disk',
  fork_bomb: 'fork bomb',
  spawn_loop: 'an endless loop that keeps starting processes in the background',
  mass_kill: 'killing every process (mass kill)',
  power: 'shutdown, reboot or halt',
  sysrq: 'a magic SysRq request (/proc/sysrq-trigger)',
  sudo_stdin: 'sudo reading a password from stdin (sudo -S)',
  recursive_permissions: 'recursive chmod/chown of the filesystem root, the home folder or a protected root',
  move_root: 'moving away the filesystem root, the home folder or a protected root',
  remote_script: 'running a script straight from the network (a download piped or substituted into an interpreter)',
  too_deep: `command nesting deeper than ${MAX_NESTING} levels`,
  too_long: 'a command longer than the 128 KiB command limit',
};

export const HARDLINE_RULES = Object.keys(RULE_DESCRIPTIONS) as HardlineRule[];
