import { homedir } from 'node:os';
import type { FermixConfig } from '../config/schema.js';
import type { HomePaths } from '../config/home.js';
import { FERMIX_VERSION } from '../core/version.js';
import type { Keychain } from '../secrets/keychain.js';
import { createCommandRunner, createDirectoryAccess, createJail, createSandbox, createSwappableSandbox, type SandboxEvent } from '../sandbox/index.js';
import type { SandboxConfig } from '../sandbox/sandbox-config.js';
import type { ReactionSink } from '../tools/tool-services.js';
import { createBrowserService } from '../browser/service.js';
import { createToolSearchService } from '../tools/search/service.js';
import type { EventBus } from './event-bus.js';
import type { Logger } from './logger.js';

export interface ToolServicesOptions {
  config: FermixConfig;
  paths: HomePaths;
  events: EventBus;
  keychain: Keychain;
  logger: Logger;
}

/**
 * Everything executors find in `context.services`: the sandbox (the only thing that spawns), the
 * folder-grant service, the chat's reaction port, and the network/search settings (the attachment port,
 * which needs the database, is added by the composition root: main/daemon/attachment-sink.ts).
 * Built once; the sandbox object keeps its identity and swaps its inside after a grant.
 */
export async function createToolServices(options: ToolServicesOptions) {
  const { config, paths, events, keychain, logger } = options;
  const jail = await createJail({ enabled: config.sandbox.jail.enabled, required: config.sandbox.jail.required, limits: config.sandbox.jail.limits });
  const runner = createCommandRunner();
  const onEvent = (event: SandboxEvent) => logger.info('sandbox event', { ...event });
  const makeSandbox = (sandboxConfig: SandboxConfig) =>
    createSandbox({
      config: sandboxConfig,
      home: homedir(),
      fermixHome: paths.home,
      daemonEnv: process.env,
      daemonCwd: process.cwd(),
      jail,
      runner,
      keychain: async (name) => keychain.get(name) ?? undefined,
      onEvent,
    });
  const sandbox = createSwappableSandbox(makeSandbox(config.sandbox));

  const directoryAccess = createDirectoryAccess({
    policy: () => sandbox.policy,
    configFile: paths.config,
    home: homedir(),
    prompt: (pending) => {
      events.emit(pending.conversationId, 'directory_access.requested', {
        conversation_id: pending.conversationId,
        token: pending.token,
        path: pending.path,
        reason: pending.reason,
        message: pending.message,
        expires_at: new Date(pending.expiresAt).toISOString(),
      });
    },
    onSettled: (token, outcome) => events.emit('system', 'directory_access.settled', { token, outcome }),
    onGranted: (_root, next) => sandbox.swap(makeSandbox(next.sandbox)),
  });

  const reactions: ReactionSink = {
    supported: true,
    async react({ conversationId, emoji }) {
      events.emit(conversationId, 'chat.reaction', { conversation_id: conversationId, emoji });
    },
  };

  // The daemon's own port is known only after listen (compose.ts sets it); the browser refuses it on loopback.
  const daemonPorts: number[] = [];
  const browser = createBrowserService({
    profilesDir: paths.browserProfiles,
    daemonPorts: () => daemonPorts,
    onEvent: (message, fields) => logger.info(message, fields),
  });

  const services: Record<string, unknown> = {
    sandbox,
    browser,
    directoryAccess,
    // `attachments` (send_attachment's port) is added by compose.ts: it needs the database, opened later.
    reactions,
    configFile: paths.config,
    net: { userAgent: `fermix/${FERMIX_VERSION}` },
    secrets: { get: (name: string) => keychain.get(name) ?? undefined },
    webSearch: { backend: config.fermix_core.tools.web_search.backend },
    // generate_image: settings as loaded at start; the credential is looked up per call (secret store, then env).
    imageGeneration: { settings: () => config.fermix_core.tools.generate_image, credential: (name: string) => keychain.get(name) ?? process.env[name] },
    toolSearch: createToolSearchService({
      settings: config.fermix_core.tools.tool_search,
      providers: config.providers,
      secret: (ref) => (ref.keyring ? keychain.get(ref.keyring) ?? undefined : ref.env ? process.env[ref.env] : undefined),
      warn: (message, fields) => logger.warn(message, fields),
    }),
    logger: { warn: (message: string, fields?: Record<string, unknown>) => logger.warn(message, fields) },
  };
  return {
    services,
    sandbox,
    directoryAccess,
    jailStatus: jail.status,
    /** A new [sandbox] section: the tools see the new sandbox from their next call on. */
    reloadSandbox(next: SandboxConfig) {
      sandbox.swap(makeSandbox(next));
    },
    /** The HTTP port the daemon serves on, so the browser can never open the daemon's own window. */
    setDaemonPort(port: number) {
      daemonPorts.splice(0, daemonPorts.length, port);
    },
    async shutdown() {
      // Every Chromium this daemon started is closed before it exits (no orphan browser processes).
      await browser.shutdown();
      await runner.shutdownAll();
    },
  };
}
