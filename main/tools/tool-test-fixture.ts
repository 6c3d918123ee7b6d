/**
 * Test-only: a real sandbox over a throwaway machine layout (see sandbox/test-fixture.ts), and an
 * ExecutionContext carrying it, so tool tests run the real executors against real files, real
 * processes and real git. Imported only by *.test.ts files.
 */
import { FermixError } from '../core/errors.js';
import type { ExecutionContext, Executor, ToolResult } from '../core/capabilities/capability.js';
import { createSandbox, sandboxConfigSchema, type Sandbox, type SandboxConfigInput } from '../sandbox/index.js';
import { makeSandboxDirs, type SandboxDirs } from '../sandbox/test-fixture.js';

export interface ToolFixture extends SandboxDirs {
  sandbox: Sandbox;
  context(overrides?: Partial<ExecutionContext> & { extra?: Record<string, unknown> }): ExecutionContext;
  dispose(): Promise<void>;
}

export function makeToolFixture(prefix: string, config: SandboxConfigInput = {}, daemonEnv: Record<string, string> = {}): ToolFixture {
  const dirs = makeSandboxDirs(prefix);
  const sandbox = createSandbox({
    config: sandboxConfigSchema.parse(config),
    home: dirs.home,
    fermixHome: dirs.fermixHome,
    daemonEnv: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dirs.home, LANG: 'C.UTF-8', ...daemonEnv },
  });
  return {
    ...dirs,
    sandbox,
    context: (overrides = {}) => {
      const { extra, ...rest } = overrides;
      return { trust: 'operator', origin: 'chat', conversationId: 'conv-1', signal: new AbortController().signal, services: { sandbox, ...extra }, ...rest };
    },
    dispose: async () => {
      await sandbox.shutdown();
      dirs.cleanup();
    },
  };
}

/** Runs an executor and returns its FermixError; fails the test when it succeeds or throws anything else. */
export async function failureOf(promise: Promise<ToolResult>): Promise<FermixError> {
  let result: ToolResult;
  try {
    result = await promise;
  } catch (error) {
    if (error instanceof FermixError) return error;
    throw new Error(`expected a FermixError, got: ${String(error)}`, { cause: error });
  }
  throw new Error(`expected the call to fail, it returned: ${result.text.slice(0, 300)}`);
}

export function run(executor: Executor | undefined, args: Record<string, unknown>, context: ExecutionContext): Promise<ToolResult> {
  if (executor === undefined) throw new Error('test setup: the capability has no executor');
  return executor(args, context);
}
