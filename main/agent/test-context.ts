/**
 * For agent tests (not used by product code): the scripted model server for the whole file and the
 * harness of the running test, closed after each test — the setup every agent test file repeated.
 */
import { afterAll, afterEach, beforeAll } from 'vitest';
import { startModelServer, type ModelServer } from '../../test/fixtures/model-server/index.js';
import type { Harness } from './test-harness.js';

export interface AgentTestContext {
  /** Started before the file's first test, closed after its last. */
  readonly server: ModelServer;
  /** Set by the test; closed (and cleared) after each test. */
  harness: Harness | undefined;
}

export function useAgentTestContext(): AgentTestContext {
  let server: ModelServer | undefined;
  const context: AgentTestContext = {
    get server() {
      if (server === undefined) throw new Error('the model server starts in beforeAll; use it inside a test');
      return server;
    },
    harness: undefined,
  };
  beforeAll(async () => {
    server = await startModelServer();
  });
  afterAll(() => server?.close());
  afterEach(async () => {
    await context.harness?.close();
    context.harness = undefined;
  });
  return context;
}
