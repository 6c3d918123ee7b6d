/**
 * API handlers of sandbox.explain_command (main/api/methods/sandbox.ts). The composition root spreads
 * them into its table: the answer is the live sandbox's view — its policy, its jail, its config and
 * the daemon's own environment — computed without running the command.
 */
import type { Handlers } from '../api/dispatcher.js';
import type { SandboxConfig } from '../sandbox/sandbox-config.js';
import { explainCommand } from '../sandbox/explain-command.js';
import { loadHardline } from '../sandbox/hardline.js';
import type { JailStatus } from '../sandbox/jail.js';
import type { Sandbox } from '../sandbox/sandbox.js';

export interface SandboxHandlerDeps {
  sandbox: () => Pick<Sandbox, 'policy' | 'workspace'>;
  jail: JailStatus;
  /** The [sandbox] section in force (the one the running sandbox was built from). */
  config: () => SandboxConfig;
  home: string;
  fermixHome: string;
  daemonEnv: Record<string, string | undefined>;
}

export function createSandboxHandlers(deps: SandboxHandlerDeps): Pick<Handlers, 'sandbox.explain_command'> {
  return {
    'sandbox.explain_command': async (input) => {
      await loadHardline();
      const sandbox = deps.sandbox();
      return explainCommand({
        command: input.command,
        workingDir: input.working_dir,
        config: deps.config(),
        policy: sandbox.policy,
        workspace: sandbox.workspace,
        home: deps.home,
        fermixHome: deps.fermixHome,
        jail: deps.jail,
        daemonEnv: deps.daemonEnv,
      });
    },
  };
}
